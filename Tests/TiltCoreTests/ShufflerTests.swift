// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import TiltCore

@Suite struct ShufflerTests {
    @Test func sameSeedSameBoard() {
        for side in Board.sides {
            #expect(Puzzle.newGame(side: side, seed: 77).board == Puzzle.newGame(side: side, seed: 77).board)
        }
        #expect(Puzzle.newGame(side: 4, seed: 1).board != Puzzle.newGame(side: 4, seed: 2).board)
    }

    /// The generator's first outputs for seed 0, from the SplitMix64 reference.
    @Test func splitMixReferenceValues() {
        var random = SeededRandom(seed: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
        #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
    }

    @Test func neverSolvedAlwaysSolvableCounterReset() {
        for side in Board.sides {
            for seed in UInt64(0)..<40 {
                var puzzle = Puzzle(side: side)
                puzzle.tilt(.right)
                puzzle.shuffle(seed: seed)
                #expect(!puzzle.isSolved)
                #expect(puzzle.board.isSolvable)
                #expect(puzzle.moves == 0 && !puzzle.canUndo)
            }
        }
    }

    /// A uniformly random 4×4 board averages about 37 (sum of 15 tiles' distances).
    @Test func wellMixed() {
        var total = 0
        for seed in UInt64(0)..<1_000 { total += Puzzle.newGame(side: 4, seed: seed).board.manhattanDistance }
        let average = Double(total) / 1_000
        #expect(average >= 30, "average Manhattan distance \(average)")
    }

    @Test func twoByTwoSeedsReachSeveralBoards() {
        let boards = Set((UInt64(0)..<50).map { Puzzle.newGame(side: 2, seed: $0).board })
        #expect(boards.count >= 4)
    }
}
