// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TiltCore
import TiltSystem
@testable import TiltDevices

extension MockDeviceTests {
    @Suite struct Evdev {
        static let g = standardGravity

        static func expectClose(_ actual: [Vector3], _ expected: [Vector3], sourceLocation: SourceLocation = #_sourceLocation) {
            let close = actual.count == expected.count && zip(actual, expected).allSatisfy { ($0 - $1).length < 1e-9 }
            #expect(close, "\(actual) is not \(expected)", sourceLocation: sourceLocation)
        }

        @Test func samplesPerReportAndResyncAfterSynDropped() throws {
            MockTestbed.shared.reset()
            let mock = MockEvdevDevice(number: MockTestbed.nextNumber())
            try mock.plug()
            let candidate = try #require(SensorDiscovery.candidates().first { $0.sysname == "event\(mock.number)" })
            #expect(candidate.info.name == "Mock Accelerometer")
            let source = candidate.makeSource()
            try source.start()
            defer { source.stop() }
            guard case .readable = source.wait else {
                Issue.record("an evdev source waits for its node, not \(source.wait)")
                return
            }
            let node = try MockTestbed.shared.nodeDescriptor(mock.node)
            let before = MonotonicClock.now()
            try node.writeAll(MockEvdevDevice.report(x: 128, y: -64, z: 256) + MockEvdevDevice.report(z: 200))
            let first = try Pump.run(source, count: 2)
            // 256 units per g.
            Self.expectClose(first.samples.map(\.acceleration), [Vector3(Self.g / 2, -Self.g / 4, Self.g),
                                                                  Vector3(Self.g / 2, -Self.g / 4, Self.g * 200 / 256)])
            // The mock cannot switch the clock (EVIOCSCLOCKID), so samples carry our read time.
            #expect(first.samples.allSatisfy { $0.time >= before && $0.time <= MonotonicClock.now() })
            #expect(first.samples.map(\.time) == first.samples.map(\.time).sorted())

            // Events were lost: what follows up to the next SYN_REPORT is stale; the
            // state is read back from the device (EVIOCGABS: 10, −20, 256).
            try node.writeAll(MockEvdevDevice.report(x: 1) + MockEvdevDevice.dropped + MockEvdevDevice.report(x: 2))
            let resynced = try Pump.run(source, count: 2, timeout: 0.5)
            Self.expectClose(resynced.samples.map(\.acceleration),
                             [Vector3(Self.g / 256, -Self.g / 4, Self.g * 200 / 256),
                              Vector3(Self.g * 10 / 256, -Self.g * 20 / 256, Self.g)])
            // And the stream goes on from the resynced state.
            try node.writeAll(MockEvdevDevice.report(y: 32))
            Self.expectClose(try Pump.run(source, count: 1).samples.map(\.acceleration),
                             [Vector3(Self.g * 10 / 256, Self.g / 8, Self.g)])
        }

        @Test func resolutionZeroTakesTheRangeAsTwoG() throws {
            MockTestbed.shared.reset()
            var mock = MockEvdevDevice(number: MockTestbed.nextNumber())
            mock.resolution = 0
            mock.minimum = -2048
            mock.maximum = 2047
            try mock.plug()
            let source = EvdevSource(path: mock.node)
            try source.start()
            defer { source.stop() }
            #expect(source.info.name == "Mock Accelerometer")
            try MockTestbed.shared.nodeDescriptor(mock.node).writeAll(MockEvdevDevice.report(x: -1024, y: 0, z: 1024))
            let result = try Pump.run(source, count: 1)
            Self.expectClose(result.samples.map(\.acceleration), [Vector3(-Self.g, 0, Self.g)])
            #expect(Pump.warnings(result.others)
                    == ["\(mock.node): axis resolution 0; taking the axis range as ±2 g until it rests"])
        }

        @Test func theMountMatrixFromUdevIsApplied() throws {
            MockTestbed.shared.reset()
            var mock = MockEvdevDevice(number: MockTestbed.nextNumber())
            mock.properties.append(("ACCEL_MOUNT_MATRIX", "0, 1, 0; 0, 0, -1; -1, 0, 0"))
            try mock.plug()
            let source = try #require(SensorDiscovery.resolve(.evdev(mock.node)))
            try source.start()
            defer { source.stop() }
            try MockTestbed.shared.nodeDescriptor(mock.node).writeAll(MockEvdevDevice.report(x: 256, y: 512, z: -256))
            // sensor (g, 2g, −g); device = (s.y, −s.z, −s.x)
            Self.expectClose(try Pump.run(source, count: 1).samples.map(\.acceleration),
                             [Vector3(2 * Self.g, Self.g, -Self.g)])
        }

        @Test func removalWhileStreamingIsAnEvent() throws {
            MockTestbed.shared.reset()
            let monitor = try HotplugMonitor()
            let mock = MockEvdevDevice(number: MockTestbed.nextNumber())
            try mock.plug()
            let source = try #require(SensorDiscovery.resolve(.evdev(nil)))
            try source.start()
            defer { source.stop() }
            let node = try MockTestbed.shared.nodeDescriptor(mock.node)
            try node.writeAll(MockEvdevDevice.report(x: 0, y: 0, z: 256))
            #expect(try Pump.run(source, count: 1).samples.count == 1)
            _ = monitor.receive()

            MockTestbed.shared.unplug(mock.syspath)
            let readiness = try SensorPoll.wait(source.wait, others: [monitor.descriptor], until: MonotonicClock.now() + 5)
            #expect(readiness.readable == [monitor.descriptor])
            let removed = monitor.receive().compactMap { if case .removed(let c) = $0 { c } else { nil } }
            #expect(removed.map(\.info.deviceNode) == [mock.node])
            #expect(removed.map(\.info.kind) == [.evdev])
            #expect(source.service(now: MonotonicClock.now()) == [.removed])
            #expect(source.wait == .idle)
            #expect(source.service(now: MonotonicClock.now()) == [])
        }

        /// hid-wiimote's accelerometer node: ABS_RX/RY/RZ alone, -500 to 500, no resolution,
        /// no INPUT_PROP_ACCELEROMETER. The source reads those axes, takes ±2 g until the
        /// remote rests, then 1 g from gravity (about 104 units on a real remote).
        @Test func aWiiRemoteIsReadOnItsRotationalAxesAndCalibratedByGravity() throws {
            MockTestbed.shared.reset()
            var mock = MockEvdevDevice(number: MockTestbed.nextNumber(), name: "Nintendo Wii Remote Accelerometer",
                                       resolution: 0, minimum: -500, maximum: 500, state: (0, 0, 104),
                                       accelerometerProperty: false, axisBits: 0b111000, bus: "0005")
            mock.ids = ("057e", "0306")
            try mock.plug()
            let source = try #require(SensorDiscovery.resolve(.evdev(mock.node)))
            try source.start()
            defer { source.stop() }
            let node = try MockTestbed.shared.nodeDescriptor(mock.node)
            // Moving: the range's guess, 250 units per g.
            try node.writeAll(MockEvdevDevice.rotationalReport(0, 52, 0) + MockEvdevDevice.report(x: 999, y: 999, z: 999))
            let moving = try Pump.run(source, count: 2)
            Self.expectClose(moving.samples.map(\.acceleration), [Vector3(0, Self.g * 52 / 250, 0),
                                                                   Vector3(0, Self.g * 52 / 250, 0)])
            #expect(Pump.warnings(moving.others) == [
                "\(mock.node): axis resolution 0; taking the axis range as ±2 g until it rests",
                "\(mock.node) does not say it is an accelerometer (INPUT_PROP_ACCELEROMETER)"])
            // At rest, face up: one reading, then nothing (evdev sends no unchanged
            // values) until the next, which tells the rest was held: 104 on Z is 1 g.
            try node.writeAll(MockEvdevDevice.rotationalReport(0, 0, 104))
            let rest = try Pump.run(source, count: 1)
            #expect(rest.samples.count == 1 && Pump.warnings(rest.others).isEmpty)
            Thread.sleep(forTimeInterval: GravityCalibration.hold + 0.05)
            try node.writeAll(MockEvdevDevice.rotationalReport(0, 0, 104) + MockEvdevDevice.rotationalReport(52, 0, 90))
            let calibrated = try Pump.run(source, count: 2)
            Self.expectClose(calibrated.samples.map(\.acceleration),
                             [Vector3(0, 0, Self.g), Vector3(Self.g / 2, 0, Self.g * 90 / 104)])
            #expect(Pump.warnings(calibrated.others) == ["\(mock.node): calibrated by gravity at rest: 104 units per g"])
        }

        @Test func aGyroscopeAloneIsRefused() throws {
            MockTestbed.shared.reset()
            let mock = MockEvdevDevice(number: MockTestbed.nextNumber(), name: "Nintendo Wii Remote Motion Plus",
                                       resolution: 0, minimum: -500, maximum: 500, accelerometerProperty: false,
                                       axisBits: 0b111000, bus: "0005")
            try mock.plug()
            #expect(throws: SensorError.self) { try EvdevSource(path: mock.node).start() }
        }

        @Test func aDeviceWithoutAxesIsRefused() throws {
            MockTestbed.shared.reset()
            var mock = MockEvdevDevice(number: MockTestbed.nextNumber())
            mock.axisBits = 0b011   // ABS_X and ABS_Y only
            try mock.plug()
            #expect(throws: SensorError("\(mock.node) has no ABS_X, ABS_Y and ABS_Z (nor an accelerometer's "
                                        + "ABS_RX/RY/RZ): not an accelerometer")) {
                try EvdevSource(path: mock.node).start()
            }
            #expect(throws: SensorError.self) { try EvdevSource(path: "/dev/input/event999").start() }
        }
    }
}
