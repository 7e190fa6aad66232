import Foundation
import Testing
import TiltCore
import TiltSystem
@testable import TiltDevices

extension MockDeviceTests {
    @Suite struct Discovery {
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

        @Test func resolvesSpecs() throws {
            MockTestbed.shared.reset()
            let machine = Machine()
            try machine.plug()
            func resolved(_ text: String) throws -> SensorInfo? {
                SensorDiscovery.resolve(try SensorSpec(parsing: text))?.info
            }
            #expect(try resolved("auto")?.sysfsPath == machine.buffered.syspath)
            #expect(try resolved("iio")?.sysfsPath == machine.buffered.syspath)
            #expect(try resolved("iio:\(machine.polledDisplay.id)")?.sysfsPath == machine.polledDisplay.syspath)
            #expect(try resolved("iio:accel_base")?.sysfsPath == machine.baseByUdev.syspath)
            #expect(try resolved("iio:nothing") == nil)
            #expect(try resolved("evdev")?.deviceNode == machine.evdev.node)
            #expect(try resolved("evdev:\(machine.evdev.node)")?.sysfsPath == machine.evdev.syspath)
            #expect(try resolved("evdev:/dev/input/event999") == nil)
            #expect(try resolved("replay:/some/trace.csv")?.kind == .replay)
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
