// SPDX-License-Identifier: GPL-3.0-or-later
import TiltClient
import TiltCommandLine
import TiltCore
import TiltSystem
import TiltTerminal
import TiltWire

/// Commands that send one request and print its outcome.
enum OneShot {
    /// Sends the command `make` builds from the daemon's board (the state it greets
    /// with), prints what it changed; exit 1 with the daemon's message on an error.
    /// A usage error from `make` (a tile not on that board) is reported before
    /// anything is sent (docs/client.md, "Exit statuses"); nil from it sends nothing.
    /// `status` gives the exit status of what the daemon answered (`nothingMoved`).
    static func perform(_ arguments: ParsedArguments, timeout: Double = 10, describe: ([ServerMessage]) -> String?,
                        status: ([ServerMessage]) -> Int32 = { _ in ExitStatus.ok },
                        _ make: (GameState) throws(UsageError) -> Command?) -> Int32 {
        let connection: DaemonConnection
        switch connect(arguments) {
        case .success(let c): connection = c
        case .failure(let exit): return exit.status
        }
        var messages: [ServerMessage]
        let command: Command?
        do throws(DaemonConnection.Failure) {
            messages = try connection.readUntilState()
        } catch {
            return report(error).status
        }
        if let refused = refusal(messages) { return refused }
        guard case .state(let state)? = messages.last else { return ExitStatus.software }
        do throws(UsageError) {
            command = try make(state)
        } catch {
            return StandardError.report(error, program: "tiltpuzzle")
        }
        if let command {
            do throws(DaemonConnection.Failure) {
                // The request's events, then its reply, after the greeting's state and sensor.
                messages += try connection.request(command, timeout: timeout)
            } catch {
                return report(error).status
            }
        }
        if let refused = refusal(messages) { return refused }
        if let text = describe(messages) { print(text) }
        return status(messages)
    }

    static func perform(_ command: Command, _ arguments: ParsedArguments, timeout: Double = 10,
                        describe: ([ServerMessage]) -> String?) -> Int32 {
        perform(arguments, timeout: timeout, describe: describe) { _ in command }
    }

    /// Sends a command that moves tiles (a tilt, a move, a slide, an undo or a redo):
    /// prints what moved, or `nothing`, and exits `nothingMoved` when no tile moved, so
    /// a script can tell (docs/client.md, "Exit statuses").
    static func performMoving(_ arguments: ParsedArguments, nothing: String = L("nothing moved"),
                              _ make: (GameState) throws(UsageError) -> Command?) -> Int32 {
        perform(arguments, describe: { movesText($0, nothing: nothing) },
                status: { moves($0).isEmpty ? ExitStatus.nothingMoved : ExitStatus.ok }, make)
    }

    /// When the request was answered with an error: prints the daemon's message (in the
    /// player's language when the client knows it) and returns exit 1.
    static func refusal(_ messages: [ServerMessage]) -> Int32? {
        guard case .error(_, let code, let message)? = messages.last else { return nil }
        StandardError.print("tiltpuzzle: \(RefusalText.text(code, message)) (\(code.rawValue))")
        return ExitStatus.refused
    }

    /// `moved 15 right, 14 right — solved!`: each tile by its label, or `nothing` when none moved.
    static func movesText(_ messages: [ServerMessage], nothing: String) -> String {
        let moves = moves(messages)
        guard !moves.isEmpty else { return nothing }
        let list = moves.joined(separator: ", ")
        return messages.contains(where: { if case .solved = $0 { true } else { false } })
            ? L("moved {0} — solved!", list) : L("moved {0}", list)
    }

    /// Each move among `messages` as `15 right`, its tile by its label.
    static func moves(_ messages: [ServerMessage]) -> [String] {
        var mirror = BoardMirror()
        var moves: [String] = []
        for message in messages {
            let outcome = mirror.apply(message)
            guard case .move(_, let move, _, _, _, _, _) = message else { continue }
            // Only a move the mirror applied tells which tile it was.
            let tile = outcome == .updated ? mirror.state.flatMap { BoardNotation.label(ofValue: $0.board[move.to], side: $0.size) } : nil
            // TRANSLATORS: a tile and the way it moved, in "moved {0}": "15 right".
            moves.append(L("{0} {1}", tile.map(String.init) ?? L("a tile"), GameText.directionText(move.direction)))
        }
        return moves
    }

    static func direction(_ text: String?) throws(UsageError) -> Direction {
        guard let text, let direction = Direction(rawValue: text) else {
            throw UsageError(L("DIRECTION must be up, down, left or right, not '{0}'", text ?? ""))
        }
        return direction
    }
}
