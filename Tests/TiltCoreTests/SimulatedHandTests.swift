// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import TiltCore

/// The simulated hand (docs/tilt-detection.md, "Simulated hand"): its samples at the
/// sensor's rate, near one gravity and off flat, from its seed alone, as a trace. That
/// they play exactly the tilts asked for is `HandPlayedSolutionTests`, with the solver's.
@Suite struct SimulatedHandTests {
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
