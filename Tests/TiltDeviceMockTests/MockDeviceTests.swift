// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TiltCore
import TiltDevices
import TiltSystem

/// The device tests: real libudev, libiio and libevdev against umockdev's fake
/// devices. They run only under umockdev's preload (UmockdevRunTests starts that
/// run), one at a time: there is one testbed per process.
@Suite(.serialized, .enabled(if: MockTestbed.isActive, "needs umockdev's preload; UmockdevRunTests runs it"))
struct MockDeviceTests {}

/// Services a source the way a loop does, until enough samples arrived.
enum Pump {
    struct Result {
        var samples: [Sample] = []
        var others: [SensorEvent] = []
    }

    /// Waits on the source's `wait` and services it until `count` samples, a
    /// terminal event (removed, failed, ended) or `timeout` seconds.
    static func run(_ source: SensorSource, count: Int, timeout: Double = 5) throws -> Result {
        var result = Result()
        let limit = MonotonicClock.now() + timeout
        while result.samples.count < count, MonotonicClock.now() < limit {
            let readiness = try SensorPoll.wait(source.wait, until: limit)
            guard readiness.sourceDue else { continue }
            for event in source.service(now: MonotonicClock.now()) {
                switch event {
                case .samples(let samples): result.samples += samples
                case .removed, .failed, .ended, .busy:
                    result.others.append(event)
                    return result
                case .warning: result.others.append(event)
                }
            }
        }
        return result
    }

    /// Only the warnings' texts.
    static func warnings(_ events: [SensorEvent]) -> [String] {
        events.compactMap { if case .warning(let text) = $0 { text } else { nil } }
    }
}
