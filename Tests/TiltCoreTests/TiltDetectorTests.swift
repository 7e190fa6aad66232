// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import TiltCore

/// A device-frame reading for a pose tilted `x` degrees about the screen's vertical
/// axis (positive: left edge lowered) and `y` degrees about its horizontal axis
/// (positive: bottom edge lowered), scaled to `g`.
func reading(x: Double = 0, y: Double = 0, g: Double = standardGravity) -> Vector3 {
    let sx = TiltDetector.sine(degrees: x)
    let sy = TiltDetector.sine(degrees: y)
    let z = (max(0, 1 - sx * sx - sy * sy)).squareRoot()
    return Vector3(sx, sy, z) * g
}

/// Feeds poses at 100 Hz; returns what fired.
func run(_ detector: inout TiltDetector, _ poses: [Vector3], start: Double = 0) -> [Direction] {
    var fired: [Direction] = []
    for (i, pose) in poses.enumerated() {
        if let d = detector.process(Sample(time: start + Double(i) / 100, acceleration: pose)) { fired.append(d) }
    }
    return fired
}

/// A smooth ramp of poses from one tilt to another, `steps` samples long.
func ramp(from a: (Double, Double), to b: (Double, Double), steps: Int = 20) -> [Vector3] {
    (1...steps).map { i in
        let f = Double(i) / Double(steps)
        return reading(x: a.0 + (b.0 - a.0) * f, y: a.1 + (b.1 - a.1) * f)
    }
}

func tilt(_ x: Double, _ y: Double) -> [Vector3] {
    Array(repeating: reading(), count: 10) + ramp(from: (0, 0), to: (x, y))
        + Array(repeating: reading(x: x, y: y), count: 10) + ramp(from: (x, y), to: (0, 0))
}

@Suite struct TiltDetectorTests {
    /// docs/tilt-detection.md's signs: right edge lowered is x < 0 and fires right, and so on.
    @Test(arguments: [
        (-30.0, 0.0, Direction.right), (30, 0, .left), (0, -30, .up), (0, 30, .down),
        (-32, 24, .right), (24, -32, .up), (-25, -24, .right),
    ])
    func directionsFollowTheSpecSigns(x: Double, y: Double, expected: Direction) {
        var detector = TiltDetector()
        #expect(run(&detector, tilt(x, y)) == [expected])
    }

    @Test func oneTiltFiresOnceHoweverLongItIsHeld() {
        var detector = TiltDetector()
        let poses = Array(repeating: reading(), count: 10) + ramp(from: (0, 0), to: (-30, 0))
            + Array(repeating: reading(x: -30), count: 500)
        #expect(run(&detector, poses) == [.right])
    }

    @Test func firesOnTheFirstSampleAtTheTrigger() {
        var detector = TiltDetector()
        _ = run(&detector, Array(repeating: reading(), count: 5))
        #expect(detector.process(Sample(time: 1, acceleration: reading(x: -19.9))) == nil)
        #expect(detector.process(Sample(time: 1.01, acceleration: reading(x: -20.1))) == .right)
    }

    @Test func reArmsOnlyUnderTheRelease() {
        var detector = TiltDetector()
        var poses = tilt(-30, 0).dropLast(20) + ramp(from: (-30, 0), to: (-11, 0))
        poses += ramp(from: (-11, 0), to: (-30, 0))       // back out without passing under 10°
        #expect(run(&detector, Array(poses)) == [.right])
        var rearmed = TiltDetector()
        let again = tilt(-30, 0) + tilt(-30, 0)
        #expect(run(&rearmed, again) == [.right, .right])
    }

    @Test func startsDisarmedUntilNeutral() {
        var detector = TiltDetector()
        let poses = Array(repeating: reading(x: -30), count: 50) + ramp(from: (-30, 0), to: (0, 0))
            + ramp(from: (0, 0), to: (0, 30))
        #expect(run(&detector, poses) == [.down])
    }

    @Test func magnitudeFarFromOneGNeverFires() {
        var detector = TiltDetector()
        _ = run(&detector, Array(repeating: reading(), count: 10))
        #expect(detector.process(Sample(time: 0.2, acceleration: reading(x: -40, g: 14))) == nil)
        #expect(detector.process(Sample(time: 0.21, acceleration: reading(x: -40, g: 4))) == nil)
        // Inside the settle time even a good-looking sample is ignored.
        #expect(detector.process(Sample(time: 0.25, acceleration: reading(x: -40))) == nil)
        // Afterwards a real tilt fires again.
        #expect(detector.process(Sample(time: 0.4, acceleration: reading(x: -40))) == .right)
    }

    @Test func aJumpFasterThanAHandIsABump() {
        var detector = TiltDetector()
        _ = run(&detector, Array(repeating: reading(), count: 10))
        // 35° between two samples 10 ms apart: 1750°/s.
        #expect(detector.process(Sample(time: 0.1, acceleration: reading(x: -35))) == nil)
        #expect(detector.process(Sample(time: 0.11, acceleration: reading())) == nil)
    }

    @Test func slowSensorsStillTilt() {
        // 5 Hz polling: 25° between two samples 200 ms apart is 125°/s, a normal tilt.
        var detector = TiltDetector()
        #expect(detector.process(Sample(time: 0, acceleration: reading())) == nil)
        #expect(detector.process(Sample(time: 0.2, acceleration: reading())) == nil)
        #expect(detector.process(Sample(time: 0.4, acceleration: reading(y: 25))) == .down)
    }

    @Test func calibrationMovesTheNeutralPose() {
        var detector = TiltDetector()
        let early = detector.calibrate()
        #expect(!early)   // nothing seen yet
        let held = Array(repeating: reading(y: 30), count: 50)
        #expect(run(&detector, held).isEmpty)
        let calibrated = detector.calibrate()
        #expect(calibrated)
        // Relative to 30°: a further 25° towards the player fires down, back to 30° re-arms,
        // 25° the other way (5° absolute) fires up.
        let poses = ramp(from: (0, 30), to: (0, 55)) + ramp(from: (0, 55), to: (0, 30))
            + ramp(from: (0, 30), to: (0, 5)) + ramp(from: (0, 5), to: (0, 30))
            + ramp(from: (0, 30), to: (-25, 30))
        #expect(run(&detector, poses, start: 1) == [.down, .up, .right])
    }

    @Test func mountMatrixTakesSensorToDeviceFrame() {
        var configuration = TiltDetector.Configuration()
        // Sensor x along device y, sensor y along device −x: device = M · sensor.
        configuration.mountMatrix = Matrix3([0, -1, 0, 1, 0, 0, 0, 0, 1])!
        var detector = TiltDetector(configuration: configuration)
        // Device tilt right (device x < 0) is sensor y > 0.
        let sensorPoses = tilt(-30, 0).map { Vector3($0.y, -$0.x, $0.z) }
        #expect(run(&detector, sensorPoses) == [.right])
    }

    @Test(arguments: [
        (ScreenRotation.upright, Direction.right), (.quarter, .up), (.half, .left), (.threeQuarters, .down),
    ])
    func screenRotationTurnsDirections(rotation: ScreenRotation, expected: Direction) {
        var configuration = TiltDetector.Configuration()
        configuration.screenRotation = rotation
        var detector = TiltDetector(configuration: configuration)
        // The device's right edge lowered: at a quarter turn that edge is the top of the picture.
        #expect(run(&detector, tilt(-30, 0)) == [expected])
    }

    @Test func configurationIsValidated() throws {
        var c = TiltDetector.Configuration()
        try c.validate()
        c.releaseAngle = 25
        #expect(throws: TiltDetector.Configuration.Problem.releaseOutOfRange(25)) { try c.validate() }
        c = .init()
        c.triggerAngle = 95
        #expect(throws: TiltDetector.Configuration.Problem.triggerOutOfRange(95)) { try c.validate() }
        c = .init()
        c.mountMatrix = Matrix3([1, 0, 0, 0, 0, 0, 0, 0, 1])!
        #expect(throws: TiltDetector.Configuration.Problem.mountMatrixSingular) { try c.validate() }
    }

    @Test func sineMatchesKnownValues() {
        #expect(abs(TiltDetector.sine(degrees: 30) - 0.5) < 1e-12)
        #expect(abs(TiltDetector.sine(degrees: 90) - 1) < 1e-12)
        #expect(abs(TiltDetector.sine(degrees: 10) - 0.17364817766693033) < 1e-12)
    }

    @Test func rotationTakesNeutralToFlat() {
        for v in [Vector3(0, 0.5, 0.866), Vector3(0.3, -0.2, 0.93), Vector3(0, 0, -1), Vector3(1, 0, 0)] {
            let u = v * (1 / v.length)
            let r = Matrix3.rotation(from: u, to: .flat)
            let image = r * u
            #expect((image - .flat).length < 1e-9)
            #expect(abs(r.determinant - 1) < 1e-9)
        }
    }
}

/// Auto-neutral (docs/tilt-detection.md): a still starting pose becomes neutral, and
/// only before the stream has been near neutral or fired.
@Suite struct AutoNeutralTests {
    /// Feeds poses at 100 Hz from `start`; returns every event with its sample time.
    func events(_ detector: inout TiltDetector, _ poses: [Vector3], start: Double = 0) -> [(Double, TiltDetector.Event)] {
        var out: [(Double, TiltDetector.Event)] = []
        for (i, pose) in poses.enumerated() {
            let t = start + Double(i) / 100
            if let e = detector.step(Sample(time: t, acceleration: pose)) { out.append((t, e)) }
        }
        return out
    }

    @Test func aStillStartingPoseBecomesNeutralAfterTheHold() throws {
        var detector = TiltDetector()
        let held = Array(repeating: reading(y: 35), count: 150)
        let seen = events(&detector, held)
        #expect(seen.count == 1)
        let (t, event) = try #require(seen.first)
        #expect(event == .autoCalibrated)
        #expect(abs(t - 1.0) < 0.015)
        #expect((detector.neutral - reading(y: 35) * (1 / standardGravity)).length < 1e-9)
        // Tilts are now measured from the held pose: 25° towards the top edge from it.
        let play = ramp(from: (0, 35), to: (0, 10)) + ramp(from: (0, 10), to: (0, 35))
        let fired = run(&detector, play, start: 2)
        #expect(fired == [.up])
    }

    @Test func startingFlatChangesNothing() {
        var detector = TiltDetector()
        let seen = events(&detector, Array(repeating: reading(), count: 300))
        #expect(seen.isEmpty)
        #expect(detector.neutral == .flat)
        #expect(!detector.autoNeutralOpen)
    }

    @Test func holdingATiltAfterAMoveNeverBecomesNeutral() {
        var detector = TiltDetector()
        let poses = Array(repeating: reading(), count: 20) + ramp(from: (0, 0), to: (-30, 0))
            + Array(repeating: reading(x: -30), count: 500) + ramp(from: (-30, 0), to: (0, 0))
        let seen = events(&detector, poses)
        #expect(seen.map(\.1) == [.fired(.right)])
        #expect(detector.neutral == .flat)
    }

    @Test func aTiltFiredRightAfterAManualCalibrationClosesIt() {
        var detector = TiltDetector()
        _ = events(&detector, Array(repeating: reading(y: 35), count: 20))
        let calibrated = detector.calibrate()
        #expect(calibrated)
        #expect(!detector.autoNeutralOpen)
        let seen = events(&detector, Array(repeating: reading(y: 5), count: 300), start: 1)
        #expect(!seen.contains { $0.1 == .autoCalibrated })
    }

    @Test func aPoseThatKeepsMovingIsNeverTaken() {
        var detector = TiltDetector()
        // 35° → 65° at 10°/s: never within 5° of where a hold began for a second.
        let poses = (0..<300).map { reading(y: 35 + Double($0) / 10) }
        let seen = events(&detector, poses)
        #expect(seen.isEmpty)
        #expect(detector.neutral == .flat)
    }

    @Test func noiseAtTheHeldPoseDoesNotPreventIt() {
        var detector = TiltDetector()
        var random = SeededRandom(seed: 7)
        let poses = (0..<200).map { _ in
            reading(y: 35) + Vector3(Double.random(in: -0.1...0.1, using: &random),
                                     Double.random(in: -0.1...0.1, using: &random),
                                     Double.random(in: -0.1...0.1, using: &random))
        }
        let seen = events(&detector, poses)
        #expect(seen.map(\.1) == [.autoCalibrated])
    }

    @Test func offInTheConfigurationTakesNothing() {
        var configuration = TiltDetector.Configuration()
        configuration.autoNeutral = false
        var detector = TiltDetector(configuration: configuration)
        let seen = events(&detector, Array(repeating: reading(y: 35), count: 300))
        #expect(seen.isEmpty)
    }

    @Test func aRestartOpensItAgain() {
        var detector = TiltDetector()
        _ = events(&detector, Array(repeating: reading(), count: 10))
        #expect(!detector.autoNeutralOpen)
        detector.restart()
        let seen = events(&detector, Array(repeating: reading(x: 40), count: 150), start: 5)
        #expect(seen.map(\.1) == [.autoCalibrated])
    }

    @Test func aKnockRestartsTheHold() {
        var detector = TiltDetector()
        var poses = Array(repeating: reading(y: 35), count: 80)
        poses.append(reading(y: 35, g: 2 * standardGravity))
        poses += Array(repeating: reading(y: 35), count: 80)
        // 0.8 s, a knock (plus 0.1 s settle), 0.7 s: no hold reaches a second.
        let seen = events(&detector, poses)
        #expect(seen.isEmpty)
    }

    @Test func theHoldMustBeSaneToValidate() {
        var configuration = TiltDetector.Configuration()
        configuration.autoNeutralHold = 0
        #expect(throws: TiltDetector.Configuration.Problem.holdOutOfRange(0)) { try configuration.validate() }
    }
}
