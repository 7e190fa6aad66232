// SPDX-License-Identifier: GPL-3.0-or-later
/// One accelerometer reading: the reaction to gravity (plus any motion) in m/s²,
/// in the device frame of docs/tilt-detection.md (x right edge, y top edge, z out of the screen),
/// at `time` seconds on the source's own clock.
public struct Sample: Equatable, Sendable, CustomStringConvertible {
    public var time: Double
    public var acceleration: Vector3

    public init(time: Double, acceleration: Vector3) {
        self.time = time
        self.acceleration = acceleration
    }

    public init(time: Double, x: Double, y: Double, z: Double) {
        self.init(time: time, acceleration: Vector3(x, y, z))
    }

    public var description: String { "t=\(time) \(acceleration)" }
}

/// Standard gravity, m/s².
public let standardGravity = 9.80665
