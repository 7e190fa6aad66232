// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import TiltCore

/// A screen rotation changed while playing (docs/tilt-detection.md, "Screen rotation"):
/// from the next sample on, the detector reads tilts exactly as one started with that
/// rotation, the neutral pose kept as the player holds the device.
@Suite struct ScreenRotationChangeTests {
    /// How the neutral pose came about before the change.
    enum Neutral: CaseIterable, CustomTestStringConvertible {
        case flat, calibrated, autoNeutral, saved

        var testDescription: String { "\(self)" }
    }

    /// Poses tilted from `neutral` (a unit vector in the device frame) by (x, y) degrees.
    static func around(_ neutral: Vector3, _ poses: [Vector3]) -> [Vector3] {
        let turn = Matrix3.rotation(from: .flat, to: neutral)
        return poses.map { turn * $0 }
    }

    /// Each tilt of the four directions and two off the diagonals, from `neutral`.
    static func tilts(around neutral: Vector3) -> [Vector3] {
        let ways: [(Double, Double)] = [(-30, 0), (0, -30), (30, 0), (0, 30), (-26, 14), (12, -27)]
        return around(neutral, ways.flatMap { tilt($0.0, $0.1) })
    }

    /// Both detectors fed the same samples from `start`; a calibration at `calibrateAt`.
    static func feed(_ detectors: inout [TiltDetector], _ poses: [Vector3], start: Double,
                     calibrateAt: Int? = nil) -> [[Direction]] {
        var fired = Array(repeating: [Direction](), count: detectors.count)
        for (i, pose) in poses.enumerated() {
            let sample = Sample(time: start + Double(i) / 100, acceleration: pose)
            for d in detectors.indices {
                if i == calibrateAt { detectors[d].calibrate() }
                if let direction = detectors[d].process(sample) { fired[d].append(direction) }
            }
        }
        return fired
    }

    @Test(arguments: ScreenRotation.allCases, Neutral.allCases)
    func aLiveChangeReadsAsADetectorStartedWithIt(rotation: ScreenRotation, neutral: Neutral) {
        var started = TiltDetector.Configuration()
        started.screenRotation = rotation
        // [0]: started upright, turned live; [1]: started with the rotation.
        var detectors = [TiltDetector(), TiltDetector(configuration: started)]
        let held = reading(x: 8, y: 33) * (1 / standardGravity)
        var pose = Vector3.flat
        var before: [Vector3]
        var calibrateAt: Int?
        switch neutral {
        case .flat:
            before = Self.tilts(around: .flat)
        case .calibrated:
            // Held still, then calibrated there by hand.
            before = Array(repeating: held * standardGravity, count: 30)
            calibrateAt = 20
            pose = held
        case .autoNeutral:
            // Held still from the start for longer than the hold: it becomes neutral by itself.
            before = Array(repeating: held * standardGravity, count: 150)
            pose = held
        case .saved:
            for d in detectors.indices { detectors[d].setNeutral(held) }
            before = Self.around(held, Array(repeating: reading(), count: 20))
            pose = held
        }
        before += Self.tilts(around: pose).prefix(60)
        _ = Self.feed(&detectors, before, start: 0, calibrateAt: calibrateAt)
        let neutralBefore = detectors[0].neutral
        #expect((detectors[0].neutral - detectors[1].neutral).length < 1e-12, "the same neutral pose either way")

        var turned = detectors[0].configuration
        turned.screenRotation = rotation
        detectors[0].reconfigure(turned)
        #expect(detectors[0].neutral == neutralBefore, "the neutral pose is the device's, whatever the picture")

        let after = Self.tilts(around: pose)
        let fired = Self.feed(&detectors, after, start: Double(before.count) / 100)
        #expect(fired[0] == fired[1])
        #expect(fired[1].count >= 5, "the tilts after the change fired: \(fired[1])")
    }

    /// The picture's right edge is the device's top edge at a quarter turn: after the
    /// change, lowering the device's right edge slides a tile up, as the player sees it.
    @Test func theSameTiltOfTheDeviceSlidesTheWayThePictureShows() {
        var detector = TiltDetector()
        #expect(run(&detector, tilt(-30, 0)) == [.right])
        var turned = detector.configuration
        turned.screenRotation = .quarter
        detector.reconfigure(turned)
        #expect(run(&detector, tilt(-30, 0), start: 1) == [.up])
    }
}
