// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import TiltCore

/// Seeded random sequences of actions, undos and redos, checked against invariants
/// and against a plain model of the history (stacks of whole snapshots).
@Suite struct PropertyTests {
    enum Step { case tilt(Direction), move(Int, Direction), slide(Int), undo, redo }

    static func randomStep(_ random: inout SeededRandom, side: Int) -> Step {
        let direction = Direction.allCases[Int(random.below(4))]
        let index = Int(random.below(UInt64(side * side)))
        switch random.below(10) {
        case 0...3: return .tilt(direction)
        case 4: return .move(index, direction)
        case 5: return .slide(index)
        case 6, 7: return .undo
        default: return .redo
        }
    }

    struct Snapshot: Equatable { var board: Board; var moves: Int }

    @Test(arguments: 2...6)
    func randomSequencesKeepTheInvariants(side: Int) {
        var random = SeededRandom(seed: UInt64(side) * 7919)
        // Unbounded here, so that undoing everything must reach the start.
        var puzzle = Puzzle.newGame(side: side, seed: UInt64(side), undoLimit: 1_000_000)
        let start = Snapshot(board: puzzle.board, moves: puzzle.moves)
        // The reference: undo and redo stacks of whole snapshots.
        var undoModel: [Snapshot] = []
        var redoModel: [Snapshot] = []
        var applied = 0
        for _ in 0..<2_500 {
            let before = Snapshot(board: puzzle.board, moves: puzzle.moves)
            let step = Self.randomStep(&random, side: side)
            let made: [Move]
            switch step {
            case .tilt(let d): made = puzzle.tilt(d)
            case .move(let i, let d): made = puzzle.move(index: i, direction: d)
            case .slide(let i): made = puzzle.slide(index: i)
            case .undo: made = puzzle.undo()
            case .redo: made = puzzle.redo()
            }
            let after = Snapshot(board: puzzle.board, moves: puzzle.moves)
            switch step {
            case .undo:
                if let previous = undoModel.popLast() {
                    #expect(after == previous)
                    redoModel.append(before)
                    applied -= made.count
                } else {
                    #expect(after == before && made.isEmpty)
                }
            case .redo:
                if let next = redoModel.popLast() {
                    #expect(after == next)
                    undoModel.append(before)
                    applied += made.count
                } else {
                    #expect(after == before && made.isEmpty)
                }
            default:
                if made.isEmpty {
                    #expect(after == before)
                } else {
                    undoModel.append(before)
                    redoModel.removeAll()
                    applied += made.count
                }
            }
            #expect(puzzle.moves == applied)
            #expect(puzzle.board.isSolvable)
            #expect(puzzle.canUndo == !undoModel.isEmpty)
            #expect(puzzle.canRedo == !redoModel.isEmpty)
            // Each event is one legal single-cell move into the empty cell.
            for move in made {
                let delta = move.to - move.from
                #expect([1, -1, side, -side].contains(delta))
            }
        }
        let furthest = redoModel.first
        while puzzle.canRedo { puzzle.redo() }
        if let furthest { #expect(after(puzzle) == furthest) }
        let end = after(puzzle)
        while puzzle.canUndo { puzzle.undo() }
        #expect(after(puzzle) == start)
        while puzzle.canRedo { puzzle.redo() }
        #expect(after(puzzle) == end)
    }

    private func after(_ puzzle: Puzzle) -> Snapshot {
        Snapshot(board: puzzle.board, moves: puzzle.moves)
    }

    /// The history survives a save and a restore unchanged, at every point of a random game.
    @Test func historyRoundTripsThroughItsTextForm() throws {
        var random = SeededRandom(seed: 42)
        var puzzle = Puzzle.newGame(side: 4, seed: 9)
        for _ in 0..<500 {
            switch Self.randomStep(&random, side: 4) {
            case .tilt(let d): puzzle.tilt(d)
            case .move(let i, let d): puzzle.move(index: i, direction: d)
            case .slide(let i): puzzle.slide(index: i)
            case .undo: puzzle.undo()
            case .redo: puzzle.redo()
            }
            let history = puzzle.history
            let undo = Action.parse(tokens: history.undoActions.map(\.token).joined())
            let redo = Action.parse(tokens: history.redoActions.map(\.token).joined())
            let restored = try Puzzle(board: puzzle.board, moves: puzzle.moves,
                                      history: History(limit: history.limit, undo: undo ?? [], redo: redo ?? []))
            #expect(restored == puzzle)
        }
    }
}
