// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCore
import TiltDaemon
import TiltSolver
import TiltSystem

/// 4×4 hints split over real threads (docs/solver.md, "Two cores"): the answer is the
/// single thread's; the worker computes hints at a raised nice value over a team (below).
@Suite struct SplitHintTests {
    @Test func aSplitSearchAnswersAsOneThreadDoes() throws {
        let team = try ThreadTeam(size: 3)
        let searchTeam = SearchTeam(size: team.size, run: team.run)
        for seed in UInt64(0)..<10 {
            let board = Puzzle.newGame(side: 4, seed: 0x5B1_17 + seed).board
            let alone = Solver.solve(board, budget: .infinity, clock: MonotonicClock.now)
            let split = Solver.solve(board, budget: .infinity, team: searchTeam, clock: MonotonicClock.now)
            #expect(alone.isOptimal)
            #expect(split == alone, "seed \(seed)")
        }
    }
}

extension HintWorkerTests {
    @Test func theWorkerSolvesAtItsNiceValueOverATeamOfTheCores() throws {
        let seen = Locked<(idle: Bool, nice: Int32, size: Int)?>(nil)
        let worker = try HintWorker(cache: nil, log: Logger(level: .error) { _ in }) { board, _, team in
            let state = (CurrentThread.runsOnlyWhenIdle, CurrentThread.nice, team().size)
            seen.withLock { $0 = state }
            return Solver.solve(board, clock: MonotonicClock.now)
        }
        defer { worker.stop() }
        worker.submit(HintJob(ticket: 1, board: Puzzle.newGame(side: 3, seed: 5).board, revision: 1))
        _ = Self.waitForAnswers(worker, count: 1)
        let state = try #require(seen.withLock { $0 })
        #expect(!state.idle, "not SCHED_IDLE, which starves on a busy machine")
        #expect(state.nice == HintWorker.nice)
        #expect(state.size == min(HintWorker.teamLimit, try CurrentThread.cores()))
        #expect(CurrentThread.nice != HintWorker.nice, "the test's own thread is as it was")
    }
}
