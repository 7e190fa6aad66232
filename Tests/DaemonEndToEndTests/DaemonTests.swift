// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TestSupport
import Testing
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// The built daemon on a temporary socket, driven like a client would.
@Suite(.serialized) struct DaemonTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// A solved 4×4 game, saved where the daemon will look for it.
    static func seedSolvedGame(in directory: TestSupport.TemporaryDirectory) throws {
        let state = directory.url.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let game = #"{"format":1,"revision":0,"time":0,"puzzle":{"size":4,"board":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15],"moves":0,"history":{"limit":1000,"undo":"","redo":""}}}"#
        try game.write(to: state.appendingPathComponent("game.json"), atomically: true, encoding: .utf8)
    }

    @Test func seedVectorOverTheSocket() throws {
        let directory = TemporaryDirectory()
        try Self.seedSolvedGame(in: directory)
        let daemon = try DaemonProcess(directory: directory)
        let player = try TestClient(path: daemon.socketPath)
        let watcher = try TestClient(path: daemon.socketPath)
        let state = try #require(player.greeting())
        #expect(state["board"] as? [Int] == Array(0..<16))
        watcher.greeting()
        for (n, direction) in ["right", "down", "right", "down"].enumerated() {
            let messages = player.request(#"{"cmd":"tilt","direction":"\#(direction)","id":\#(n)}"#, id: n)
            #expect(messages.map { $0["type"] as? String } == ["move", "reply"])
        }
        let moves = (0..<4).compactMap { _ in watcher.next() }
        #expect(moves.map { [$0["from"] as? Int, $0["to"] as? Int] } == [[14, 15], [10, 14], [9, 10], [5, 9]])
        #expect(moves.map { $0["revision"] as? Int } == [1, 2, 3, 4])
        let after = player.request(#"{"cmd":"state","id":9}"#, id: 9)
        #expect(after.first?["board"] as? [Int] == [0, 1, 2, 3, 4, 15, 6, 7, 8, 5, 9, 11, 12, 13, 10, 14])
        #expect(after.first?["empty"] as? Int == 5)
        #expect(after.first?["moves"] as? Int == 4)
        // Illegal from here: nothing moves, the reply says so.
        let illegal = player.request(#"{"cmd":"move","index":0,"direction":"up","id":10}"#, id: 10)
        #expect(illegal.map { $0["type"] as? String } == ["reply"])
        #expect(illegal.first?["moved"] as? Int == 0)
    }

    @Test func undoAndRedoOverTheSocket() throws {
        let directory = TemporaryDirectory()
        try Self.seedSolvedGame(in: directory)
        let daemon = try DaemonProcess(directory: directory)
        let client = try TestClient(path: daemon.socketPath)
        client.greeting()
        _ = client.request(#"{"cmd":"slide","index":12,"id":1}"#, id: 1)
        let undo = client.request(#"{"cmd":"undo","id":2}"#, id: 2)
        #expect(undo.filter { $0["type"] as? String == "move" }.count == 3)
        #expect(undo.contains { $0["type"] as? String == "solved" })
        let redo = client.request(#"{"cmd":"redo","id":3}"#, id: 3)
        #expect(redo.filter { $0["cause"] as? String == "redo" }.count == 3)
        let state = client.request(#"{"cmd":"state","id":4}"#, id: 4).first
        #expect(state?["moves"] as? Int == 3)
        #expect(state?["canUndo"] as? Bool == true && state?["canRedo"] as? Bool == false)
    }

    /// gpsd-style regression: a trace replayed gives the golden event stream,
    /// the same at speed 1 and as fast as possible.
    @Test(arguments: ["1", "max"])
    func replayGivesTheGoldenEvents(speed: String) throws {
        let directory = TemporaryDirectory()
        try Self.seedSolvedGame(in: directory)
        let trace = Self.fixtures.appendingPathComponent("detector/sequence.csv").path
        let daemon = try DaemonProcess(directory: directory,
                                       arguments: ["--source", "replay:\(trace)", "--replay-speed", speed])
        let client = try TestClient(path: daemon.socketPath)
        // The first client starts the replay: its greeting already says so.
        #expect(client.greeting() != nil)
        let messages = client.read(until: { $0["type"] as? String == "sensor" && $0["status"] as? String == "ended" },
                                   timeout: 30)
        let events = messages.compactMap(Self.eventLine)
        let golden = try String(contentsOf: Self.fixtures.appendingPathComponent("daemon/sequence.events"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        #expect(events == golden)
    }

    /// The parts of an event that do not depend on timing.
    static func eventLine(_ message: [String: Any]) -> String? {
        func flag(_ key: String) -> String { (message[key] as? Bool).map { $0 ? "true" : "false" } ?? "?" }
        return switch message["type"] as? String {
        case "tilt": "tilt \(message["direction"]!) moved=\(flag("moved"))"
        case "move": "move \(message["revision"]!) \(message["from"]!)->\(message["to"]!) \(message["direction"]!) "
            + "\(message["cause"]!) moves=\(message["moves"]!) solved=\(flag("solved"))"
        case "solved": "solved \(message["revision"]!) moves=\(message["moves"]!)"
        case "sensor": "sensor \(message["status"]!)"
        default: nil
        }
    }

    /// `kill -9` loses nothing a client was told: board, counters and history survive.
    @Test func killNineAndRestartKeepsTheGame() throws {
        let directory = TemporaryDirectory()
        var daemon = try DaemonProcess(directory: directory)
        var client = try TestClient(path: daemon.socketPath)
        client.greeting()
        _ = client.request(#"{"cmd":"new","size":5,"seed":11,"id":1}"#, id: 1)
        var id = 2
        for direction in ["up", "left", "down", "right", "up", "up", "left"] {
            _ = client.request(#"{"cmd":"tilt","direction":"\#(direction)","id":\#(id)}"#, id: id)
            id += 1
        }
        _ = client.request(#"{"cmd":"undo","id":100}"#, id: 100)
        let before = try #require(client.request(#"{"cmd":"state","id":101}"#, id: 101).first)
        daemon.kill9()
        daemon = try DaemonProcess(directory: directory)
        client = try TestClient(path: daemon.socketPath)
        let after = try #require(client.greeting())
        for key in ["revision", "size", "board", "empty", "moves", "solved", "canUndo", "canRedo"] {
            #expect("\(after[key]!)" == "\(before[key]!)", "\(key)")
        }
        // The history came back too: undo and redo work as before.
        let undo = client.request(#"{"cmd":"undo","id":102}"#, id: 102)
        #expect(undo.first?["type"] as? String == "move")
        let redo = client.request(#"{"cmd":"redo","id":103}"#, id: 103)
        #expect(redo.first?["cause"] as? String == "redo")
        let redo2 = client.request(#"{"cmd":"redo","id":104}"#, id: 104)
        #expect(redo2.first?["cause"] as? String == "redo", "the redo level saved before the crash")
    }

    @Test func aCorruptStateFileIsSetAside() throws {
        let directory = TemporaryDirectory()
        let state = directory.url.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        try "{\"format\":1, garbage".write(to: state.appendingPathComponent("game.json"), atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(directory: directory)
        let client = try TestClient(path: daemon.socketPath)
        let greeting = try #require(client.greeting())
        #expect(greeting["size"] as? Int == 4)
        let files = try FileManager.default.contentsOfDirectory(atPath: state.path)
        #expect(files.contains { $0.hasPrefix("game.json.corrupt-") })
        #expect(daemon.logShows("unusable"), "the log arrives through a pipe, after the greeting")
    }

    /// Records earlier versions wrote for games that began solved (0 moves) are dropped
    /// when the game is read, and the log says so; `--source none` is `disabled`.
    @Test func unbeatableSavedRecordsAreDroppedWithALogLine() throws {
        let directory = TemporaryDirectory()
        let state = directory.url.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let game = #"{"format":1,"revision":2,"time":0,"puzzle":{"size":3,"board":[0,1,2,3,4,5,6,7,8],"moves":0,"#
            + #""history":{"limit":1000,"undo":"","redo":""}},"records":[{"size":3,"bestTime":0.4,"fewestMoves":0}]}"#
        try game.write(to: state.appendingPathComponent("game.json"), atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(directory: directory)
        let client = try TestClient(path: daemon.socketPath)
        #expect(client.next()?["type"] as? String == "hello")
        let greeting = client.next()
        #expect(greeting?["type"] as? String == "state" && (greeting?["records"] as? [Any])?.isEmpty == true)
        let sensor = client.next()
        #expect(sensor?["status"] as? String == "disabled")
        #expect(sensor?["message"] as? String == "no sensor by choice (source none)")
        #expect(daemon.logShows("dropped the saved 3×3 record: 0 moves"))
    }

    @Test func badInputOverARealSocket() throws {
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(directory: directory)
        let client = try TestClient(path: daemon.socketPath)
        let bystander = try TestClient(path: daemon.socketPath)
        client.greeting()
        bystander.greeting()
        client.sendRaw([0xC3, 0x28, 0x0A])
        #expect(client.next()?["code"] as? String == "invalid-utf8")
        // A request split across writes is one request; a broken one is one error.
        client.sendRaw(Array(#"{"cmd":"st"#.utf8))
        usleep(20_000)
        client.sendRaw(Array(#"ate","id":7}"#.utf8) + [10])
        #expect(client.next()?["type"] as? String == "state")
        #expect(client.next()?["id"] as? Int == 7)
        client.send(#"{"cmd":}"#)
        #expect(client.next()?["code"] as? String == "invalid-json")
        client.sendRaw(Array(repeating: UInt8(ascii: "a"), count: 70_000))
        #expect(client.next()?["code"] as? String == "line-too-long")
        #expect(client.next(timeout: 5) == nil)
        #expect(client.closedByPeer, "the connection is closed after an over-long line")
        let state = bystander.request(#"{"cmd":"state","id":1}"#, id: 1)
        #expect(state.first?["type"] as? String == "state")
    }

    @Test func usageErrorsExit64() throws {
        let result = try DaemonExit.run(["--replay-speed", "fast"])
        #expect(result.status == 64)
        #expect(result.output.contains("--replay-speed"))
    }

    @Test func aBadConfigurationIsAClearErrorAtStart() throws {
        let directory = TemporaryDirectory()
        let config = directory.url.appendingPathComponent("bad.conf")
        try "[detector]\ntrigger-angel = 20\n".write(to: config, atomically: true, encoding: .utf8)
        let result = try DaemonExit.run(["--config", config.path, "--socket", directory.path + "/s",
                                         "--state-dir", directory.path])
        #expect(result.status == 1)
        #expect(result.output.contains("line 2") && result.output.contains("trigger-angel"))
    }
}
