// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import TiltDevices

/// Buffered samples' times: the buffer's stamps while they are usable, else arrival times.
@Suite struct ScanTimesTests {
    static func times(monotonic: Bool = true) -> ScanTimes {
        ScanTimes(monotonicStamps: monotonic, kernelBufferScans: 64, samplingRate: 100)
    }

    @Test func goodStampsAreTheSampleTimes() {
        var times = Self.times()
        #expect(times.time(stamp: 9.99, readAt: 10).time == 9.99)
        #expect(times.time(stamp: 10.00, readAt: 10.01).time == 10.00)
        #expect(times.time(stamp: 10.04, readAt: 10.0).time == 10.04)   // within the lead
        #expect(!times.arrivalTimes)
    }

    @Test(arguments: [
        (9.99, 10.5, "do not advance (9.99 s twice)"),
        (9.5, 10.5, "go back (9.5 s after 9.99 s)"),
        (11.0, 10.5, "are ahead of the clock (11 s at 10.5 s)"),
        (10.0, 12.5, "are far behind the clock (10 s at 12.5 s)"),
    ] as [(Double, Double, String)])
    func badStampsSwitchToArrivalTimesForGood(stamp: Double, readAt: Double, problem: String) {
        var times = Self.times()
        _ = times.time(stamp: 9.99, readAt: 10)
        let bad = times.time(stamp: stamp, readAt: readAt)
        #expect(bad.time == readAt)
        #expect(bad.problem == problem)
        #expect(times.arrivalTimes)
        let next = times.time(stamp: readAt + 0.01, readAt: readAt + 0.02)
        #expect(next.time == readAt + 0.02)
        #expect(next.problem == nil)   // said once
    }

    /// kxcjk-1013 under a trigger not its own stamps every scan 0.
    @Test func stampsOfZeroAreFarBehind() {
        var times = Self.times()
        #expect(times.time(stamp: 0, readAt: 10) == (10, "are far behind the clock (0 s at 10 s)"))
        #expect(times.time(stamp: 0, readAt: 10.01) == (10.01, nil))
    }

    @Test func withoutMonotonicStampsOrAStampTheReadTimeCountsAndNeverGoesBack() {
        var times = Self.times(monotonic: false)
        #expect(times.time(stamp: 5, readAt: 10).time == 10)
        #expect(times.time(stamp: nil, readAt: 9).time == 10)
        var stamped = Self.times()
        #expect(stamped.time(stamp: nil, readAt: 3).time == 3)
        #expect(stamped.time(stamp: 2.5, readAt: 3.1).time == 3)   // a stamp before the last time handed out
    }
}
