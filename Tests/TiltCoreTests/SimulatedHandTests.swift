// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import TiltCore

/// The simulated hand (docs/tilt-detection.md, "Simulated hand"): its samples, through
/// the default detector, must play exactly the tilts asked for.
@Suite struct SimulatedHandTests {
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

    @Test func samplesAreAHundredHertzNearOneGravityAndOffFlat() {
        var hand = SimulatedHand(seed: 7)
        let samples = hand.samples(for: [.up, .left, .down, .right])
        for (i, sample) in samples.enumerated() {
            #expect(abs(sample.time - Double(i) / 100) < 1e-9)
            #expect(abs(sample.acceleration.length - standardGravity) < 0.3)
        }
        // At rest the tablet is held off flat, yet within the release angle.
        let first = samples[0].acceleration
        #expect(first.x != 0 && first.y != 0)
        #expect(abs(first.x) < standardGravity * TiltDetector.sine(degrees: 10))
        // Each tilt goes past the trigger angle, so each fires.
        let sinTrigger = TiltDetector.sine(degrees: 20)
        #expect(samples.contains { $0.acceleration.y < -sinTrigger * standardGravity })
        #expect(samples.contains { $0.acceleration.x > sinTrigger * standardGravity })
    }

    @Test func sameSeedSameSamplesOtherSeedOthers() {
        var a = SimulatedHand(seed: 3)
        var b = SimulatedHand(seed: 3)
        var c = SimulatedHand(seed: 4)
        let directions: [Direction] = [.up, .up, .left]
        let samples = a.samples(for: directions)
        #expect(samples == b.samples(for: directions))
        #expect(samples != c.samples(for: directions))
    }

    @Test func samplesRenderAsATraceThatParsesBack() throws {
        var hand = SimulatedHand(seed: 11)
        let samples = hand.samples(for: [.down, .right])
        let text = TraceFormat.text(for: samples, comments: ["simulated hand, seed 11"])
        var parser = TraceParser()
        var parsed: [Sample] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let sample = try parser.parse(line: String(line)) { parsed.append(sample) }
        }
        try parser.finish()
        #expect(text.hasPrefix(TraceFormat.magic + "\n# simulated hand, seed 11\n"))
        #expect(parsed == samples)
    }
}
