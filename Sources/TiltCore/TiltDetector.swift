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
/// starts must come back to neutral before its first move.
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
        public var screenRotation: ScreenRotation = .none

        public init() {}

        public enum Problem: Error, Equatable, CustomStringConvertible {
            case triggerOutOfRange(Double), releaseOutOfRange(Double), toleranceOutOfRange(Double)
            case rateOutOfRange(Double), settleOutOfRange(Double), mountMatrixSingular

            public var description: String {
                switch self {
                case .triggerOutOfRange(let v): "trigger angle \(v)° must be above 0° and below 90°"
                case .releaseOutOfRange(let v): "release angle \(v)° must be at least 0° and below the trigger angle"
                case .toleranceOutOfRange(let v): "magnitude tolerance \(v) must be above 0 and below 1"
                case .rateOutOfRange(let v): "maximum angular rate \(v)°/s must be above 0"
                case .settleOutOfRange(let v): "settle time \(v) s must be from 0 to 10"
                case .mountMatrixSingular: "mount matrix must be invertible"
                }
            }
        }

        /// Throws the first problem, so a bad configuration is refused as a whole.
        public func validate() throws(Problem) {
            guard triggerAngle > 0, triggerAngle < 90 else { throw .triggerOutOfRange(triggerAngle) }
            guard releaseAngle >= 0, releaseAngle < triggerAngle else { throw .releaseOutOfRange(releaseAngle) }
            guard magnitudeTolerance > 0, magnitudeTolerance < 1 else { throw .toleranceOutOfRange(magnitudeTolerance) }
            guard maxAngularRate > 0, maxAngularRate.isFinite else { throw .rateOutOfRange(maxAngularRate) }
            guard settleTime >= 0, settleTime <= 10 else { throw .settleOutOfRange(settleTime) }
            guard abs(mountMatrix.determinant) > 1e-6 else { throw .mountMatrixSingular }
        }
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

    // Derived once per configuration and neutral pose, so a sample costs a few multiplies.
    private var toNeutralFrame: Matrix3 = .identity
    private var sinTrigger = 0.0
    private var sinRelease = 0.0
    private var magnitudeRange: ClosedRange<Double> = 0...0
    private var maxChordRate = 0.0

    // Bump rejection.
    private var previous: (time: Double, direction: Vector3)?
    private var settleUntil: Double?

    /// The shortest interval the angular rate is measured over, so that a fast
    /// sensor's per-sample noise does not look like a fast turn.
    static let rateWindow = 0.02

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
    }

    /// Takes the current pose as neutral; false if no sample has been accepted yet.
    @discardableResult
    public mutating func calibrate() -> Bool {
        guard let lastGravity else { return false }
        setNeutral(lastGravity)
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
    }

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
        return classify(toNeutralFrame * direction)
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
        if time.isFinite { settleUntil = time + configuration.settleTime }
    }

    /// The sine of an angle in degrees, by a short Taylor series (the core has no libm).
    static func sine(degrees: Double) -> Double {
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
