// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import TiltCore

@Suite struct BoardTests {
    @Test func newBoardIsSolvedWithEmptyLast() {
        for side in Board.sides {
            let board = Board(side: side)
            #expect(board.isSolved)
            #expect(board.emptyIndex == side * side - 1)
            #expect(board[board.emptyIndex] == board.emptyValue)
        }
    }

    /// docs/puzzle.md's test vector.
    @Test func seedVector() {
        var puzzle = Puzzle(side: 4)
        var events: [Move] = []
        for direction in [Direction.right, .down, .right, .down] {
            events += puzzle.tilt(direction)
        }
        #expect(puzzle.board.values == [0, 1, 2, 3, 4, 15, 6, 7, 8, 5, 9, 11, 12, 13, 10, 14])
        #expect(puzzle.board.emptyIndex == 5)
        #expect(puzzle.moves == 4)
        #expect(events.map { [$0.from, $0.to] } == [[14, 15], [10, 14], [9, 10], [5, 9]])
        #expect(events.map(\.direction) == [.right, .down, .right, .down])
    }

    @Test(arguments: [Direction.left, .up])
    func illegalTiltFromSolved(direction: Direction) {
        var puzzle = Puzzle(side: 4)
        #expect(puzzle.tilt(direction).isEmpty)
        #expect(puzzle.isSolved)
        #expect(puzzle.moves == 0)
        #expect(!puzzle.canUndo)
    }

    /// Tilt legality at every empty position of a 3×3 board: (empty, direction, moved tile or nil).
    @Test(arguments: [
        (0, Direction.up, 3), (0, .down, nil), (0, .left, 1), (0, .right, nil),
        (2, .up, 5), (2, .left, nil), (2, .right, 1),
        (3, .right, nil), (3, .left, 4), (3, .down, 0),
        (4, .up, 7), (4, .down, 1), (4, .left, 5), (4, .right, 3),
        (5, .left, nil), (5, .right, 4),
        (6, .up, nil), (6, .right, nil), (6, .left, 7),
        (8, .up, nil), (8, .left, nil), (8, .down, 5), (8, .right, 7),
    ] as [(Int, Direction, Int?)])
    func tiltRules(empty: Int, direction: Direction, tile: Int?) {
        let board = Self.board(side: 3, empty: empty)
        #expect(board.tileIndex(tilting: direction) == tile)
    }

    /// A 3×3 board with the empty cell walked to `empty` by legal moves.
    static func board(side: Int, empty: Int) -> Board {
        var board = Board(side: side)
        while board.emptyIndex % side > empty % side { board.tilt(.right) }
        while board.emptyIndex / side > empty / side { board.tilt(.down) }
        return board
    }

    @Test func moveCommandNeedsTheEmptyCellInThatDirection() {
        var puzzle = Puzzle(side: 4)
        #expect(puzzle.move(index: 14, direction: .left).isEmpty)   // the empty cell is right of 14
        #expect(puzzle.move(index: 11, direction: .right).isEmpty)  // 11 is not beside the empty cell that way
        #expect(puzzle.move(index: 10, direction: .right).isEmpty)  // not adjacent
        #expect(puzzle.moves == 0 && !puzzle.canUndo)
        #expect(puzzle.move(index: 14, direction: .right) == [Move(from: 14, to: 15, direction: .right)])
        #expect(puzzle.move(index: 10, direction: .down) == [Move(from: 10, to: 14, direction: .down)])
        #expect(puzzle.moves == 2)
    }

    @Test func slideMovesEveryTileBetween() {
        var puzzle = Puzzle(side: 4)
        let row = puzzle.slide(index: 12)
        #expect(row == [Move(from: 14, to: 15, direction: .right), Move(from: 13, to: 14, direction: .right),
                        Move(from: 12, to: 13, direction: .right)])
        #expect(puzzle.board.emptyIndex == 12)
        #expect(puzzle.moves == 3)
        let column = puzzle.slide(index: 4)
        #expect(column.map(\.direction) == [.down, .down])
        #expect(puzzle.board.emptyIndex == 4)
        #expect(puzzle.history.undoCount == 2)
        #expect(puzzle.slide(index: 4).isEmpty)    // the empty cell itself
        #expect(puzzle.slide(index: 9).isEmpty)    // neither row nor column
        #expect(puzzle.slide(index: 99).isEmpty)   // outside
        #expect(puzzle.history.undoCount == 2)
    }

    @Test func restoreRejectsUnsolvableAndMalformed() {
        #expect(Board(side: 2, cells: [0, 1, 2, 3]) != nil)
        #expect(Board(side: 2, cells: [1, 0, 2, 3]) == nil)        // one swap: unsolvable
        #expect(Board(side: 2, cells: [0, 1, 2]) == nil)
        #expect(Board(side: 2, cells: [0, 1, 1, 3]) == nil)
        #expect(Board(side: 11, cells: Array(0..<121)) == nil)
        #expect(Board(side: 3, cells: [0, 1, 2, 3, 4, 5, 6, 8, 7]) != nil)   // empty moved left once
    }
}

@Suite struct BoardValidationTests {
    @Test func aSolvablePermutationIsABoardOfTheSideItsLengthGives() throws {
        let board = try Board(cells: [0, 1, 2, 3, 4, 5, 6, 8, 7])
        #expect(board.side == 3)
        #expect(board.values == [0, 1, 2, 3, 4, 5, 6, 8, 7])
        #expect(board.emptyIndex == 7)
        #expect(try Board(cells: Array(0..<100)).side == 10)
    }

    @Test(arguments: [
        ([0, 1, 2], Board.Problem.wrongLength(3)),
        ([0], .wrongLength(1)),
        ([], .wrongLength(0)),
        (Array(0..<121), .wrongLength(121)),
        ([0, 1, 2, 4], .valueOutOfRange(index: 3, value: 4)),
        ([0, -1, 2, 3], .valueOutOfRange(index: 1, value: -1)),
        ([0, 1, 1, 3], .repeatedValue(1)),
        // Two tiles swapped on the solved board: the classic unsolvable position.
        ([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 13, 15], .unsolvable),
        ([1, 0, 2, 3, 4, 5, 6, 7, 8], .unsolvable),
    ])
    func everyWayCellsCanBeWrongHasItsReason(cells: [Int], problem: Board.Problem) {
        #expect(throws: problem) { try Board(cells: cells) }
    }

    @Test func theReasonsSayWhatIsWrong() {
        #expect(Board.Problem.wrongLength(3).description.contains("not 3"))
        #expect(Board.Problem.valueOutOfRange(index: 3, value: 4).description.contains("4 at index 3"))
        #expect(Board.Problem.repeatedValue(1).description.contains("1 appears more than once"))
        #expect(Board.Problem.unsolvable.description.contains("cannot be solved"))
    }
}

