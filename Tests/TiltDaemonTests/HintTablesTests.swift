// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TiltCore
@testable import TiltDaemon
import TiltSolver
import TiltSystem

/// The 4×4 tables made beside the hints (docs/solver.md, "Budget"): a hint waits for
/// them no longer than it is told, and the thread that makes them is scheduled as the
/// hint's.
@Suite struct HintTablesTests {
    @Test func aHintWaitsForTheTablesOnlyUntilItsDeadline() throws {
        let directory = try HintWorkerTests.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = PatternDatabaseCache(directory: directory)
        let maker = Locked<Int32?>(nil)
        let seen = Locked<(early: Bool, late: Bool)?>(nil)
        // The making waits for this, so that none is made before the first question.
        let begin = try WakeupDescriptor()
        defer { try? begin.descriptor.close() }
        // On a thread of its own at nice 9, which the tables' thread inherits.
        try JoinableThread {
            do throws(Errno) {
                try CurrentThread.setNice(9)
                let tables = try HintTables(cache: cache, log: Logger(level: .error) { _ in }) { cache, log, stop in
                    maker.withLock { $0 = CurrentThread.nice }
                    // A limit that only catches a test that never opens the gate.
                    _ = try? Poll.wait([(begin.descriptor, .readable)], timeout: 600)
                    return HintTables.make(cache, log, stop)
                }
                // Not begun yet: a deadline already past gets none.
                let early = tables.tables(until: MonotonicClock.now()) == nil
                begin.signal()
                // A deadline that only catches a hang.
                let late = tables.tables(until: MonotonicClock.now() + 600) != nil
                seen.withLock { $0 = (early, late) }
                tables.stop()
            } catch {
                Issue.record("\(error)")
            }
        }.join()
        let state = try #require(seen.withLock { $0 })
        #expect(state.early, "no tables before they are made")
        #expect(state.late, "the tables once made")
        #expect(maker.withLock { $0 } == 9, "the tables' thread is scheduled as the hint's")
        #expect(FileManager.default.fileExists(atPath: cache.path), "and cached")
    }

    @Test func tablesNoHintWillUseAreGivenUpAtTheEnd() throws {
        let directory = try HintWorkerTests.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = PatternDatabaseCache(directory: directory)
        let asked = Locked(0)
        let tables = try HintTables(cache: cache, log: Logger(level: .error) { _ in }) { cache, log, stop in
            HintTables.make(cache, log) {
                asked.withLock { $0 += 1 }
                return stop()
            }
        }
        #expect(tables.tables(until: MonotonicClock.now()) == nil)
        tables.stop()
        #expect(asked.withLock { $0 } >= 1, "the building asked whether to go on")
        #expect(!FileManager.default.fileExists(atPath: cache.path), "nothing cached from a building given up")
        #expect(tables.tables(until: MonotonicClock.now()) == nil)
    }
}
