// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import TiltCore

/// Seed 004's contract, on the puzzle: one group per action, undo restores the
/// state before it, redo the state after it.
@Suite struct HistoryTests {
    /// A grouped action (a three-tile slide) is undone and redone as one.
    @Test func groupedActionUndoesAndRedoesAsOne() {
        var puzzle = Puzzle(side: 4)
        let before = puzzle
        puzzle.slide(index: 12)
        let after = puzzle
        #expect(puzzle.canUndo && !puzzle.canRedo)
        #expect(puzzle.undo().count == 3)
        #expect(puzzle.board == before.board && puzzle.moves == 0)
        #expect(puzzle.canRedo && !puzzle.canUndo)
        #expect(puzzle.redo().count == 3)
        #expect(puzzle.board == after.board && puzzle.moves == 3)
        #expect(!puzzle.canRedo)
    }

    @Test func newActionAfterUndoDiscardsRedo() {
        var puzzle = Puzzle(side: 4)
        puzzle.tilt(.right)
        puzzle.undo()
        #expect(puzzle.canRedo)
        puzzle.tilt(.down)
        #expect(!puzzle.canRedo)
        #expect(puzzle.redo().isEmpty)
    }

    @Test func twoActionsNeedTwoUndos() {
        var puzzle = Puzzle(side: 4)
        puzzle.tilt(.right)
        puzzle.tilt(.down)
        puzzle.undo()
        #expect(!puzzle.isSolved && puzzle.canUndo && puzzle.moves == 1)
        puzzle.undo()
        #expect(puzzle.isSolved && !puzzle.canUndo && puzzle.moves == 0)
    }

    @Test func noOpRecordsNothing() {
        var puzzle = Puzzle(side: 4)
        puzzle.tilt(.left)
        puzzle.move(index: 0, direction: .up)
        puzzle.slide(index: 0)
        #expect(!puzzle.canUndo)
        puzzle.tilt(.right)
        puzzle.undo()
        puzzle.tilt(.left)  // illegal from solved: must not discard the redo branch
        #expect(puzzle.canRedo)
    }

    /// Undo counts −1 per tile, redo +1: after undo, the counter is what it was before the action.
    @Test func moveCounterFollowsUndoAndRedo() {
        var puzzle = Puzzle(side: 4)
        puzzle.tilt(.right)
        puzzle.slide(index: 2)   // the empty cell is at 14: three tiles down column 2
        let counted = puzzle.moves
        #expect(counted == 4)
        puzzle.undo()
        #expect(puzzle.moves == 1)
        puzzle.redo()
        #expect(puzzle.moves == counted)
    }

    @Test func undoEventsAreTheReverseMoves() {
        var puzzle = Puzzle(side: 4)
        let forward = puzzle.slide(index: 13)
        let backward = puzzle.undo()
        #expect(backward.map { Move(from: $0.to, to: $0.from, direction: $0.direction.opposite) }
            == forward.reversed())
        #expect(puzzle.redo() == forward)
    }

    @Test func newGameShuffleAndRestoreStartAFreshHistory() throws {
        var puzzle = Puzzle(side: 4)
        puzzle.tilt(.right)
        puzzle.undo()
        puzzle.tilt(.down)
        puzzle.shuffle(seed: 1)
        #expect(!puzzle.canUndo && !puzzle.canRedo && puzzle.moves == 0)
        puzzle = Puzzle.newGame(side: 3, seed: nil)
        #expect(!puzzle.canUndo && puzzle.isSolved && puzzle.side == 3)
        // Restoring a position is not an action either: nothing to undo afterwards.
        puzzle.tilt(.right)
        let restored = try Puzzle(board: puzzle.board, moves: puzzle.moves, history: History(limit: 10))
        #expect(!restored.canUndo && !restored.canRedo && restored.moves == 1)
    }

    @Test func limitKeepsTheNewestLevels() {
        var puzzle = Puzzle(side: 4, undoLimit: 3)
        for direction in [Direction.right, .right, .right, .down, .down] { puzzle.tilt(direction) }
        #expect(puzzle.history.undoCount == 3)
        #expect(puzzle.history.undoActions.map(\.direction) == [.right, .down, .down])
        while puzzle.canUndo { puzzle.undo() }
        #expect(puzzle.moves == 2)   // the two forgotten levels stay counted
        #expect(puzzle.board.emptyIndex == 13)
        var none = Puzzle(side: 4, undoLimit: 0)
        none.tilt(.right)
        #expect(!none.canUndo)
    }

    @Test func boundedStackCompactsAndKeepsOrder() {
        var stack = BoundedStack<Int>(limit: 4)
        for i in 0..<100 { stack.push(i) }
        #expect(stack.elements == [96, 97, 98, 99])
        #expect(stack.pop() == 99 && stack.last == 98 && stack.count == 3)
    }
}
