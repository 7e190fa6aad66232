// SPDX-License-Identifier: GPL-3.0-or-later
/// The tilt detector's view of the tablet, for a live gauge (docs/protocol.md, `pose`).
///
/// Angles are in degrees in the screen's frame, measured from the neutral pose (after
/// the mount matrix and the screen rotation): `x` is positive when the right edge is
/// lowered (tiles would slide right), `y` when the top edge is lowered (tiles slide up).
public struct PoseReport: Equatable, Sendable {
    public var x: Double
    public var y: Double
    /// Whether the next tilt past the trigger angle fires (false: waiting to come back
    /// under the release angle).
    public var armed: Bool
    public var trigger: Double
    public var release: Double

    public init(x: Double, y: Double, armed: Bool, trigger: Double, release: Double) {
        self.x = x
        self.y = y
        self.armed = armed
        self.trigger = trigger
        self.release = release
    }

    /// The smallest change of either angle worth a new message.
    public static let minimumChange = 0.5

    /// Whether a gauge showing `self` should be updated to `other`.
    public func differsVisibly(from other: PoseReport) -> Bool {
        abs(x - other.x) >= Self.minimumChange || abs(y - other.y) >= Self.minimumChange
            || armed != other.armed || trigger != other.trigger || release != other.release
    }

    /// The larger of the two angles: what is compared with the trigger and release.
    public var magnitude: Double { max(abs(x), abs(y)) }
}
