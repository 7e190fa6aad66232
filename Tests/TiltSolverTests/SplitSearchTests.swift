// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCore
@testable import TiltSolver

/// The 4×4 search split over a team (docs/solver.md, "Two cores"): whichever thread
/// takes which subtrees, the answer is the one a single thread finds, and the deadline
/// stops every thread. (On real threads: `SplitHintTests`, in the daemon's tests.)
@Suite struct SplitSearchTests {
    /// A team whose parts run one after the other, in `order`: the first takes every
    /// subtree, the others find them all taken.
    static func inTurn(_ order: [Int]) -> SearchTeam {
        SearchTeam(size: order.count) { body in for k in order { body(k) } }
    }

    @Test(arguments: [[0, 1], [1, 0], [2, 0, 1]])
    func theAnswerIsTheSingleThreadsWhicheverPartRunsFirst(order: [Int]) {
        for seed in UInt64(0)..<8 {
            let board = Puzzle.newGame(side: 4, seed: 0x5B1_17 + seed).board
            var alone = FifteenSearch(database: .shared, automaton: .shared)
            var split = FifteenSearch(database: .shared, automaton: .shared, team: Self.inTurn(order))
            let expected = alone.solve(board.cells, deadline: .infinity, clock: SolverTests.noClock)
            #expect(expected != nil)
            #expect(split.solve(board.cells, deadline: .infinity, clock: SolverTests.noClock) == expected, "seed \(seed)")
            // The path down to the split depth is walked by every part.
            #expect(split.nodes >= alone.nodes, "seed \(seed)")
        }
    }

    /// The tiles in reverse order (the last two swapped, to make it solvable), many
    /// dozens of moves from solved: the search is far from done when the clock passes
    /// the deadline, at the first reading of the first part (its 65,536th node); the
    /// second part sees that and stops within 1,024 nodes.
    @Test func theDeadlineStopsEveryPart() throws {
        let reversed = Array((2...14).reversed()) + [0, 1, 15]
        let board = try #require(Board(side: 4, cells: reversed))
        let readings = SolverTests.Ticks()
        var split = FifteenSearch(database: .shared, automaton: .shared, team: Self.inTurn([0, 1]))
        let path = split.solve(board.cells, deadline: 0.5, clock: { readings.next() * 1000 })
        #expect(path == nil)
        // The iterations before the split take some 24,000 nodes; a second part that
        // went on to its own first reading would add 65,536 more.
        #expect(split.nodes > 65_536)
        #expect(split.nodes < 2 * 65_536)
    }
}
