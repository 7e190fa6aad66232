// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCore
@testable import TiltSolver

/// Tables that are not there in time (docs/solver.md, "Budget"): the wait is part of
/// the budget, and the answer is the quick one, still valid.
@Suite struct LateTablesTests {
    /// A clock that moves only when read: a millisecond a reading.
    final class Ticking: @unchecked Sendable {
        var now = 0.0
        func read() -> Double { now += 0.001; return now }
    }

    @Test func aFourByFourBoardWithoutTablesGetsTheQuickAnswerWithinItsBudget() {
        // 49 moves from solved: beyond the plain search.
        let board = Board(side: 4, cells: [8, 4, 10, 6, 5, 14, 15, 3, 11, 9, 13, 2, 12, 7, 0, 1])!
        let clock = Ticking()
        var asked: [Double] = []
        let answer = Solver.solve(board, budget: 1, tables: { until in asked.append(until); return nil },
                                  clock: { clock.read() })
        #expect(asked.count == 1, "the tables are asked for once, after the plain search")
        #expect(asked.allSatisfy { $0 <= 0.001 + 1 - 0.1 }, "waited for until a tenth of the budget is left")
        #expect(!answer.isOptimal)
        #expect(answer.directions.count > 49 && answer.directions.count % 2 == 1)
        var check = board
        for direction in answer.directions { #expect(check.tilt(direction) != nil) }
        #expect(check.isSolved)
    }

    @Test func aBigBoardWithoutTablesIsStillSolved() {
        for side in [5, 6] {
            let board = Puzzle.newGame(side: side, seed: 0xB16 + UInt64(side)).board
            var asked = 0
            let answer = Solver.solve(board, tables: { _ in asked += 1; return nil }, clock: { [clock = Ticking()] in clock.read() })
            #expect(asked >= 1)
            var check = board
            for direction in answer.directions { #expect(check.tilt(direction) != nil) }
            #expect(check.isSolved, "\(side)×\(side)")
        }
    }

    @Test func tablesThereInTimeGiveTheOptimum() {
        let board = Board(side: 4, cells: [8, 4, 10, 6, 5, 14, 15, 3, 11, 9, 13, 2, 12, 7, 0, 1])!
        let answer = Solver.solve(board, budget: .infinity, tables: { _ in PatternDatabase.shared }, clock: { 0 })
        #expect(answer.isOptimal)
        #expect(answer.directions.count == 49)
    }
}

extension LateTablesTests {
    @Test func buildingTheTablesStopsWhenAsked() {
        var asked = 0
        #expect(PatternDatabase(unless: { asked += 1; return asked > 3 }) == nil)
        #expect(asked == 4, "asked once a layer until told to stop")
    }
}
