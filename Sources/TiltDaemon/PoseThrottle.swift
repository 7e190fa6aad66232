// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import TiltCore
import TiltWire

/// Paces one client's `pose` stream (docs/protocol.md): a pose goes out only when it
/// differs visibly from the last one sent, at most `maxRate` times a second, and never
/// behind a backlog: while the client's output is not drained only the latest pose
/// waits, replacing any older one, so a slow client sees the present, not the past.
struct PoseThrottle {
    static let maxRate = 30.0

    private(set) var lastSent: PoseReport?
    private var lastSentAt = -Double.infinity
    private(set) var pending: PoseReport?

    /// The detector's pose now; returns the pose to send now, if any.
    mutating func offer(_ pose: PoseReport, at now: Double, backlogged: Bool) -> PoseReport? {
        if let lastSent, !pose.differsVisibly(from: lastSent) {
            pending = nil
            return nil
        }
        pending = pose
        return due(at: now, backlogged: backlogged)
    }

    /// The waiting pose, if it may go out now.
    mutating func due(at now: Double, backlogged: Bool) -> PoseReport? {
        guard let pose = pending, !backlogged, now - lastSentAt >= 1 / Self.maxRate else { return nil }
        lastSent = pose
        lastSentAt = now
        pending = nil
        return pose
    }
}

extension TiltDetector {
    /// The pose a gauge shows, from the last accepted sample; nil before the first.
    var poseReport: PoseReport? {
        guard let tilt = lastTilt else { return nil }
        // tilt.x and tilt.y are the sines of the angles, negative towards right and up.
        let degrees = 180 / Double.pi
        return PoseReport(x: -asin(max(-1, min(1, tilt.x))) * degrees, y: -asin(max(-1, min(1, tilt.y))) * degrees,
                          armed: phase == .armed, trigger: configuration.triggerAngle,
                          release: configuration.releaseAngle)
    }
}
