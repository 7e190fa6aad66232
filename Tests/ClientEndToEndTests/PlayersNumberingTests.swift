// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The client in the players' numbering (docs/client.md, "Tiles and cells", "Boards"):
/// tiles by their labels, boards as players write them, and what it prints can be
/// typed back.
struct PlayersNumberingTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test(arguments: ["1,2,3,4,5,6,7,8,0", "1 2 3 4 5 6 7 8 0", "1 2 3, 4 5 6, 7 8 _"])
    func theSolvedBoardAsPlayersWriteItStartsSolved(board: String) throws {
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(directory: directory)
        let result = try Client.run(["new", "--board", board], on: daemon)
        #expect(result.status == 0, "\(result.stderr)")
        let state = try Client.state(of: daemon)
        #expect(state["board"] as? [Int] == Array(0 ..< 9))
        #expect(state["solved"] as? Bool == true)
    }

    @Test func newsHelpShowsTheNotationAndNoCommandThatDoesNotExist() throws {
        let help = try Client.run(["new", "--help"])
        // As read, whatever the wrapping.
        let text = help.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        #expect(text.contains("0 or _ for the empty cell"))
        #expect(text.contains("(1,2,3,4,5,6,7,8,0 is the solved 3×3), as `status` prints the board"))
        #expect(!text.contains("`state`"))
    }

    /// `status`'s and `watch`'s one-line board, pasted into `new --board`, is the same board.
    @Test func thePrintedBoardPastedIntoNewIsTheSameBoard() throws {
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(directory: directory)
        #expect(try Client.run(["new", "--size", "4", "--seed", "7"], on: daemon).status == 0)
        let shuffled = try #require(Client.state(of: daemon)["board"] as? [Int])
        let status = try Client.run(["status"], on: daemon)
        let line = try #require(status.stdoutLines.first { $0.hasPrefix("board: ") })
        _ = try Client.run(["new", "--no-shuffle"], on: daemon)
        let pasted = try Client.run(["new", "--board", String(line.dropFirst("board: ".count))], on: daemon)
        #expect(pasted.status == 0, "\(line): \(pasted.stderr)")
        #expect(try Client.state(of: daemon)["board"] as? [Int] == shuffled)

        _ = try Client.run(["new", "--size", "3", "--seed", "11"], on: daemon)
        let three = try #require(Client.state(of: daemon)["board"] as? [Int])
        let watch = try RunningClient(["--socket", daemon.socketPath, "watch"])
        let stateLine = try #require(watch.lines.next())
        watch.process.signal(SIGTERM)
        _ = watch.wait()
        let written = try #require(stateLine.components(separatedBy: "; board ").last)
        _ = try Client.run(["new", "--no-shuffle"], on: daemon)
        #expect(try Client.run(["new", "--board", written], on: daemon).status == 0, "\(stateLine)")
        #expect(try Client.state(of: daemon)["board"] as? [Int] == three)
    }

    /// Typing the tile `hint` names into `slide` (alone, or with the way as printed) solves the board.
    @Test func followingTheHintsBySlidingTheirTilesSolvesTheBoard() throws {
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(directory: directory)
        #expect(try Client.run(["new", "--size", "3", "--seed", "5"], on: daemon).status == 0)
        var followed = 0
        while followed < 40 {
            let hint = try Client.run(["hint"], on: daemon)
            #expect(hint.status == 0)
            if hint.stdout == "solved: no moves to go\n" { break }
            // "slide 7 down — 12 moves to go, optimal"
            let step = try #require(hint.stdout.components(separatedBy: " — ").first?.split(separator: " ").map(String.init))
            try #require(step.count == 3 && step[0] == "slide", "\(hint.stdout)")
            let typed = followed % 2 == 0 ? [step[0], step[1]] : step
            let slid = try Client.run(typed, on: daemon)
            #expect(slid.status == 0)
            #expect(slid.stdout.hasPrefix("moved \(step[1]) \(step[2])"), "\(typed): \(slid.stdout)")
            followed += 1
        }
        let state = try Client.state(of: daemon)
        #expect(state["solved"] as? Bool == true)
        #expect(state["moves"] as? Int == followed)
    }

    /// `slide 8` and `move 8 left` address the tile labelled 8, wherever it is.
    @Test func tilesAreAddressedByTheirLabels() throws {
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(directory: directory)
        // 1 2 3 | 4 5 6 | 7 _ 8: tile 8 in cell 8.
        #expect(try Client.run(["new", "--board", "1 2 3 4 5 6 7 _ 8"], on: daemon).status == 0)
        let slid = try Client.run(["slide", "8"], on: daemon)
        #expect(slid.stdout == "moved 8 left — solved!\n")
        #expect(try Client.run(["move", "8", "right"], on: daemon).stdout == "moved 8 right\n")
        let wrongWay = try Client.run(["slide", "8", "up"], on: daemon)
        #expect(wrongWay.stdout == "nothing moved\n", "8 slides left, not up")
        #expect(wrongWay.status == 2)
        let intoTheWall = try Client.run(["move", "1", "down"], on: daemon)
        #expect(intoTheWall.stdout == "nothing moved\n" && intoTheWall.status == 2, "1 is not beside the empty cell")
        #expect(try Client.run(["move", "--cell", "8", "left"], on: daemon).stdout == "moved 8 left — solved!\n")
        #expect(try Client.state(of: daemon)["board"] as? [Int] == Array(0 ..< 9))
    }

    /// The README's replay: the trace's header names the board it was recorded on;
    /// started with the README's `new --board`, `watch` ends solved.
    @Test func theReadmesReplayOfTheDemoTraceEndsSolved() throws {
        let trace = Self.repository.appendingPathComponent("traces/demo.csv").path
        let header = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
            .first { $0.hasPrefix("# board: ") }
        let values = try #require(header?.dropFirst("# board: ".count).split(separator: ",").compactMap { Int($0) })
        let written = stride(from: 0, to: 9, by: 3).map { row in
            values[row ..< row + 3].map { $0 == 8 ? "_" : String($0 + 1) }.joined(separator: " ")
        }.joined(separator: ", ")
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("tiltpuzzle new --board \"\(written)\""), "the README starts the trace's board: \(written)")

        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(directory: directory, arguments: ["--source", "replay:" + trace])
        #expect(try Client.run(["new", "--board", written], on: daemon).status == 0)
        let watch = try RunningClient(["--socket", daemon.socketPath, "watch"])
        let lines = watch.lines.lines(until: { $0.hasPrefix("solved in ") || $0.hasPrefix("sensor ended") }, timeout: 60)
        watch.process.signal(SIGTERM)
        _ = watch.wait()
        #expect(lines.last?.hasPrefix("solved in 19 moves, ") == true, "\(lines.suffix(3))")
    }
}
