// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TestSupport
import Testing

/// Hints from the built daemon: computed off its loop, answered for their revision.
@Suite struct HintOverTheSocketTests {
    /// The first 4×4 hint has the tables built (a noticeable while, most of all in a
    /// debug build); meanwhile another client's tilt is run and its move reaches
    /// the asker before the hint's reply, which is still for the board it asked about.
    @Test func anotherClientPlaysWhileAHintIsComputed() throws {
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(directory: directory)
        let player = try TestClient(path: daemon.socketPath)
        let other = try TestClient(path: daemon.socketPath)
        player.greeting()
        other.greeting()
        // 49 moves from solved: beyond the plain search, so the tables are built
        // (docs/solver.md); the tile right of the empty cell can slide left.
        let start = [8, 4, 10, 6, 5, 14, 15, 3, 11, 9, 13, 2, 12, 7, 0, 1]
        let new = player.request(#"{"cmd":"new","board":\#(start),"id":1}"#, id: 1)
        let revision = try #require(new.first { $0["type"] as? String == "state" }?["revision"] as? Int)
        _ = other.read { $0["type"] as? String == "state" }

        player.send(#"{"cmd":"hint","id":2}"#)
        let tilt = other.request(#"{"cmd":"tilt","direction":"left","id":7}"#, id: 7)
        #expect(tilt.last?["moved"] as? Int == 1)

        // The hint's budget is a second, the wait for the tables included.
        let seen = player.read(until: { $0["id"] as? Int == 2 }, timeout: 240)
        let types = seen.compactMap { $0["type"] as? String }
        #expect(types == ["move", "reply"], "the other client's move first, then the hint")
        let reply = try #require(seen.last)
        #expect(reply["cmd"] as? String == "hint")
        #expect(reply["revision"] as? Int == revision)
        // The optimum, 49 moves, when found within the budget; otherwise a longer way, of
        // the same parity as every way that solves this board.
        let length = try #require((reply["solution"] as? [String])?.count)
        if reply["optimal"] as? Bool == true {
            #expect(length == 49)
        } else {
            #expect(length > 49 && length % 2 == 1)
        }
        // The tables are made on a thread of their own and may come after the answer
        // (docs/solver.md, "Budget"); then they are cached.
        #expect(daemon.logShows("hint tables built", within: 240))
        #expect(FileManager.default.fileExists(atPath: daemon.stateDirectory + "/hint-tables-4x4.tpdb"))
    }
}
