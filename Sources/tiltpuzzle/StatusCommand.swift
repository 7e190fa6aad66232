// SPDX-License-Identifier: GPL-3.0-or-later
import TiltClient
import TiltCommandLine
import TiltCore
import TiltSystem
import TiltTerminal
import TiltWire

enum StatusCommand: ClientCommand {
    static let json = OptionSpec("--json", help: L("Print one JSON object instead of text."))
    static let spec = CommandSpec("status", summary: L("Show the game, its counters and the sensor."), options: [json])

    static func run(_ arguments: ParsedArguments) -> Int32 {
        let connection: DaemonConnection
        switch connect(arguments) {
        case .success(let c): connection = c
        case .failure(let exit): return exit.status
        }
        var state: GameState?
        var sensor: SensorReport?
        var screen: ScreenRotation?
        do throws(DaemonConnection.Failure) {
            let messages = try connection.request(.sensor)
            // A daemon at its client limit greets, then refuses.
            if let refused = OneShot.refusal(messages) { return refused }
            for message in messages {
                if case .state(let s) = message { state = s }
                if case .sensor(let r) = message { sensor = r }
                if case .screen(let r) = message { screen = r }
            }
        } catch {
            return report(error).status
        }
        guard let state, let sensor else {
            StandardError.print("tiltpuzzle: " + L("the daemon sent no state"))
            return ExitStatus.protocolError
        }
        if arguments.flag(json) {
            print(json(state: state, sensor: sensor, screen: screen, daemon: connection))
            return ExitStatus.ok
        }
        BoardText.lines(state).forEach { print($0) }
        // On one line too, as `new --board` reads it (docs/client.md, "Boards").
        print(L("board: {0}", BoardNotation.text(side: state.size, cells: state.board)))
        print(state.solved
              ? L.plural("{1} game, {0} move, {2} played, solved", "{1} game, {0} moves, {2} played, solved", state.moves,
                         GameText.sizeText(state.size), PlayTime.text(state.time))
              : L.plural("{1} game, {0} move, {2} played", "{1} game, {0} moves, {2} played", state.moves,
                         GameText.sizeText(state.size), PlayTime.text(state.time)))
        print(L("undo: {0}, redo: {1}, revision {2}", state.canUndo ? L("yes") : L("no"), state.canRedo ? L("yes") : L("no"),
            state.revision))
        for line in GameText.recordLines(state) { print(line) }
        print(GameText.sensorText(sensor))
        // A daemon before `screen` says nothing of it.
        if let screen { print(GameText.screenText(screen)) }
        print(L("daemon {0} at {1}", connection.daemonVersion, connection.path))
        return ExitStatus.ok
    }

    static func json(state: GameState, sensor: SensorReport, screen: ScreenRotation?, daemon: DaemonConnection) -> String {
        // The protocol's own encodings, nested, so the fields are the same as on the wire.
        func object(_ message: ServerMessage) -> JSONValue {
            let line = message.encoded().dropLast()
            return line.withUnsafeBufferPointer { (try? JSONParser.parse($0)) ?? .null }
        }
        var writer = JSONWriter()
        writer.field("daemon", raw: .object([("version", .string(daemon.daemonVersion)), ("socket", .string(daemon.path))]))
        writer.field("state", raw: object(.state(state)))
        writer.field("sensor", raw: object(.sensor(sensor)))
        if let screen { writer.field("screen", raw: object(.screen(screen))) }
        return String(decoding: writer.line().dropLast(), as: UTF8.self)
    }
}
