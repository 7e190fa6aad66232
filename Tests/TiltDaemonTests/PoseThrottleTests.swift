// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCore
@testable import TiltDaemon
import TiltWire

/// One client's `pose` stream paced (docs/protocol.md): visible changes only, at most
/// `maxRate` a second, and only the latest pose waiting behind a backlog.
@Suite struct PoseThrottleTests {
    static func pose(_ x: Double, armed: Bool = false) -> PoseReport {
        PoseReport(x: x, y: 0, armed: armed, trigger: 20, release: 10)
    }

    static let interval = 1 / PoseThrottle.maxRate

    @Test func theFirstPoseGoesOutAtOnce() {
        var throttle = PoseThrottle()
        #expect(throttle.offer(Self.pose(5), at: 100, backlogged: false) == Self.pose(5))
        #expect(throttle.lastSent == Self.pose(5))
        #expect(throttle.pending == nil)
    }

    /// A change too small to see is dropped, and drops a visible one still waiting.
    @Test func aPoseThatDoesNotDifferVisiblyIsNotSent() {
        var throttle = PoseThrottle()
        _ = throttle.offer(Self.pose(5), at: 100, backlogged: false)
        let tiny = Self.pose(5 + PoseReport.minimumChange / 2)
        #expect(throttle.offer(tiny, at: 101, backlogged: false) == nil)
        #expect(throttle.pending == nil)
        #expect(throttle.offer(Self.pose(9), at: 100 + Self.interval / 2, backlogged: false) == nil)
        #expect(throttle.pending == Self.pose(9))
        #expect(throttle.offer(Self.pose(5), at: 100 + Self.interval / 2, backlogged: false) == nil)
        #expect(throttle.pending == nil, "back to what the client has: nothing to send")
        #expect(throttle.offer(Self.pose(5, armed: true), at: 101, backlogged: false) == Self.pose(5, armed: true),
                "arming is a visible change whatever the angles")
    }

    @Test func posesGoOutAtMostMaxRateTimesASecond() {
        var throttle = PoseThrottle()
        _ = throttle.offer(Self.pose(0), at: 0, backlogged: false)
        #expect(throttle.offer(Self.pose(10), at: Self.interval / 2, backlogged: false) == nil)
        #expect(throttle.due(at: Self.interval / 2, backlogged: false) == nil)
        #expect(throttle.due(at: Self.interval, backlogged: false) == Self.pose(10))
        #expect(throttle.pending == nil)
        #expect(throttle.due(at: 200, backlogged: false) == nil, "nothing waits once sent")
    }

    /// While the client's output is not drained, a newer pose replaces the waiting one.
    @Test func behindABacklogOnlyTheLatestPoseWaits() {
        var throttle = PoseThrottle()
        _ = throttle.offer(Self.pose(0), at: 100, backlogged: false)
        #expect(throttle.offer(Self.pose(10), at: 101, backlogged: true) == nil)
        #expect(throttle.offer(Self.pose(20), at: 102, backlogged: true) == nil)
        #expect(throttle.pending == Self.pose(20))
        #expect(throttle.due(at: 103, backlogged: true) == nil)
        #expect(throttle.due(at: 103, backlogged: false) == Self.pose(20))
        #expect(throttle.lastSent == Self.pose(20))
    }
}
