import TiltClient
import TiltCommandLine
import TiltCore
import TiltTerminal
import TiltWire

/// Commands that send one request and print its outcome.
enum OneShot {
    /// Sends `command`, prints what it changed; exit 1 with the daemon's message on an error.
    static func perform(_ command: Command, _ arguments: ParsedArguments,
                        describe: ([ServerMessage]) -> String?) -> Int32 {
        let connection: DaemonConnection
        switch connect(arguments) {
        case .success(let c): connection = c
        case .failure(let exit): return exit.status
        }
        let messages: [ServerMessage]
        do throws(DaemonConnection.Failure) {
            // The greeting's state and sensor come first, then the request's events and reply.
            // A daemon's first 4×4 hint builds its tables first (docs/solver.md): seconds
            // on a slow tablet, a minute or more in a debug build on a busy machine.
            let timeout: Double = if case .hint = command { 120 } else { 10 }
            messages = try connection.request(command, timeout: timeout)
        } catch {
            return report(error).status
        }
        if case .error(_, let code, let message)? = messages.last {
            StandardError.print("tiltpuzzle: \(message) (\(code.rawValue))")
            return ExitStatus.refused
        }
        if let text = describe(messages) { print(text) }
        return ExitStatus.ok
    }

    static func movesText(_ messages: [ServerMessage]) -> String {
        let moves = messages.compactMap { message -> String? in
            guard case .move(_, let move, _, _, _, _, _) = message else { return nil }
            return "\(move.from)→\(move.to) \(move.direction)"
        }
        guard !moves.isEmpty else { return "nothing moved" }
        var text = "moved " + moves.joined(separator: ", ")
        if messages.contains(where: { if case .solved = $0 { true } else { false } }) { text += " — solved!" }
        return text
    }

    static func direction(_ text: String?) throws(UsageError) -> Direction {
        guard let text, let direction = Direction(rawValue: text) else {
            throw UsageError("DIRECTION must be up, down, left or right, not '\(text ?? "")'")
        }
        return direction
    }

    static func index(_ text: String?) throws(UsageError) -> Int {
        guard let text, let index = Int(text), index >= 0 else {
            throw UsageError("INDEX must be a cell index from 0, not '\(text ?? "")'")
        }
        return index
    }

    /// `--board`: whole numbers separated by commas and/or spaces, checked as the
    /// daemon checks them, so a mistake is a usage error before anything is sent.
    static func board(_ text: String) throws(UsageError) -> Board {
        let words = text.split(whereSeparator: { $0 == "," || $0 == " " })
        var cells: [Int] = []
        for word in words {
            guard let value = Int(word) else { throw UsageError("--board expects whole numbers, not '\(word)'") }
            cells.append(value)
        }
        do throws(Board.Problem) {
            return try Board(cells: cells)
        } catch {
            throw UsageError("--board: \(error)")
        }
    }
}

/// Parses arguments that the declaration cannot check by itself.
func checked<T>(_ body: () throws(UsageError) -> T) -> Result<T, ExitCode> {
    do throws(UsageError) {
        return .success(try body())
    } catch {
        return .failure(ExitCode(status: StandardError.report(error, program: "tiltpuzzle")))
    }
}

let directionArgument = ArgumentSpec("DIRECTION", help: "up, down, left or right: the way the tile slides.")

enum TiltCommand: ClientCommand {
    static let spec = CommandSpec("tilt", summary: "Tilt the board once, as the sensor would.",
                                  arguments: [directionArgument])
    static func run(_ arguments: ParsedArguments) -> Int32 {
        switch checked({ () throws(UsageError) in try OneShot.direction(arguments.argument(0)) }) {
        case .failure(let exit): return exit.status
        case .success(let direction): return OneShot.perform(.tilt(direction), arguments, describe: OneShot.movesText)
        }
    }
}

enum MoveCommand: ClientCommand {
    static let spec = CommandSpec("move", summary: "Move the tile at INDEX one cell in DIRECTION (into the empty cell).",
                                  arguments: [ArgumentSpec("INDEX", help: "The tile's cell, 0 at the top left, row by row."),
                                              directionArgument])
    static func run(_ arguments: ParsedArguments) -> Int32 {
        switch checked({ () throws(UsageError) in
            (try OneShot.index(arguments.argument(0)), try OneShot.direction(arguments.argument(1)))
        }) {
        case .failure(let exit): return exit.status
        case .success(let (index, direction)):
            return OneShot.perform(.move(index: index, direction: direction), arguments, describe: OneShot.movesText)
        }
    }
}

enum SlideCommand: ClientCommand {
    static let spec = CommandSpec("slide", summary: "Slide the tile at INDEX and those between it and the empty cell.",
                                  arguments: [ArgumentSpec("INDEX", help: "A cell in the empty cell's row or column.")])
    static func run(_ arguments: ParsedArguments) -> Int32 {
        switch checked({ () throws(UsageError) in try OneShot.index(arguments.argument(0)) }) {
        case .failure(let exit): return exit.status
        case .success(let index): return OneShot.perform(.slide(index: index), arguments, describe: OneShot.movesText)
        }
    }
}

enum UndoCommand: ClientCommand {
    static let spec = CommandSpec("undo", summary: "Undo the last action.")
    static func run(_ arguments: ParsedArguments) -> Int32 {
        OneShot.perform(.undo, arguments, describe: OneShot.movesText)
    }
}

enum RedoCommand: ClientCommand {
    static let spec = CommandSpec("redo", summary: "Redo the last undone action.")
    static func run(_ arguments: ParsedArguments) -> Int32 {
        OneShot.perform(.redo, arguments, describe: OneShot.movesText)
    }
}

enum NewCommand: ClientCommand {
    static let size = OptionSpec("--size", value: "N", help: "Board side, 2 to 10 (default: the current one).")
    static let seed = OptionSpec("--seed", value: "S", help: "Shuffle seed, to replay a game (default: random).")
    static let noShuffle = OptionSpec("--no-shuffle", help: "Start from the solved board.")
    static let board = OptionSpec("--board", value: "VALUES",
                                  help: "Start from this position: size² values (commas or spaces between them), row by row, as `state` shows them; the largest is the empty cell.")
    static let spec = CommandSpec("new", summary: "Start a new game.", options: [size, seed, noShuffle, board])
    static func run(_ arguments: ParsedArguments) -> Int32 {
        switch checked({ () throws(UsageError) in
            let size = try arguments.value(size, as: "a side from 2 to 10") { Int($0).flatMap { Board.sides.contains($0) ? $0 : nil } }
            let seed = try arguments.value(seed, as: "a whole number from 0 to 2^64-1") { UInt64($0) }
            if let text = arguments.value(board) {
                guard seed == nil, !arguments.flag(noShuffle) else {
                    throw UsageError("--board is played as given: it takes no --seed or --no-shuffle")
                }
                let board = try OneShot.board(text)
                if let size, size != board.side {
                    throw UsageError("--size is \(size) but the board is \(board.side)×\(board.side)")
                }
                return Command.new(size: nil, seed: nil, shuffle: false, board: board)
            }
            return Command.new(size: size, seed: seed, shuffle: !arguments.flag(noShuffle))
        }) {
        case .failure(let exit): return exit.status
        case .success(let command):
            return OneShot.perform(command, arguments) { messages in
                guard let state = messages.compactMap({ if case .state(let s) = $0 { s } else { nil } }).last else { return nil }
                return (BoardText.lines(state) + ["new \(state.size)×\(state.size) game"]).joined(separator: "\n")
            }
        }
    }
}

enum CalibrateCommand: ClientCommand {
    static let spec = CommandSpec("calibrate", summary: "Take the tablet's current pose as neutral (hold it as you play).")
    static func run(_ arguments: ParsedArguments) -> Int32 {
        OneShot.perform(.calibrate, arguments) { _ in "calibrated: this pose is now neutral" }
    }
}

enum HintCommand: ClientCommand {
    static let spec = CommandSpec("hint", summary: "Show the next tile to slide and how many moves are left.")
    static func run(_ arguments: ParsedArguments) -> Int32 {
        OneShot.perform(.hint, arguments) { messages in
            // The board the hint is for: the mirror at the hint's revision (the sensor
            // may have moved tiles while the daemon thought).
            var mirror = BoardMirror()
            var board: GameState?
            for message in messages {
                if case .hint(_, let hint) = message {
                    guard let board, board.revision == hint.revision else { return HintText.describe(hint, board: [], size: 0) }
                    return HintText.describe(hint, board: board.board, size: board.size)
                }
                _ = mirror.apply(message)
                board = mirror.state
            }
            return nil
        }
    }
}

enum ConfigureCommand: ClientCommand {
    static let trigger = OptionSpec("--trigger", value: "DEGREES", help: "Tilt that moves a tile, 5 to 60 (default 20).")
    static let release = OptionSpec("--release", value: "DEGREES",
                                    help: "Return under this to tilt again, at least 2 below the trigger (default 10).")
    static let spec = CommandSpec("configure", summary: "Set how far to tilt to move a tile, and how far back to re-arm.",
                                  options: [trigger, release])
    static func run(_ arguments: ParsedArguments) -> Int32 {
        switch checked({ () throws(UsageError) in
            let trigger = try arguments.value(trigger, as: "a number of degrees") { Double($0) }
            let release = try arguments.value(release, as: "a number of degrees") { Double($0) }
            guard trigger != nil || release != nil else {
                throw UsageError("configure needs --trigger or --release (or both)")
            }
            return Command.configure(trigger: trigger, release: release)
        }) {
        case .failure(let exit): return exit.status
        case .success(let command):
            return OneShot.perform(command, arguments) { messages in
                guard let settings = messages.compactMap({ if case .settings(let s) = $0 { s } else { nil } }).last else {
                    return nil
                }
                return LiveGame.sensitivityText(settings)
            }
        }
    }
}
