// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TiltCore
import TiltSystem
@testable import TiltDevices

/// What the I2C accelerometers' drivers do differently (the driver lab shows them on
/// the real drivers: Tests/DriverLab): two axes, unsigned samples with an offset, the
/// rate's attributes named every way, stamps that do not move, no trigger, a buffer
/// held by another program.
extension MockDeviceTests {
    @Suite struct IIOChips {
        /// MXC6255: x and y only. Tilt needs the screen's plane; z is what 1 g leaves.
        @Test func aTwoAxisChipGivesZFromXAndY() throws {
            MockTestbed.shared.reset()
            var mock = MockIIODevice.polled(MockTestbed.nextNumber(), name: "mxc6255", scale: "0.153229")
                .with("in_accel_x_raw", "-32").with("in_accel_y_raw", "0")
            mock.attributes.removeAll { $0.0 == "in_accel_z_raw" || $0.0 == "sampling_frequency" }
            try mock.plug()
            let source = try mock.source()
            try source.start()
            defer { source.stop() }
            let sample = try #require(try Pump.run(source, count: 1).samples.first)
            let x = -32 * 0.153229
            #expect(sample.acceleration.x == x)
            #expect(sample.acceleration.y == 0)
            #expect(abs(sample.acceleration.length - standardGravity) < 1e-9)
            #expect(sample.acceleration.z > 0, "screen up")
            // No rate to read: polled at the rate asked for (SamplingRate.minimum by default).
            #expect(source.info.samplingRate == SamplingRate.minimum)

            // Beyond 1 g in the plane (a knock): z is 0, and the magnitude shows the knock.
            MockTestbed.shared.setAttribute(mock.syspath, "in_accel_x_raw", "-100\n")
            var later: [Sample] = []
            let limit = MonotonicClock.now() + 5
            while !later.contains(where: { $0.acceleration.x == -100 * 0.153229 }), MonotonicClock.now() < limit {
                later += try Pump.run(source, count: 1).samples
            }
            let knock = try #require(later.last)
            #expect(knock.acceleration.z == 0)
            #expect(knock.acceleration.length > 1.5 * standardGravity)
        }

        @Test func aTwoAxisPoseTiltsTheDetector() {
            // 25° about y (the right edge lowered) as a two-axis chip sees it.
            let x = -standardGravity * TiltDetector.sine(degrees: 25)
            let z = IIOAxes.planeZ(x, 0)
            var detector = TiltDetector()
            _ = detector.process(Sample(time: 0, x: 0, y: 0, z: IIOAxes.planeZ(0, 0)))
            #expect(detector.process(Sample(time: 1, x: x, y: 0, z: z)) == .right)
        }

        /// kxsd9: `be:u12/16>>4`, offset −2048 shared, scale shared: 2048 is 0.
        @Test func unsignedBigEndianSamplesWithAnOffset() throws {
            MockTestbed.shared.reset()
            let mock = MockIIODevice.buffered(MockTestbed.nextNumber(), name: "kxsd9", type: "be:u12/16>>4")
                .with("in_accel_offset", "-2048").with("in_accel_scale", "0.011978")
            try mock.plug()
            let source = try mock.source()
            try source.start()
            defer { source.stop() }
            #expect(source.info.buffered == true)
            // Three BE 16-bit words (value << 4, the low nibble noise), 2 bytes of padding,
            // then the s64 timestamp at 8.
            func word(_ value: UInt16) -> [UInt8] { let w = value << 4 | 0xA; return [UInt8(w >> 8), UInt8(w & 0xFF)] }
            let stamp = Int64((MonotonicClock.now() - 0.05) * 1e9)
            let scan = word(2048 + 100) + word(2048 - 2048) + word(2048 + 2047) + [0, 0]
                + withUnsafeBytes(of: stamp.littleEndian, Array.init)
            try MockTestbed.shared.nodeDescriptor(mock.node).writeAll(scan)
            let sample = try #require(try Pump.run(source, count: 1).samples.first)
            #expect(sample.acceleration == Vector3(100 * 0.011978, -2048 * 0.011978, 2047 * 0.011978))
            #expect(sample.time == Double(stamp) / 1e9)
        }

        /// Per-axis offsets (and scales) beside shared ones: each axis its own.
        @Test func perAxisOffsets() throws {
            MockTestbed.shared.reset()
            var mock = MockIIODevice.polled(MockTestbed.nextNumber(), name: "lis3dh")
                .with("in_accel_x_raw", "10").with("in_accel_y_raw", "20").with("in_accel_z_raw", "30")
                .with("in_accel_x_offset", "1").with("in_accel_y_offset", "-2").with("in_accel_z_offset", "3")
                .with("in_accel_x_scale", "2").with("in_accel_y_scale", "3").with("in_accel_z_scale", "4")
            mock.attributes.removeAll { $0.0 == "in_accel_offset" || $0.0 == "in_accel_scale" }
            try mock.plug()
            let source = try mock.source()
            try source.start()
            defer { source.stop() }
            #expect(try Pump.run(source, count: 1).samples.first?.acceleration == Vector3(22, 54, 132))
        }

        enum RateNaming: String, Sendable, CaseIterable {
            /// lis3dh, the HID sensor hub.
            case deviceRateDeviceList
            /// mma8452, bmc150: the rate per channel, the list per device.
            case channelRateDeviceList
            /// kxcjk-1013, bma400.
            case channelRateChannelList
            case deviceRateChannelList

            var attributes: [(String, String)] {
                let list = "1.56 6.25 12.5 50 100 200 400 800"
                return switch self {
                case .deviceRateDeviceList: [("sampling_frequency", "6.25"), ("sampling_frequency_available", list)]
                case .channelRateDeviceList: [("in_accel_sampling_frequency", "6.25"), ("sampling_frequency_available", list)]
                case .channelRateChannelList:
                    [("in_accel_sampling_frequency", "6.25"), ("in_accel_sampling_frequency_available", list)]
                case .deviceRateChannelList:
                    [("sampling_frequency", "6.25"), ("in_accel_sampling_frequency_available", list)]
                }
            }

            var rateFile: String { attributes[0].0 }
        }

        /// Whichever names the driver uses, the rate goes up to what a player needs, and back.
        @Test(arguments: RateNaming.allCases)
        func theRateIsRaisedWhateverItsAttributesAreNamed(_ naming: RateNaming) throws {
            MockTestbed.shared.reset()
            var mock = MockIIODevice.polled(MockTestbed.nextNumber(), name: "mma8452")
            mock.attributes.removeAll { $0.0 == "sampling_frequency" }
            mock.attributes += naming.attributes
            try mock.plug()
            let source = try mock.source()
            source.setMinimumRate(SamplingRate.playing)
            try source.start()
            #expect(source.info.samplingRate == 100)
            #expect(mock.attribute(naming.rateFile) == "100")
            source.stop()
            #expect(mock.attribute(naming.rateFile) == "6.25")
        }

        /// kxcjk-1013 under a trigger not its own stamps every scan 0: the samples get
        /// the time they arrive, on the clock the detector's settle and hold times need,
        /// with one line in the log.
        @Test func timestampsThatDoNotMoveAreReplacedByArrivalTimes() throws {
            MockTestbed.shared.reset()
            let mock = MockIIODevice.buffered(MockTestbed.nextNumber(), name: "kxcjk1013")
            try mock.plug()
            let source = try mock.source()
            try source.start()
            defer { source.stop() }
            let node = try MockTestbed.shared.nodeDescriptor(mock.node)
            var samples: [Sample] = []
            var warnings: [String] = []
            for i in 0..<3 {
                let before = MonotonicClock.now()
                try node.writeAll(ScanBytes.garbageUpper(Int16(i), 0, 1000, timestamp: 0))
                let result = try Pump.run(source, count: 1)
                let sample = try #require(result.samples.first)
                #expect(sample.time >= before && sample.time <= MonotonicClock.now())
                samples += result.samples
                warnings += Pump.warnings(result.others)
            }
            #expect(samples.map(\.acceleration.x) == [0, 0.5, 1])
            #expect(zip(samples, samples.dropFirst()).allSatisfy { $0.time <= $1.time })
            #expect(warnings.count == 1)
            #expect(warnings.first?.contains("timestamps are far behind the clock") == true, "\(warnings)")
        }

        @Test func timestampsThatGoBackAreReplacedToo() throws {
            MockTestbed.shared.reset()
            let mock = MockIIODevice.buffered(MockTestbed.nextNumber())
            try mock.plug()
            let source = try mock.source()
            try source.start()
            defer { source.stop() }
            let node = try MockTestbed.shared.nodeDescriptor(mock.node)
            let stamp = Int64((MonotonicClock.now() - 0.2) * 1e9)
            try node.writeAll(ScanBytes.garbageUpper(1, 0, 1000, timestamp: stamp))
            let first = try Pump.run(source, count: 1)
            #expect(first.samples.first?.time == Double(stamp) / 1e9)
            try node.writeAll(ScanBytes.garbageUpper(2, 0, 1000, timestamp: stamp - 50_000_000))
            let second = try Pump.run(source, count: 1)
            #expect(try #require(second.samples.first?.time) > Double(stamp) / 1e9)
            #expect(Pump.warnings(second.others).contains { $0.contains("go back") })
        }

        /// An I2C chip without its interrupt wired registers no trigger: scan elements,
        /// but nothing would fire. No buffer is tried (nothing written, nothing logged).
        @Test func noBufferIsTriedWithoutATrigger() throws {
            MockTestbed.shared.reset()
            var mock = MockIIODevice.buffered(MockTestbed.nextNumber(), name: "bmc150_accel").with("in_accel_z_raw", "20")
            mock.hasTrigger = false
            try mock.plug()
            let source = try mock.source()
            try source.start()
            defer { source.stop() }
            #expect(source.info.buffered == false)
            let result = try Pump.run(source, count: 1)
            #expect(result.samples.first?.acceleration == Vector3(0, 0, 10))
            #expect(Pump.warnings(result.others) == [], "no buffer attempt, so nothing to say")
            #expect(mock.attribute("buffer/enable") == "0")
            #expect(mock.attribute("current_timestamp_clock") == "realtime")
            #expect(mock.attribute("scan_elements/in_accel_x_en") == "0")
            // The rate is raised for polling all the same, and put back.
            #expect(mock.attribute("sampling_frequency") == "50")
            source.stop()
            #expect(mock.attribute("sampling_frequency") == "10")
        }

        /// bmc150, kxcjk-1013: while another program has the buffer, raw reads fail with
        /// EBUSY. The source does not start, says busy, and changes nothing; once the
        /// other program lets go it starts as usual.
        @Test func aHeldSensorIsBusyThenFree() throws {
            MockTestbed.shared.reset()
            let mock = MockIIODevice.buffered(MockTestbed.nextNumber(), name: "bmc150_accel")
                .with("buffer/enable", "1").with("trigger/current_trigger", "bmc150_accel-dev1")
                .with("in_accel_z_raw", "20")
            try mock.plug()
            func sysfs() -> [String: String] {
                Dictionary(uniqueKeysWithValues: mock.attributes.map { ($0.0, mock.attribute($0.0) ?? "(none)") })
            }
            let found = sysfs()
            let source = try mock.source()
            Syscall.withFaults({ $0 == "open IIO node" || $0 == "read IIO raw" ? Errno.busy : nil }) {
                do throws(SensorError) {
                    try source.start()
                    Issue.record("started while the sensor is held")
                } catch {
                    #expect(error.kind == .busy)
                    #expect(error.message.contains("in use by another program"), "\(error)")
                    #expect(error.message.contains("tilting resumes when it is free"), "\(error)")
                }
            }
            #expect(source.wait == .idle)
            #expect(sysfs() == found, "nothing written while it is held")

            // The other program disables its buffer and closes the node.
            MockTestbed.shared.setAttribute(mock.syspath, "buffer/enable", "0\n")
            MockTestbed.shared.setAttribute(mock.syspath, "trigger/current_trigger", "\n")
            try source.start()
            defer { source.stop() }
            #expect(source.info.buffered == true)
            let node = try MockTestbed.shared.nodeDescriptor(mock.node)
            try node.writeAll(ScanBytes.garbageUpper(0, 0, 20, timestamp: Int64(MonotonicClock.now() * 1e9)))
            #expect(try Pump.run(source, count: 1).samples.first?.acceleration == Vector3(0, 0, 10))
        }

        /// Another program enables the buffer while we poll: the reads fail with EBUSY,
        /// which is `busy`, not a lost sensor.
        @Test func aSensorTakenWhilePolledIsBusy() throws {
            MockTestbed.shared.reset()
            let mock = MockIIODevice.polled(MockTestbed.nextNumber(), name: "kxcjk1013")
            try mock.plug()
            let source = try mock.source()
            // The reader thread starts under these faults; the other program takes the
            // buffer once the first sample is in.
            let taken = Locked(false)
            try Syscall.withFaults({ $0 == "read IIO raw" && taken.withLock { $0 } ? Errno.busy : nil }) {
                try source.start()
            }
            defer { source.stop() }
            #expect(try Pump.run(source, count: 1).samples.isEmpty == false)
            taken.withLock { $0 = true }
            let result = try Pump.run(source, count: 1000)
            guard case .busy(let message)? = result.others.last else {
                Issue.record("expected busy, got \(result.others)")
                return
            }
            #expect(message.contains("in use by another program"))
            #expect(source.wait == .idle)
        }
    }
}
