// SPDX-License-Identifier: GPL-3.0-or-later
import TiltClient
import TiltCore
import TiltSolver
import TiltSystem

/// What the demo plays: a shuffled game, its solution from the solver, and the
/// accelerometer samples a hand playing that solution gives (docs/solver.md).
struct DemoScript {
    var title: String
    var puzzle: Puzzle
    var solution: Solution
    /// Trace text (docs/traces.md) for the replay source.
    var trace: String
    /// Seconds the trace lasts at speed 1.
    var duration: Double

    /// The game of `size` shuffled from `seed`, solved, and played by a simulated
    /// hand seeded the same way, so one seed reproduces the whole run.
    static func make(size: Int, seed: UInt64) -> DemoScript {
        let puzzle = Puzzle.newGame(side: size, seed: seed)
        // 4×4 is solved optimally within about a second on a tablet; bigger boards take
        // the fast near-optimal answer (docs/solver.md).
        let solution = Solver.solve(puzzle.board, budget: size == 4 ? 2 : 0.1, clock: MonotonicClock.now)
        var hand = SimulatedHand(seed: seed)
        let samples = hand.samples(for: solution.directions)
        let tilts = GameText.tiltsText(solution.directions.count)
        let plan = solution.isOptimal ? L("{0} (optimal)", tilts) : tilts
        let trace = TraceFormat.text(for: samples, comments: [
            "tiltpuzzle demo: size \(size), seed \(seed), \(plan)",
            "a simulated hand holding the tablet a few degrees off flat, 100 Hz",
        ])
        return DemoScript(title: L("a tablet solving a shuffled {0} puzzle (seed {1}): {2}", GameText.sizeText(size), seed, plan),
                          puzzle: puzzle, solution: solution, trace: trace, duration: samples.last?.time ?? 0)
    }
}
