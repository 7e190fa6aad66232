// SPDX-License-Identifier: GPL-3.0-or-later
/// Turns accelerometer samples into tilt directions (docs/tilt-detection.md).
///
/// A pure state machine: `process(_:)` depends only on the detector's state and the
/// sample, never on the wall clock, so a trace replayed at any speed gives the same
/// directions. Each physical tilt fires exactly once:
///
/// - armed: the first sample whose tilt from the neutral pose reaches the trigger angle
///   on either axis fires that axis's direction (the larger tilt wins on a diagonal);
/// - fired: nothing fires until both axes are back under the release angle (hysteresis).
///
/// The detector starts disarmed, so a device that is already tilted when reading
/// starts must come back to neutral before its first move, unless it is held still
/// there: then that pose becomes neutral by itself (auto-neutral, docs/tilt-detection.md).
///
/// Bumps are rejected: a sample whose magnitude is far from 1 g, or whose direction
/// turns faster than a hand tilts a tablet, is a knock or a shake; it never fires and
/// the detector ignores the samples of the following settle time.
public struct TiltDetector: Sendable {
    public struct Configuration: Equatable, Sendable, Codable {
        /// Degrees from the neutral pose at which a tilt fires.
        public var triggerAngle: Double = 20
        /// Degrees from neutral under which both axes must return to re-arm.
        public var releaseAngle: Double = 10
        /// Largest accepted deviation of |a| from 1 g, as a fraction of g.
        public var magnitudeTolerance: Double = 0.25
        /// Degrees per second; a faster change of direction is a bump, not a tilt.
        public var maxAngularRate: Double = 720
        /// Seconds of samples ignored after a bump.
        public var settleTime: Double = 0.1
        /// Sensor frame → device frame, applied before anything else.
        public var mountMatrix: Matrix3 = .identity
        /// How the picture is turned on the panel.
        public var screenRotation: ScreenRotation = .upright
        /// Take a still starting pose as neutral (only before the stream first comes
        /// near neutral and before any fire: docs/tilt-detection.md).
        public var autoNeutral = true
        /// Seconds the starting pose must be held still to become neutral.
        public var autoNeutralHold: Double = 1.0

        public init() {}

        public enum Problem: Error, Equatable, CustomStringConvertible {
            case triggerOutOfRange(Double), releaseOutOfRange(Double), toleranceOutOfRange(Double)
            case rateOutOfRange(Double), settleOutOfRange(Double), mountMatrixSingular, holdOutOfRange(Double)

            public var description: String {
                switch self {
                case .triggerOutOfRange(let v):
                    "trigger angle \(v)° must be above \(Int(TiltAngles.detector.lowerBound))° and below \(Int(TiltAngles.detector.upperBound))°"
                case .releaseOutOfRange(let v):
                    "release angle \(v)° must be at least \(Int(TiltAngles.detector.lowerBound))° and below the trigger angle"
                case .toleranceOutOfRange(let v): "magnitude tolerance \(v) must be above 0 and below 1"
                case .rateOutOfRange(let v): "maximum angular rate \(v)°/s must be above 0"
                case .settleOutOfRange(let v): "settle time \(v) s must be from 0 to 10"
                case .mountMatrixSingular: "mount matrix must be invertible"
                case .holdOutOfRange(let v): "auto-neutral hold \(v) s must be from 0.2 to 10"
                }
            }
        }

        /// Throws the first problem, so a bad configuration is refused as a whole.
        public func validate() throws(Problem) {
            guard TiltAngles.detectorAccepts(trigger: triggerAngle) else { throw .triggerOutOfRange(triggerAngle) }
            guard TiltAngles.detectorAccepts(release: releaseAngle, trigger: triggerAngle) else { throw .releaseOutOfRange(releaseAngle) }
            guard magnitudeTolerance > 0, magnitudeTolerance < 1 else { throw .toleranceOutOfRange(magnitudeTolerance) }
            guard maxAngularRate > 0, maxAngularRate.isFinite else { throw .rateOutOfRange(maxAngularRate) }
            guard settleTime >= 0, settleTime <= 10 else { throw .settleOutOfRange(settleTime) }
            guard abs(mountMatrix.determinant) > 1e-6 else { throw .mountMatrixSingular }
            guard autoNeutralHold >= 0.2, autoNeutralHold <= 10 else { throw .holdOutOfRange(autoNeutralHold) }
        }
    }

    /// What a sample did.
    public enum Event: Sendable, Equatable {
        /// A tilt fired.
        case fired(Direction)
        /// The starting pose, held still, became the neutral pose (auto-neutral).
        case autoCalibrated
    }

    public enum Phase: Sendable, Equatable {
        case armed
        /// Fired (or just started): waiting for both axes to come back under the release angle.
        case waitingForNeutral
    }

    public private(set) var configuration: Configuration
    /// The pose that counts as untilted, a unit vector in the device frame.
    public private(set) var neutral: Vector3
    public private(set) var phase: Phase = .waitingForNeutral
    /// The last accepted reading's direction, in the device frame (what `calibrate` takes).
    public private(set) var lastGravity: Vector3?
    /// The last accepted reading in the screen frame with neutral at +z: its x and y are
    /// the sines of the tilt angles about the screen's two axes (what a pose gauge shows).
    /// Worked out when asked, so a sample costs nothing more for it.
    public var lastTilt: Vector3? { lastGravity.map { toNeutralFrame * $0 } }
    /// True from the start of a stream until it first comes within the release angle of
    /// neutral, a tilt fires, or a calibration: only then may a still pose become neutral.
    public private(set) var autoNeutralOpen = true

    // Derived once per configuration and neutral pose, so a sample costs a few multiplies.
    private var toNeutralFrame: Matrix3 = .identity
    private var sinTrigger = 0.0
    private var sinRelease = 0.0
    private var magnitudeRange: ClosedRange<Double> = 0...0
    private var maxChordRate = 0.0

    // Bump rejection.
    private var previous: (time: Double, direction: Vector3)?
    private var settleUntil: Double?
    /// Where and when the current still hold began (auto-neutral).
    private var holdStart: (time: Double, direction: Vector3)?
    private var holdChord = 0.0

    /// The shortest interval the angular rate is measured over, so that a fast
    /// sensor's per-sample noise does not look like a fast turn.
    static let rateWindow = 0.02
    /// Degrees a "still" hold may wander from where it began: hand tremor and sensor
    /// noise stay well inside, a deliberate movement leaves it.
    public static let stillness = 5.0

    public init(configuration: Configuration = Configuration(), neutral: Vector3 = .flat) {
        self.configuration = configuration
        self.neutral = neutral
        derive()
    }

    public mutating func reconfigure(_ configuration: Configuration) {
        self.configuration = configuration
        derive()
    }

    /// Forgets the stream so far (the sensor started, stopped or changed): waits for
    /// neutral again, and has no pose to calibrate from until the next sample.
    public mutating func restart() {
        phase = .waitingForNeutral
        previous = nil
        settleUntil = nil
        lastGravity = nil
        holdStart = nil
        autoNeutralOpen = true
    }

    /// Takes the current pose as neutral; false if no sample has been accepted yet.
    @discardableResult
    public mutating func calibrate() -> Bool {
        guard let lastGravity else { return false }
        setNeutral(lastGravity)
        // A pose chosen by hand is never replaced by a guess.
        autoNeutralOpen = false
        holdStart = nil
        return true
    }

    /// Sets the neutral pose (e.g. a saved calibration); ignored unless finite and non-zero.
    public mutating func setNeutral(_ pose: Vector3) {
        let length = pose.length
        guard pose.isFinite, length > 1e-9 else { return }
        neutral = pose * (1 / length)
        derive()
    }

    private mutating func derive() {
        let screen = configuration.screenRotation
        toNeutralFrame = Matrix3.rotation(from: screen.apply(neutral), to: .flat) * screen.matrix
        sinTrigger = Self.sine(degrees: configuration.triggerAngle)
        sinRelease = Self.sine(degrees: configuration.releaseAngle)
        let tolerance = configuration.magnitudeTolerance
        magnitudeRange = ((1 - tolerance) * standardGravity)...((1 + tolerance) * standardGravity)
        // For the small angles between samples the chord is the angle in radians.
        maxChordRate = configuration.maxAngularRate * Double.pi / 180
        // The chord between two unit vectors `a` apart is 2 sin(a/2).
        holdChord = 2 * Self.sine(degrees: Self.stillness / 2)
    }

    /// Feeds one sample; returns what it did: a fire, or the starting pose taken as neutral.
    public mutating func step(_ sample: Sample) -> Event? {
        let taken = autoCalibrations
        if let direction = process(sample) { return .fired(direction) }
        return autoCalibrations != taken ? .autoCalibrated : nil
    }

    /// How many times a still starting pose became neutral (what `step` reports).
    public private(set) var autoCalibrations = 0

    /// Feeds one sample; returns the direction it fires, if any.
    public mutating func process(_ sample: Sample) -> Direction? {
        let a = configuration.mountMatrix * sample.acceleration
        let magnitude = a.length
        guard magnitude.isFinite, sample.time.isFinite else { return nil }
        guard magnitudeRange.contains(magnitude) else {
            bump(at: sample.time)
            return nil
        }
        if let until = settleUntil {
            if sample.time < until { return nil }
            settleUntil = nil
        }
        let direction = a * (1 / magnitude)
        if let previous {
            let interval = max(sample.time - previous.time, Self.rateWindow)
            if (direction - previous.direction).length > maxChordRate * interval {
                bump(at: sample.time)
                return nil
            }
        }
        previous = (sample.time, direction)
        lastGravity = direction
        let fired = classify(toNeutralFrame * direction)
        // Once play has begun this is one test: the auto-neutral work is out of line.
        if autoNeutralOpen { autoNeutral(fired: fired != nil, at: sample.time) }
        return fired
    }

    /// Closes auto-neutral once the stream has come near neutral or fired; otherwise
    /// lets a still hold become neutral.
    @inline(never)
    private mutating func autoNeutral(fired: Bool, at time: Double) {
        // Near neutral once (armed), or fired: from now on only `calibrate` moves the
        // neutral pose, so holding a tilt can never become neutral (returning would
        // fire the other way).
        if fired || phase == .armed { return closeAutoNeutral() }
        guard configuration.autoNeutral, let direction = lastGravity else { return }
        holdStill(direction, tilt: toNeutralFrame * direction, at: time)
    }

    private mutating func closeAutoNeutral() {
        autoNeutralOpen = false
        holdStart = nil
    }

    /// Auto-neutral: a pose beyond the release angle held within `stillness` degrees of
    /// where the hold began for `autoNeutralHold` seconds becomes the neutral pose.
    private mutating func holdStill(_ direction: Vector3, tilt: Vector3, at time: Double) {
        // Face down or beyond is no pose to play in.
        guard tilt.z > 0 else { holdStart = nil; return }
        guard let start = holdStart, (direction - start.direction).length <= holdChord else {
            holdStart = (time, direction)
            return
        }
        guard time - start.time >= configuration.autoNeutralHold else { return }
        setNeutral(direction)
        closeAutoNeutral()
        autoCalibrations += 1
    }

    /// `tilt` is the reading's direction in the screen frame with neutral at +z; its x and
    /// y components are the sines of the tilt angles about the screen's two axes.
    private mutating func classify(_ tilt: Vector3) -> Direction? {
        // Over 90° from neutral (e.g. face down) is no pose to play in.
        guard tilt.z > 0 else { return nil }
        let (sx, sy) = (abs(tilt.x), abs(tilt.y))
        switch phase {
        case .armed:
            guard max(sx, sy) >= sinTrigger else { return nil }
            phase = .waitingForNeutral
            // docs/tilt-detection.md: right edge lowered is x < 0, top edge lowered is y < 0.
            if sx >= sy { return tilt.x < 0 ? .right : .left }
            return tilt.y < 0 ? .up : .down
        case .waitingForNeutral:
            if sx < sinRelease && sy < sinRelease { phase = .armed }
            return nil
        }
    }

    private mutating func bump(at time: Double) {
        previous = nil
        holdStart = nil
        if time.isFinite { settleUntil = time + configuration.settleTime }
    }

    /// The sine of an angle in degrees, by a short Taylor series (the core has no libm).
    public static func sine(degrees: Double) -> Double {
        let x = degrees * Double.pi / 180
        var term = x
        var sum = x
        for n in 1...12 {
            term *= -x * x / Double((2 * n) * (2 * n + 1))
            sum += term
        }
        return sum
    }
}
