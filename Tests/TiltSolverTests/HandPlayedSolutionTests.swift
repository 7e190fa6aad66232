// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCore
import TiltSolver

/// The solver's answers played by the simulated hand (docs/tilt-detection.md,
/// "Simulated hand"): its samples, through the default detector, must play exactly
/// the tilts asked for, and so solve the board.
@Suite struct HandPlayedSolutionTests {
    static func play(_ samples: [Sample], on board: Board) throws -> (fired: [Direction], puzzle: Puzzle) {
        var puzzle = try Puzzle(board: board, moves: 0, history: History(limit: 10))
        var detector = TiltDetector()
        var fired: [Direction] = []
        for sample in samples {
            if let direction = detector.process(sample) {
                fired.append(direction)
                puzzle.tilt(direction)
            }
        }
        return (fired, puzzle)
    }

    @Test(arguments: 2...5)
    func solvedByTheHandWithExactlyTheSolutionsTilts(side: Int) throws {
        for seed in UInt64(0)..<(side <= 3 ? 12 : 4) {
            let board = Puzzle.newGame(side: side, seed: seed + 100 * UInt64(side)).board
            let solution = Solver.solve(board, budget: 0.002) { 0 }
            var hand = SimulatedHand(seed: seed)
            let samples = hand.samples(for: solution.directions)
            let (fired, puzzle) = try Self.play(samples, on: board)
            #expect(fired == solution.directions, "side \(side) seed \(seed)")
            #expect(puzzle.isSolved, "side \(side) seed \(seed)")
        }
    }
}
