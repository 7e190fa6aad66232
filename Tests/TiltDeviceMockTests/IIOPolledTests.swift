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
            let source = IIOSource(deviceID: mock.id)
            try source.start()
            defer { source.stop() }
            #expect(source.info.buffered == false)
            #expect(source.info.samplingRate == 20)
            guard case .deadline = source.wait else {
                Issue.record("a polled source waits for a deadline, not \(source.wait)")
                return
            }
            let before = MonotonicClock.now()
            let first = try Pump.run(source, count: 1)
            #expect(first.samples.map(\.acceleration) == [Vector3(4, -11, 1000)])
            // The next read is one period (1/20 s) after the first.
            guard case .deadline(let next) = source.wait else {
                Issue.record("still polled")
                return
            }
            let firstTime = try #require(first.samples.first?.time)
            #expect(firstTime >= before && next > firstTime && next - firstTime <= 0.05 + 1e-3)

            MockTestbed.shared.setAttribute(mock.syspath, "in_accel_z_raw", "-1998\n")
            let second = try Pump.run(source, count: 1)
            #expect(second.samples.map(\.acceleration) == [Vector3(4, -11, -1000)])
            #expect(try #require(second.samples.first?.time) >= next)
        }

        @Test func aRateOfZeroMeansTheDefault() throws {
            MockTestbed.shared.reset()
            let mock = MockIIODevice.polled(MockTestbed.nextNumber()).with("sampling_frequency", "0")
            try mock.plug()
            let source = IIOSource(deviceID: mock.id)
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
            let source = IIOSource(deviceID: mock.id)
            try source.start()
            defer { source.stop() }
            #expect(source.info.name == "bmc150_accel")
            // sensor (25, 100, −600); device = (−s.y, s.x, −s.z)
            #expect(try Pump.run(source, count: 1).samples.map(\.acceleration) == [Vector3(-100, 25, 600)])
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
            let source = IIOSource(deviceID: mock.id)
            try source.start()
            defer { source.stop() }
            #expect(source.info.buffered == false)
            let result = try Pump.run(source, count: 1)
            #expect(result.samples.map(\.acceleration) == [Vector3(0, 0, 10)])
            #expect(Pump.warnings(result.others).contains { $0.contains(why.rawValue) })
            source.stop()
            #expect(mock.attribute("buffer/enable") == (why == .bufferInUse ? "1" : "0"))
            #expect(mock.attribute("trigger/current_trigger") == "")
            #expect(mock.attribute("current_timestamp_clock") == "realtime")
            #expect(mock.attribute("sampling_frequency") == "10")
        }

        @Test func removalIsReportedAtTheNextRead() throws {
            MockTestbed.shared.reset()
            let mock = MockIIODevice.polled(MockTestbed.nextNumber())
            try mock.plug()
            let candidate = try #require(SensorDiscovery.candidates().first { $0.sysname == mock.id })
            let source = candidate.makeSource()
            try source.start()
            defer { source.stop() }
            #expect(try Pump.run(source, count: 1).samples.count == 1)
            MockTestbed.shared.unplug(mock.syspath)
            let result = try Pump.run(source, count: 1)
            #expect(result.samples == [])
            #expect(result.others == [.removed])
            #expect(source.wait == .idle)
        }

        @Test func notAnAccelerometerIsAnError() throws {
            MockTestbed.shared.reset()
            let mock = MockIIODevice(number: MockTestbed.nextNumber(), name: "als",
                                     attributes: [("in_illuminance_raw", "5")], hasNode: false)
            try mock.plug()
            #expect(throws: SensorError("\(mock.id) has no accel_x channel: not an accelerometer")) {
                try IIOSource(deviceID: mock.id).start()
            }
            #expect(throws: SensorError("no IIO device iio:device999")) { try IIOSource(deviceID: "iio:device999").start() }
        }
    }
}
