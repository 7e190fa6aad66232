// SPDX-License-Identifier: GPL-3.0-or-later
/// A player's hand, simulated: turns tilts into the accelerometer samples a tablet
/// would give while someone plays them (docs/tilt-detection.md, "Simulated hand").
///
/// The tablet is held a few degrees off flat, in a pose that drifts slowly; each tilt
/// lowers one edge to 25–35° from flat at human speed (a smooth ramp of 0.15–0.3 s),
/// holds it, and comes back to the pose, which it rests in before the next tilt.
/// Every reading carries sensor noise. The same seed gives the same samples.
public struct SimulatedHand: Sendable {
    public struct Configuration: Sendable, Equatable {
        public var rate = 100.0
        /// Degrees from flat the tilted edge reaches.
        public var tiltAngles = 25.0...35.0
        /// Seconds to tilt out, and again to come back.
        public var rampTimes = 0.15...0.3
        public var holdTimes = 0.1...0.3
        /// Seconds at rest between tilts (the first rest is at least half a second).
        public var restTimes = 0.3...0.6
        /// Largest degrees the holding pose is off flat on each axis.
        public var poseOffset = 4.0
        /// Degrees and seconds of the slow drift of the holding pose.
        public var driftAmplitude = 1.5
        public var driftPeriods = 20.0...40.0
        /// Standard deviation of the noise on each axis, m/s².
        public var noise = 0.04

        public init() {}
    }

    public var configuration: Configuration
    private var random: SeededRandom
    private let pose: (x: Double, y: Double)
    private let drift: (period: Double, phase: Double)

    public init(seed: UInt64, configuration: Configuration = Configuration()) {
        self.configuration = configuration
        var random = SeededRandom(seed: seed)
        let offset = configuration.poseOffset
        pose = (Self.uniform(&random, -offset...offset), Self.uniform(&random, -offset...offset))
        drift = (Self.uniform(&random, configuration.driftPeriods), Self.uniform(&random, 0...360))
        self.random = random
    }

    /// Samples for playing `directions` one after the other, from `start` seconds,
    /// ending at rest.
    public mutating func samples(for directions: [Direction], start: Double = 0) -> [Sample] {
        var samples: [Sample] = []
        var time = start
        let step = 1 / configuration.rate
        func hold(_ duration: Double, angle: (Double) -> (x: Double, y: Double)) {
            let end = time + duration
            let from = time
            while time < end {
                let tilt = angle((time - from) / duration)
                samples.append(reading(at: time, x: tilt.x, y: tilt.y))
                time += step
            }
        }
        hold(max(0.5, uniform(configuration.restTimes))) { _ in self.restingPose(at: time) }
        for direction in directions {
            // Tiles slide towards the lowered edge: right lowers the right edge (x < 0).
            let (sx, sy): (Double, Double) = switch direction {
            case .right: (-1, 0)
            case .left: (1, 0)
            case .up: (0, -1)
            case .down: (0, 1)
            }
            let angle = uniform(configuration.tiltAngles)
            let rest = restingPose(at: time)
            let tilted = (x: sx == 0 ? rest.x : sx * angle, y: sy == 0 ? rest.y : sy * angle)
            hold(uniform(configuration.rampTimes)) { Self.blend(rest, tilted, Self.smoothstep($0)) }
            hold(uniform(configuration.holdTimes)) { _ in tilted }
            let back = restingPose(at: time + configuration.rampTimes.upperBound)
            hold(uniform(configuration.rampTimes)) { Self.blend(tilted, back, Self.smoothstep($0)) }
            hold(uniform(configuration.restTimes)) { _ in self.restingPose(at: time) }
        }
        return samples
    }

    /// The holding pose (degrees off flat about each axis) at `time`.
    func restingPose(at time: Double) -> (x: Double, y: Double) {
        var phase = (time / drift.period * 360 + drift.phase).truncatingRemainder(dividingBy: 360)
        if phase > 180 { phase -= 360 }
        let wobble = configuration.driftAmplitude * TiltDetector.sine(degrees: phase)
        return (pose.x + wobble, pose.y - wobble / 2)
    }

    /// One reading for the device tilted by `x` and `y` degrees (signed as the reading),
    /// with noise.
    private mutating func reading(at time: Double, x: Double, y: Double) -> Sample {
        let direction = Vector3(Self.tangent(degrees: x), Self.tangent(degrees: y), 1)
        let clean = direction * (standardGravity / direction.length)
        return Sample(time: time, x: clean.x + noise(), y: clean.y + noise(), z: clean.z + noise())
    }

    /// Roughly normal noise: the sum of three uniforms, scaled to the configured deviation.
    private mutating func noise() -> Double {
        let sum = uniform(0...1) + uniform(0...1) + uniform(0...1) - 1.5
        return sum * 2 * configuration.noise
    }

    private mutating func uniform(_ range: ClosedRange<Double>) -> Double { Self.uniform(&random, range) }

    private static func uniform(_ random: inout SeededRandom, _ range: ClosedRange<Double>) -> Double {
        range.lowerBound + Double(random.next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
    }

    static func smoothstep(_ t: Double) -> Double {
        let t = min(max(t, 0), 1)
        return t * t * (3 - 2 * t)
    }

    private static func blend(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double), _ t: Double) -> (x: Double, y: Double) {
        (a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t)
    }

    private static func tangent(degrees: Double) -> Double {
        let sine = TiltDetector.sine(degrees: degrees)
        return sine / (1 - sine * sine).squareRoot()
    }
}
