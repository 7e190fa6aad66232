// SPDX-License-Identifier: GPL-3.0-or-later
/// Shuffles a board by a seeded random walk of legal moves, so the result is
/// always solvable, and reproducible from its seed.
public enum Shuffler {
    /// Steps per cell; 4×4 walks 800 moves, far past the mixing time
    /// (the mean Manhattan distance then matches a uniformly random board).
    static let stepsPerCell = 50

    public static func shuffled(_ board: Board, seed: UInt64) -> Board {
        var board = board
        var random = SeededRandom(seed: seed)
        var previous: Direction?
        // A seeded extra length, so that even 2×2 (whose walk without backtracking is a
        // fixed cycle) gets different boards from different seeds.
        var steps = stepsPerCell * board.count + Int(random.below(UInt64(2 * board.count)))
        while steps > 0 || board.isSolved {
            // Never undo the previous step: a walk that backtracks mixes slowly.
            let choices = Direction.allCases.filter {
                $0 != previous?.opposite && board.tileIndex(tilting: $0) != nil
            }
            let direction = choices[Int(random.below(UInt64(choices.count)))]
            board.tilt(direction)
            previous = direction
            steps -= 1
        }
        return board
    }
}
