// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCore
@testable import TiltSolver

/// The duplicate-path automaton (docs/solver.md, "Duplicate paths"): it refuses
/// sequences that have an equivalent, yet every board stays reachable in its fewest
/// moves, from every cell of a 4×4 board, and the 4×4 search stays optimal with it.
@Suite struct MoveAutomatonTests {
    /// The fewest moves to each board within `depth` of a start with the empty cell at
    /// `start`, by depth-first search over the sequences `automaton` accepts (all of
    /// them, bar straight returns, when it is nil).
    static func fewestMoves(from start: Int, depth: Int, automaton: MoveAutomaton?) -> [UInt64: Int] {
        var cells = (0..<16).map { UInt8($0) }
        cells.swapAt(start, 15)
        var fewest: [UInt64: Int] = [:]
        func walk(_ empty: Int, _ previous: Int, _ state: Int32, _ moves: Int) {
            let key = SolverTests.key(cells)
            fewest[key] = min(fewest[key] ?? .max, moves)
            guard moves < depth else { return }
            for move in 0..<4 {
                let to = gridNeighbour(move, of: empty, side: 4)
                guard to >= 0, to != previous else { continue }
                var next = state
                if let automaton {
                    guard let accepted = automaton.next(state, move) else { continue }
                    next = accepted
                }
                cells.swapAt(empty, to)
                walk(to, empty, next, moves + 1)
                cells.swapAt(empty, to)
            }
        }
        walk(start, -1, MoveAutomaton.start, 0)
        return fewest
    }

    @Test func everyBoardKeepsAShortestPathFromEveryCell() {
        let automaton = MoveAutomaton.shared
        for start in 0..<16 {
            let all = Self.fewestMoves(from: start, depth: 8, automaton: nil)
            let kept = Self.fewestMoves(from: start, depth: 8, automaton: automaton)
            #expect(Self.lost(all, kept) == 0, "empty cell at \(start)")
            #expect(kept.count == all.count)
        }
    }

    /// Beyond the longest sequence compared, from a corner, an edge and an inner cell.
    @Test(arguments: [0, 1, 5])
    func longerPathsKeepTheirShortestToo(start: Int) {
        let all = Self.fewestMoves(from: start, depth: MoveAutomaton.standardLength + 1, automaton: nil)
        let kept = Self.fewestMoves(from: start, depth: MoveAutomaton.standardLength + 1, automaton: MoveAutomaton.shared)
        #expect(Self.lost(all, kept) == 0)
        #expect(kept.count == all.count)
    }

    /// The boards `kept` reaches later than `all` does, or not at all.
    static func lost(_ all: [UInt64: Int], _ kept: [UInt64: Int]) -> Int {
        all.filter { kept[$0.key] != $0.value }.count
    }

    /// Six moves round a 2×2 block one way leave it as six the other way: of the two,
    /// the one later in move order is refused, and only at its last move.
    @Test func theLongWayRoundABlockIsRefusedOnce() {
        let automaton = MoveAutomaton.shared
        // Empty cell: right, down, left, up, right, down (clockwise), and the reverse turn.
        let clockwise = [3, 1, 2, 0, 3, 1]
        let anticlockwise = [1, 3, 0, 2, 1, 3]
        func refusedAt(_ moves: [Int]) -> Int? {
            var state = MoveAutomaton.start
            for (index, move) in moves.enumerated() {
                guard let next = automaton.next(state, move) else { return index }
                state = next
            }
            return nil
        }
        let refusals = [refusedAt(clockwise), refusedAt(anticlockwise)]
        #expect(refusals.compactMap { $0 } == [5])
        // The earlier in move order (1 before 3) is the one kept.
        #expect(refusals[1] == nil)
    }

    @Test func oneMoveComparesNothing() {
        let automaton = MoveAutomaton(maxLength: 1)
        #expect(automaton.stateCount == 1)
        for move in 0..<4 { #expect(automaton.next(MoveAutomaton.start, move) == MoveAutomaton.start) }
        #expect(MoveAutomaton.shared.stateCount > 1)
    }

    /// The 4×4 search with the automaton finds paths as short as without it, in fewer
    /// nodes, and they solve their boards.
    @Test func theFourByFourSearchStaysOptimalInFewerNodes() {
        var withNodes = 0
        var withoutNodes = 0
        for seed in UInt64(0)..<3 {
            let board = SolverTests.walked(side: 4, steps: 60, seed: seed + 900)
            var with = FifteenSearch(database: .shared, automaton: .shared)
            var without = FifteenSearch(database: .shared, automaton: MoveAutomaton(maxLength: 1))
            let path = with.solve(board.cells, deadline: .infinity, clock: SolverTests.noClock)
            let reference = without.solve(board.cells, deadline: .infinity, clock: SolverTests.noClock)
            #expect(path?.count == reference?.count, "seed \(seed)")
            withNodes += with.nodes
            withoutNodes += without.nodes
            var replay = board
            for cell in path ?? [] {
                guard let direction = Direction.allCases.first(where: { replay.tileIndex(tilting: $0) == cell }) else {
                    Issue.record("a step to a cell not next to the empty one")
                    break
                }
                replay.tilt(direction)
            }
            #expect(replay.isSolved, "seed \(seed)")
        }
        #expect(withNodes < withoutNodes)
    }
}
