// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The built client against a daemon on a temporary socket: what each command
/// prints and its exit status.
struct OneShotCommandTests {
    /// A daemon whose game is the solved 4×4 board, started through the client.
    static func solvedDaemon(_ directory: TemporaryDirectory) throws -> DaemonProcess {
        let daemon = try DaemonProcess(directory: directory)
        let result = try Client.run(["new", "--size", "4", "--no-shuffle"], on: daemon)
        guard result.status == 0 else { throw TestFailure("new --no-shuffle: \(result.stderr)") }
        return daemon
    }

    static let solvedBoard = Array(0..<16)

    @Test func statusShowsTheBoardTheCountersAndTheSensor() throws {
        let directory = TemporaryDirectory()
        let daemon = try Self.solvedDaemon(directory)
        let result = try Client.run(["status"], on: daemon)
        #expect(result.status == 0)
        #expect(ScreenBoard.rows(result.stdoutLines) == ScreenBoard.expected(size: 4, board: Self.solvedBoard))
        #expect(result.stdout.contains("4×4 game, 0 moves, 0:00 played"), "play time as a clock")
        #expect(result.stdoutLines.contains("board: 1 2 3 4, 5 6 7 8, 9 10 11 12, 13 14 15 _"))
        #expect(result.stdout.contains("sensor disabled — no sensor by choice"))
        #expect(result.stdout.contains("at \(daemon.socketPath)"))
    }

    @Test func statusJSONHasTheProtocolsFields() throws {
        let directory = TemporaryDirectory()
        let daemon = try Self.solvedDaemon(directory)
        let result = try Client.run(["status", "--json"], on: daemon)
        #expect(result.status == 0)
        #expect(result.stdoutLines.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let state = try #require(object["state"] as? [String: Any])
        #expect(state["type"] as? String == "state")
        #expect(state["board"] as? [Int] == Self.solvedBoard)
        #expect(state["size"] as? Int == 4 && state["empty"] as? Int == 15 && state["moves"] as? Int == 0)
        #expect(state["solved"] as? Bool == true && state["canUndo"] as? Bool == false)
        #expect((object["sensor"] as? [String: Any])?["status"] as? String == "disabled")
        #expect((object["daemon"] as? [String: Any])?["socket"] as? String == daemon.socketPath)
    }

    /// Commands run in turn from the solved 4×4 board, each with what it prints; then the daemon's game.
    struct Script: Sendable, CustomTestStringConvertible {
        var steps: [(arguments: [String], output: String)]
        var board: [Int]
        var moves: Int
        var testDescription: String { steps.map { $0.arguments.joined(separator: " ") }.joined(separator: ", ") }
    }

    @Test(arguments: [
        Script(steps: [(["tilt", "left"], "nothing moved"), (["undo"], "nothing to undo"), (["tilt", "right"], "moved 15 right")],
               board: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 14], moves: 1),
        // Tiles by their labels; --cell for the protocol's cells.
        Script(steps: [(["move", "15", "right"], "moved 15 right"), (["slide", "13"], "moved 14 right, 13 right")],
               board: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15, 12, 13, 14], moves: 3),
        Script(steps: [(["move", "--cell", "14", "right"], "moved 15 right"), (["slide", "--cell", "12"], "moved 14 right, 13 right")],
               board: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15, 12, 13, 14], moves: 3),
        // A slide is one action: one undo takes back all its tiles, one redo replays them.
        Script(steps: [(["slide", "13"], "moved 15 right, 14 right, 13 right"),
                       (["undo"], "moved 13 left, 14 left, 15 left — solved!"),
                       (["redo"], "moved 15 right, 14 right, 13 right"),
                       (["redo"], "nothing to redo")],
               board: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15, 12, 13, 14], moves: 3),
    ])
    func eachCommandPrintsWhatMoved(script: Script) throws {
        let directory = TemporaryDirectory()
        let daemon = try Self.solvedDaemon(directory)
        for step in script.steps {
            let result = try Client.run(step.arguments, on: daemon)
            // A command that moved nothing says so in its status too (docs/client.md).
            #expect(result.status == (step.output.hasPrefix("nothing") ? 2 : 0), "\(step.arguments)")
            #expect(result.stdout == step.output + "\n")
        }
        let state = try Client.state(of: daemon)
        #expect(state["board"] as? [Int] == script.board)
        #expect(state["moves"] as? Int == script.moves)
    }

    @Test func newWithASizeAndASeedIsReproducible() throws {
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(directory: directory)
        let first = try Client.run(["new", "--size", "3", "--seed", "5"], on: daemon)
        #expect(first.status == 0)
        #expect(first.stdoutLines.last == "new 3×3 game")
        let board = try #require(Client.state(of: daemon)["board"] as? [Int])
        #expect(ScreenBoard.rows(first.stdoutLines) == ScreenBoard.expected(size: 3, board: board))
        #expect(board != Array(0..<9), "shuffled")
        _ = try Client.run(["tilt", "up"], on: daemon)
        let second = try Client.run(["new", "--size", "3", "--seed", "5"], on: daemon)
        #expect(second.stdout == first.stdout)
        let state = try Client.state(of: daemon)
        #expect(state["board"] as? [Int] == board && state["moves"] as? Int == 0)
    }

    @Test func newWithoutShuffleIsSolved() throws {
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(directory: directory)
        let result = try Client.run(["new", "--size", "5", "--no-shuffle"], on: daemon)
        #expect(result.status == 0)
        let state = try Client.state(of: daemon)
        #expect(state["board"] as? [Int] == Array(0..<25))
        #expect(state["solved"] as? Bool == true)
    }

    @Test func newWithABoardStartsFromIt() throws {
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(directory: directory)
        let board = [0, 1, 2, 3, 4, 5, 6, 8, 7]
        let result = try Client.run(["new", "--board", "1,2,3, 4,5,6, 7,_,8"], on: daemon)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutLines.last == "new 3×3 game")
        #expect(ScreenBoard.rows(result.stdoutLines) == ScreenBoard.expected(size: 3, board: board))
        let state = try Client.state(of: daemon)
        #expect(state["board"] as? [Int] == board)
        #expect(state["moves"] as? Int == 0)
    }

    @Test(arguments: [
        (["--board", "1,2,3,4,5,6,7,8"], "--board: a board has 4, 9, 16, 25, 36, 49, 64, 81, 100 cells (a side from 2 to 10), not 8"),
        (["--board", "2,1,3,0"], "--board: this board cannot be solved: swapping two tiles (not the empty cell) makes it solvable"),
        (["--board", "1,2,x,0"], "--board: 'x' is not a tile: write the tiles' numbers and 0 or _ for the empty cell"),
        (["--board", "1,2,3,4,5,6,7,8,9"], "--board: there is no tile 9 on a 3×3 board: its tiles are 1 to 8, and 0 or _ the empty cell"),
        (["--board", "1,2,3,0", "--seed", "4"], "--board is played as given"),
        (["--board", "1,2,3,0", "--size", "3"], "--size is 3 but the board is 2×2"),
    ])
    func aBadBoardIsAUsageError(arguments: [String], message: String) throws {
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(directory: directory)
        let before = try Client.state(of: daemon)
        let result = try Client.run(["new"] + arguments, on: daemon)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        let after = try Client.state(of: daemon)
        #expect(after["revision"] as? Int == before["revision"] as? Int)
    }

    /// `hint` names the tile to slide by its label and the way it slides; replaying the
    /// hints one by one solves the board.
    @Test func hintNamesTheTileAndTheMovesToGo() throws {
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(directory: directory)
        // 1 2 3 | 4 5 6 | _ 7 8: two tilts left.
        #expect(try Client.run(["new", "--board", "1 2 3 4 5 6 _ 7 8"], on: daemon).status == 0)
        let first = try Client.run(["hint"], on: daemon)
        #expect(first.status == 0)
        #expect(first.stdout == "slide 7 left — 2 moves to go, optimal\n")
        #expect(try Client.run(["tilt", "left"], on: daemon).status == 0)
        #expect(try Client.run(["hint"], on: daemon).stdout == "slide 8 left — 1 move to go, optimal\n")
        #expect(try Client.run(["tilt", "left"], on: daemon).stdout.hasSuffix("solved!\n"))
        #expect(try Client.run(["hint"], on: daemon).stdout == "solved: no moves to go\n")
        // No 4×4 hint was asked for: no tables were built or cached.
        #expect(!FileManager.default.fileExists(atPath: daemon.stateDirectory + "/hint-tables-4x4.tpdb"))
    }

    @Test func aFourByFourHintCachesItsTablesInTheStateDirectory() throws {
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(directory: directory)
        // A board near solved is answered without the tables (docs/solver.md): this one,
        // 49 moves from solved, needs them.
        #expect(try Client.run(["new", "--board", "9 5 11 7, 6 15 _ 4, 12 10 14 3, 13 8 1 2"], on: daemon).status == 0)
        let result = try Client.run(["hint"], on: daemon)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("slide "))
        // Made on a thread of their own, maybe after the hint's answer (docs/solver.md,
        // "Budget"): six tables in a debug build on a shared machine, a minute at worst.
        #expect(daemon.logShows("hint tables built", within: 240))
        #expect(FileManager.default.fileExists(atPath: daemon.stateDirectory + "/hint-tables-4x4.tpdb"))
    }

    @Test func calibrateWithoutASensorIsRefusedWithTheDaemonsMessage() throws {
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(directory: directory)
        let result = try Client.run(["calibrate"], on: daemon)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "tiltpuzzle: calibration needs a sensor sample; is a sensor attached? (no-sensor)\n")
    }

    /// The client checks a tile against the board the daemon sent: a usage error, as
    /// `move -1 up` is, and nothing is sent.
    @Test(arguments: [(["move", "99", "up"], "tiltpuzzle: there is no tile 99 on the 4×4 board: its tiles are 1 to 15"),
                      (["move", "--cell", "16", "up"], "tiltpuzzle: there is no cell 16 on the 4×4 board: its cells are 0 to 15"),
                      (["slide", "16"], "tiltpuzzle: there is no tile 16 on the 4×4 board: its tiles are 1 to 15")])
    func aTileOffTheBoardIsAUsageError(arguments: [String], message: String) throws {
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(directory: directory)
        let before = try Client.state(of: daemon)
        let result = try Client.run(arguments, on: daemon)
        #expect(result.status == 64)
        #expect(result.stderrLines == [message, "('tiltpuzzle status' shows the board)"])
        #expect(try Client.state(of: daemon)["revision"] as? Int == before["revision"] as? Int)
    }
}
