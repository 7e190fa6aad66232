// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TestSupport
import Testing
import TiltSystem

/// A hint on a busy machine (docs/protocol.md, "Hints"): every core is kept busy by
/// programs at the default priority in the daemon's own session, so in its scheduler
/// group; the first 4×4 hint, which needs the tables, still answers.
@Suite struct HintUnderLoadTests {
    /// Two spinning shells per core, started before the daemon. The limit only catches
    /// starvation: the hint's budget is a second of wall-clock time, the tables
    /// included, and a quick answer is taken when they are not there by then.
    @Test func aFirstHintAnswersWhileEveryCoreIsBusy() throws {
        let spinners = try Spinners(count: 2 * CurrentThread.cores())
        defer { spinners.stop() }
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(directory: directory)
        // The load ends first: a daemon ends only once the hint under way is done.
        defer { spinners.stop(); withExtendedLifetime(daemon) {} }
        let player = try TestClient(path: daemon.socketPath)
        player.greeting()
        // 49 moves from solved: beyond the plain search, so the tables are asked for.
        let start = [8, 4, 10, 6, 5, 14, 15, 3, 11, 9, 13, 2, 12, 7, 0, 1]
        _ = player.request(#"{"cmd":"new","board":\#(start),"id":1}"#, id: 1)
        // A new state folder: no tables from elsewhere, they are built for this hint.
        #expect(!FileManager.default.fileExists(atPath: daemon.stateDirectory + "/hint-tables-4x4.tpdb"))
        #expect(spinners.allRunning, "the load is there while the hint is asked")

        player.send(#"{"cmd":"hint","id":2}"#)
        let seen = player.read(until: { $0["id"] as? Int == 2 }, timeout: 30)
        let reply = try #require(seen.last(where: { $0["id"] as? Int == 2 }), "no hint within 30 s on a busy machine")
        #expect(reply["cmd"] as? String == "hint")
        let length = try #require((reply["solution"] as? [String])?.count)
        // The optimum when found in time; else a longer way of the same parity.
        #expect(reply["optimal"] as? Bool == true ? length == 49 : length > 49 && length % 2 == 1)
        #expect(spinners.allRunning, "the load lasted the whole hint")
    }
}

/// Shells that spin at the default priority, each bounded by `timeout` so that none
/// outlives the test even if it is killed; `stop` ends them all.
final class Spinners {
    private var processes: [ChildProcess] = []

    init(count: Int) throws {
        do {
            for _ in 0..<count {
                processes.append(try ChildProcess(["timeout", "-s", "KILL", "600", "sh", "-c", "while :; do :; done"],
                                                  standardInput: .null, standardOutput: .discard, standardError: .discard))
            }
        } catch {
            stop()
            throw error
        }
    }

    var allRunning: Bool { processes.allSatisfy(\.isRunning) }

    /// timeout passes SIGTERM on to its shell, then exits.
    func stop() {
        for process in processes { process.signal(SIGTERM) }
        for process in processes { process.wait() }
        processes = []
    }

    deinit { stop() }
}
