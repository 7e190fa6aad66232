// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TiltCore
import TiltSystem
@testable import TiltDevices

extension MockDeviceTests {
    @Suite struct IIOPolled {
        @Test func sharedScaleAndOffset() throws {
            MockTestbed.shared.reset()
            let mock = MockIIODevice.polled(MockTestbed.nextNumber(), scale: "0.5", offset: "-2")
                .with("in_accel_x_raw", "10").with("in_accel_y_raw", "-20").with("in_accel_z_raw", "2002")
            try mock.plug()
            let source = try mock.source()
            let before = MonotonicClock.now()
            try source.start()
            defer { source.stop() }
            #expect(source.info.buffered == false)
            #expect(source.info.samplingRate == 20)
            // The reader thread hands its samples over through a descriptor, as a buffer would.
            guard case .readable = source.wait else {
                Issue.record("a polled source waits for its reader's descriptor, not \(source.wait)")
                return
            }
            let first = try Pump.run(source, count: 1)
            #expect(first.samples.first?.acceleration == Vector3(4, -11, 1000))
            #expect(try #require(first.samples.first?.time) >= before)

            // At the sampling rate (1/20 s apart), not faster: in 0.3 s, 1 + 0.3 × 20 reads
            // and one already queued, at the most.
            let window = try Pump.run(source, count: 100, timeout: 0.3)
            #expect(window.samples.count <= 8)
            #expect(window.samples.allSatisfy { $0.acceleration == Vector3(4, -11, 1000) })

            // The clock first: a read that sees the new value is stamped after it.
            let changed = MonotonicClock.now()
            MockTestbed.shared.setAttribute(mock.syspath, "in_accel_z_raw", "-1998\n")
            var later: [Sample] = []
            while !later.contains(where: { $0.acceleration.z == -1000 }), MonotonicClock.now() < changed + 5 {
                later += try Pump.run(source, count: 1).samples
            }
            // Read before the change, or after it; once changed, it stays so.
            let fresh = try #require(later.firstIndex { $0.acceleration.z == -1000 })
            #expect(later[..<fresh].allSatisfy { $0.acceleration == Vector3(4, -11, 1000) })
            #expect(later[fresh...].allSatisfy { $0.acceleration == Vector3(4, -11, -1000) })
            #expect(later[fresh].time >= changed)
        }

        @Test func aRateOfZeroMeansTheDefault() throws {
            MockTestbed.shared.reset()
            let mock = MockIIODevice.polled(MockTestbed.nextNumber()).with("sampling_frequency", "0")
            try mock.plug()
            let source = try mock.source()
            try source.start()
            defer { source.stop() }
            #expect(source.info.samplingRate == 50)
        }

        @Test func perAxisScaleAndASysfsMountMatrix() throws {
            MockTestbed.shared.reset()
            var mock = MockIIODevice.polled(MockTestbed.nextNumber(), name: "bmc150_accel")
                .with("in_accel_x_raw", "100").with("in_accel_y_raw", "200").with("in_accel_z_raw", "-300")
                .with("mount_matrix", "0, -1, 0; 1, 0, 0; 0, 0, -1")
            mock.attributes.removeAll { $0.0 == "in_accel_scale" }
            mock = mock.with("in_accel_x_scale", "0.25").with("in_accel_y_scale", "0.5").with("in_accel_z_scale", "2")
            try mock.plug()
            let source = try mock.source()
            try source.start()
            defer { source.stop() }
            #expect(source.info.name == "bmc150_accel")
            // sensor (25, 100, −600); device = (−s.y, s.x, −s.z)
            #expect(try Pump.run(source, count: 1).samples.first?.acceleration == Vector3(-100, 25, 600))
        }

        enum Fallback: String, Sendable, CaseIterable {
            case bufferInUse = "in use by another program"
            case noNode = "cannot enable the buffer"
        }

        /// Scan elements, but the buffer cannot be ours: poll, and leave sysfs as it was.
        @Test(arguments: Fallback.allCases)
        func scanElementsWithoutAUsableBufferArePolled(_ why: Fallback) throws {
            MockTestbed.shared.reset()
            var mock = MockIIODevice.buffered(MockTestbed.nextNumber()).with("in_accel_z_raw", "20")
            switch why {
            case .bufferInUse: mock = mock.with("buffer/enable", "1")
            case .noNode: mock.hasNode = false
            }
            try mock.plug()
            let source = try mock.source()
            // The reader holds the node: the kernel answers another open with EBUSY.
            try Syscall.withFaults({ why == .bufferInUse && $0 == "open IIO node" ? .busy : nil }) {
                try source.start()
            }
            defer { source.stop() }
            #expect(source.info.buffered == false)
            let result = try Pump.run(source, count: 1)
            #expect(!result.samples.isEmpty)
            #expect(result.samples.allSatisfy { $0.acceleration == Vector3(0, 0, 10) })
            #expect(Pump.warnings(result.others).contains { $0.contains(why.rawValue) })
            source.stop()
            #expect(mock.attribute("buffer/enable") == (why == .bufferInUse ? "1" : "0"))
            #expect(mock.attribute("trigger/current_trigger") == "")
            #expect(mock.attribute("current_timestamp_clock") == "realtime")
            #expect(mock.attribute("sampling_frequency") == "10")
        }

        /// iio-sensor-proxy has the buffer: the source polls, from its reader thread
        /// through the reader's descriptor, and writes nothing, so stop has nothing to put back.
        @Test func aBufferOwnedByAnotherProgramIsLeftAlone() throws {
            MockTestbed.shared.reset()
            let mock = MockIIODevice.buffered(MockTestbed.nextNumber())
                .with("buffer/enable", "1").with("trigger/current_trigger", "proxy-trigger")
                .with("current_timestamp_clock", "boottime").with("sampling_frequency", "25")
                .with("scan_elements/in_accel_x_en", "1").with("scan_elements/in_accel_y_en", "1")
                .with("in_accel_x_raw", "6").with("in_accel_y_raw", "-8").with("in_accel_z_raw", "20")
            try mock.plug()
            func sysfs() -> [String: String] {
                Dictionary(uniqueKeysWithValues: mock.attributes.map { ($0.0, mock.attribute($0.0) ?? "(none)") })
            }
            let found = sysfs()
            let source = try mock.source()
            // The reader holds the node: the kernel answers another open with EBUSY.
            try Syscall.withFaults({ $0 == "open IIO node" ? .busy : nil }) {
                try source.start()
            }
            defer { source.stop() }
            #expect(source.info.buffered == false)
            #expect(source.info.samplingRate == 25)   // the other program's rate, read and kept

            guard case .readable(let descriptor) = source.wait else {
                Issue.record("a polled source waits for its reader's descriptor, not \(source.wait)")
                return
            }
            var events: [SensorEvent] = []
            let limit = MonotonicClock.now() + 5
            while !events.contains(where: { if case .samples = $0 { true } else { false } }), MonotonicClock.now() < limit {
                let ready = try Poll.wait([(descriptor, .readable)], timeout: limit - MonotonicClock.now())
                if !ready[0].isEmpty { events += source.service(now: MonotonicClock.now()) }
            }
            let samples: [Sample] = events.flatMap { event -> [Sample] in
                if case .samples(let samples) = event { samples } else { [] }
            }
            #expect(!samples.isEmpty)
            #expect(samples.allSatisfy { $0.acceleration == Vector3(3, -4, 10) })
            #expect(Pump.warnings(events).contains { $0.contains("in use by another program") })
            #expect(sysfs() == found)

            // That stop wakes a reader asleep until its next read is PolledReaderTests'.
            source.stop()
            #expect(source.wait == .idle)
            #expect(sysfs() == found)
        }

        @Test func removalIsReportedAtTheNextRead() throws {
            MockTestbed.shared.reset()
            let mock = MockIIODevice.polled(MockTestbed.nextNumber())
            try mock.plug()
            let source = try mock.source()
            try source.start()
            defer { source.stop() }
            #expect(try Pump.run(source, count: 1).samples.isEmpty == false)
            MockTestbed.shared.unplug(mock.syspath)
            // Samples the reader took before the device went may come first.
            let result = try Pump.run(source, count: 1000)
            #expect(result.samples.allSatisfy { $0.acceleration == Vector3(0, 0, 0) })
            #expect(result.others == [.removed])
            #expect(source.wait == .idle)
        }

        @Test func notAnAccelerometerIsAnError() throws {
            MockTestbed.shared.reset()
            let mock = MockIIODevice(number: MockTestbed.nextNumber(), name: "als",
                                     attributes: [("in_illuminance_raw", "5")], hasNode: false)
            try mock.plug()
            // Discovery would not offer either: made by hand, as for a device that changed since.
            func source(_ id: String) -> IIOSource { IIOSource(deviceID: id, info: SensorInfo(kind: .iio, name: id)) }
            #expect(throws: SensorError("\(mock.id) has no accel_x channel: not an accelerometer")) {
                try source(mock.id).start()
            }
            #expect(throws: SensorError("no IIO device iio:device999")) { try source("iio:device999").start() }
        }
    }
}
