// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TiltCore
import TiltSystem
@testable import TiltDevices

extension MockDeviceTests {
    @Suite struct Discovery {
        /// What discovery resolves the spec written `text` to, as the daemon would.
        static func resolved(_ text: String) throws -> SensorInfo? {
            SensorDiscovery.resolve(try SensorSpec(parsing: text))?.info
        }

        /// A convertible with everything: display and base IIO accelerometers, an
        /// evdev one, a joystick that also reports motion, and a light sensor.
        struct Machine {
            let buffered = MockIIODevice.buffered(MockTestbed.nextNumber())
                .with("in_accel_mount_matrix", "1, 0, 0; 0, 1, 0; 0, 0, 1")
            let polledDisplay = MockIIODevice.polled(MockTestbed.nextNumber(), name: "bmc150_accel")
                .with("label", "accel-display")
            let baseByUdev = MockIIODevice.buffered(MockTestbed.nextNumber(), name: "accel_base")
            let baseByLabel = MockIIODevice.polled(MockTestbed.nextNumber(), name: "bmc150_accel")
                .with("label", "accel-base")
            let light = MockIIODevice(number: MockTestbed.nextNumber(), name: "als",
                                      attributes: [("in_illuminance_raw", "5")], hasNode: false)
            let evdev = MockEvdevDevice(number: MockTestbed.nextNumber())
            let joystick = MockEvdevDevice(number: MockTestbed.nextNumber(), name: "Gamepad Motion Sensors")

            func plug() throws {
                var udevMatrix = buffered
                udevMatrix.properties.append(("ACCEL_MOUNT_MATRIX", "0, 1, 0; 0, 0, -1; -1, 0, 0"))
                try udevMatrix.plug()
                try polledDisplay.plug()
                var base = baseByUdev
                base.properties.append(("ACCEL_LOCATION", "base"))
                try base.plug()
                try baseByLabel.plug()
                try light.plug()
                try evdev.plug()
                var stick = joystick
                stick.properties.append(("ID_INPUT_JOYSTICK", "1"))
                try stick.plug()
            }
        }

        @Test func findsOrdersAndSkipsTheBase() throws {
            MockTestbed.shared.reset()
            let machine = Machine()
            try machine.plug()

            let found = SensorDiscovery.candidates()
            #expect(found.map(\.sysname) == [machine.buffered.id, machine.polledDisplay.id, "event\(machine.evdev.number)"])
            let first = try #require(found.first)
            #expect(first.info == SensorInfo(kind: .iio, name: "accel_3d", sysfsPath: machine.buffered.syspath,
                                             deviceNode: machine.buffered.node, samplingRate: 10,
                                             mountMatrix: try MountMatrix.parse("0, 1, 0; 0, 0, -1; -1, 0, 0"),
                                             location: nil, buffered: true))
            #expect(found[1].info.location == "display")
            #expect(found[1].info.buffered == false)
            #expect(found[1].info.samplingRate == 20)
            #expect(found[2].info == SensorInfo(kind: .evdev, name: "Mock Accelerometer",
                                                sysfsPath: machine.evdev.syspath, deviceNode: machine.evdev.node))

            let all = SensorDiscovery.candidates(includeBase: true)
            #expect(all.map(\.sysname) == [machine.buffered.id, machine.baseByUdev.id, machine.polledDisplay.id,
                                           machine.baseByLabel.id, "event\(machine.evdev.number)"])
            #expect(all.filter(\.isBase).map(\.sysname) == [machine.baseByUdev.id, machine.baseByLabel.id])
        }

        /// A tablet's buffered IIO chip, a DualSense on USB (its gamepad, touchpad and
        /// motion nodes as hid-playstation makes them, the motion node's frame as our
        /// hwdb gives it) and a laptop's lis3lv02d (BUS_HOST).
        struct DeskWithController {
            let tablet = MockIIODevice.buffered(MockTestbed.nextNumber())
            let gamepad = MockEvdevDevice(number: MockTestbed.nextNumber(),
                                          name: "Sony Interactive Entertainment DualSense Wireless Controller",
                                          resolution: 0, minimum: 0, maximum: 255,
                                          properties: [("ID_INPUT", "1"), ("ID_INPUT_JOYSTICK", "1")],
                                          accelerometerProperty: false, bus: "0003")
            let touchpad = MockEvdevDevice(number: MockTestbed.nextNumber(),
                                           name: "Sony Interactive Entertainment DualSense Wireless Controller Touchpad",
                                           resolution: 0, minimum: 0, maximum: 1919,
                                           properties: [("ID_INPUT", "1"), ("ID_INPUT_TOUCHPAD", "1")],
                                           accelerometerProperty: false, bus: "0003")
            let motion = MockEvdevDevice(number: MockTestbed.nextNumber(),
                                         name: "Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors",
                                         resolution: 8192, minimum: -32768, maximum: 32768,
                                         properties: [("ID_INPUT", "1"), ("ID_INPUT_ACCELEROMETER", "1"),
                                                      ("ACCEL_MOUNT_MATRIX", "1, 0, 0; 0, 0, -1; 0, 1, 0")],
                                         bus: "0003")
            let laptop = MockEvdevDevice(number: MockTestbed.nextNumber(), name: "ST LIS3LV02DL Accelerometer",
                                         resolution: 0, minimum: -2000, maximum: 2000, bus: "0019")

            func plug() throws {
                for device in [laptop, gamepad, touchpad, motion] { try device.plug() }
                try tablet.plug()
            }
        }

        @Test func takesTheControllersMotionNodeFirstAndNeverItsOtherNodes() throws {
            MockTestbed.shared.reset()
            let desk = DeskWithController()
            try desk.plug()
            let found = SensorDiscovery.candidates()
            #expect(found.map(\.sysname) == ["event\(desk.motion.number)", desk.tablet.id, "event\(desk.laptop.number)"])
            #expect(found.map(\.isController) == [true, false, false])
            #expect(found.first?.info.mountMatrix == (try MountMatrix.parse("1, 0, 0; 0, 0, -1; 0, 1, 0")))
            #expect(try Self.resolved("auto")?.deviceNode == desk.motion.node)
            #expect(try Self.resolved("iio")?.sysfsPath == desk.tablet.syspath)
            #expect(try Self.resolved("evdev:dualsense")?.deviceNode == desk.motion.node)
            #expect(try Self.resolved("evdev:LIS3LV02DL")?.deviceNode == desk.laptop.node)
            #expect(try Self.resolved("evdev:\(desk.laptop.node)")?.name == desk.laptop.name)
            #expect(try Self.resolved("evdev:Xbox") == nil)
        }

        @Test func resolvesSpecs() throws {
            MockTestbed.shared.reset()
            let machine = Machine()
            try machine.plug()
            #expect(try Self.resolved("auto")?.sysfsPath == machine.buffered.syspath)
            #expect(try Self.resolved("iio")?.sysfsPath == machine.buffered.syspath)
            #expect(try Self.resolved("iio:\(machine.polledDisplay.id)")?.sysfsPath == machine.polledDisplay.syspath)
            #expect(try Self.resolved("iio:accel_base")?.sysfsPath == machine.baseByUdev.syspath)
            #expect(try Self.resolved("iio:nothing") == nil)
            #expect(try Self.resolved("evdev")?.deviceNode == machine.evdev.node)
            #expect(try Self.resolved("evdev:\(machine.evdev.node)")?.sysfsPath == machine.evdev.syspath)
            #expect(try Self.resolved("evdev:/dev/input/event999") == nil)
            #expect(try Self.resolved("replay:/some/trace.csv")?.kind == .replay)
        }

        @Test func hotplugReportsAccelerometersComingAndGoing() throws {
            MockTestbed.shared.reset()
            let monitor = try HotplugMonitor()
            #expect(monitor.receive() == [])
            let iio = MockIIODevice.polled(MockTestbed.nextNumber())
            let evdev = MockEvdevDevice(number: MockTestbed.nextNumber())
            let light = MockIIODevice(number: MockTestbed.nextNumber(), name: "als",
                                      attributes: [("in_illuminance_raw", "5")], hasNode: false)
            try light.plug()
            try iio.plug()
            try evdev.plug()

            var events: [HotplugEvent] = []
            let limit = MonotonicClock.now() + 5
            while events.count < 2, MonotonicClock.now() < limit {
                _ = try Poll.wait([(monitor.descriptor, .readable)], timeout: limit - MonotonicClock.now())
                events += monitor.receive()
            }
            let added = events.compactMap { if case .added(let c) = $0 { c.info.sysfsPath } else { nil } }
            #expect(added == [iio.syspath, evdev.syspath])

            MockTestbed.shared.unplug(iio.syspath)
            MockTestbed.shared.unplug(evdev.syspath)
            events = []
            while events.count < 2, MonotonicClock.now() < limit {
                _ = try Poll.wait([(monitor.descriptor, .readable)], timeout: limit - MonotonicClock.now())
                events += monitor.receive()
            }
            let removed = events.compactMap { if case .removed(let c) = $0 { c.info } else { nil } }
            #expect(removed.map(\.sysfsPath) == [iio.syspath, evdev.syspath])
            #expect(removed.map(\.kind) == [.iio, .evdev])
            #expect(removed.last?.deviceNode == evdev.node)
        }
    }
}
