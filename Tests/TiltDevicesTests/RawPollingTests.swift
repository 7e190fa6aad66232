// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCore
import TiltSystem
@testable import TiltDevices

/// What a polled source makes of its reader's outcomes, with reads that need no device.
@Suite struct RawPollingTests {
    /// Collects until polling ends, or 5 s passed.
    static func run(_ polling: RawPolling) throws -> (events: [SensorEvent], end: CaptureEnd?) {
        var events: [SensorEvent] = []
        let limit = MonotonicClock.now() + 5
        while MonotonicClock.now() < limit {
            _ = try Poll.wait([(polling.reader.ready.descriptor, .readable)], timeout: limit - MonotonicClock.now())
            let turn = polling.service(now: MonotonicClock.now())
            events += turn.events
            if let end = turn.end { return (events, end) }
        }
        return (events, nil)
    }

    @Test func pollsAtTheDriversRateClampedOrAtTheRateAskedFor() {
        #expect(RawPolling.rate(deviceRate: 12.5, minimum: 100) == 12.5)
        #expect(RawPolling.rate(deviceRate: 1600, minimum: 50) == 100)
        #expect(RawPolling.rate(deviceRate: 0.5, minimum: 50) == 1)
        #expect(RawPolling.rate(deviceRate: nil, minimum: 50) == 50)
        #expect(RawPolling.rate(deviceRate: nil, minimum: 100) == 100)
    }

    @Test func failedReadsAreSaidOnceAndEndItAfterTheLimit() throws {
        let polling = try RawPolling(rate: 1000, deviceID: "iio:device0") { () throws(Errno) -> Sample in throw Errno.ioError }
        defer { polling.stop() }
        #expect(polling.interval == 0.001)
        let (events, end) = try Self.run(polling)
        #expect(events.map { if case .warning(let line) = $0 { line } else { "\($0)" } }
                == ["iio:device0: cannot read in_accel_*_raw: \(Errno.ioError)"])
        #expect(end == .failed("iio:device0: reading in_accel_*_raw failed \(RawPolling.failureLimit) times: \(Errno.ioError)"))
    }

    @Test(arguments: [(Errno.busy, false, CaptureEnd.busy), (Errno.noSuchDevice, false, .removed),
                      (Errno.ioError, true, .removed)])
    func aBusyOrVanishedDeviceEndsItAtOnce(error: Errno, gone: Bool, expected: CaptureEnd) throws {
        let polling = try RawPolling(rate: 1000, deviceID: "iio:device0",
                                     read: { () throws(Errno) -> Sample in throw error }, isGone: { gone })
        defer { polling.stop() }
        let (events, end) = try Self.run(polling)
        #expect(events.isEmpty)
        #expect(end == expected)
    }

    @Test func samplesComeThrough() throws {
        let polling = try RawPolling(rate: 1000, deviceID: "iio:device0") { () throws(Errno) -> Sample in
            Sample(time: MonotonicClock.now(), acceleration: Vector3(0, 0, 9.8))
        }
        defer { polling.stop() }
        _ = try Poll.wait([(polling.reader.ready.descriptor, .readable)], timeout: 5)
        let turn = polling.service(now: MonotonicClock.now())
        let events = turn.events
        #expect(turn.end == nil)
        guard case .samples(let samples)? = events.first else { Issue.record("no samples: \(events)"); return }
        #expect(events.count == 1)
        #expect(samples.allSatisfy { $0.acceleration == Vector3(0, 0, 9.8) })
    }
}
