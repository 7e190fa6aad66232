// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TiltCore
import TiltSystem
@testable import TiltDevices

extension MockDeviceTests {
    /// Each controller's family of nodes beside a tablet's IIO chip, as their drivers
    /// make them (hid-nintendo, hid-wiimote, hid-sony) and udev with our rules and hwdb
    /// marks them: discovery takes the motion node, never the others, with its frame.
    @Suite struct ControllerFamilies {
        static func resolved(_ text: String) throws -> SensorInfo? {
            SensorDiscovery.resolve(try SensorSpec(parsing: text))?.info
        }

        static let joystick = [("ID_INPUT", "1"), ("ID_INPUT_JOYSTICK", "1")]
        static func accelerometer(matrix: String) -> [(String, String)] {
            [("ID_INPUT", "1"), ("ID_INPUT_ACCELEROMETER", "1"), ("ACCEL_MOUNT_MATRIX", matrix)]
        }

        static func node(_ name: String, bus: String, ids: (String, String), axes: UInt64, resolution: Int32 = 0,
                         range: Int32 = 32767, marked: Bool = false,
                         properties: [(String, String)]) -> MockEvdevDevice {
            var device = MockEvdevDevice(number: MockTestbed.nextNumber(), name: name, resolution: resolution,
                                         minimum: -range, maximum: range, properties: properties,
                                         accelerometerProperty: marked, axisBits: axes, bus: bus)
            device.ids = ids
            return device
        }

        /// hid-nintendo: the Pro Controller's gamepad node (sticks on X/Y/RX/RY, the
        /// d-pad on HAT0X/Y) and its IMU (X/Y/Z at 4096 per g, gyroscope RX/RY/RZ).
        @Test func aProControllerGivesItsIMUWithItsFrame() throws {
            MockTestbed.shared.reset()
            let tablet = MockIIODevice.buffered(MockTestbed.nextNumber())
            let gamepad = Self.node("Nintendo Switch Pro Controller", bus: "0003", ids: ("057e", "2009"),
                                    axes: 0b11 | 0b11000 | 0b11 << 16, properties: Self.joystick)
            let imu = Self.node("Nintendo Switch Pro Controller IMU", bus: "0003", ids: ("057e", "2009"),
                                axes: 0b111111, resolution: 4096, marked: true,
                                properties: Self.accelerometer(matrix: "0, -1, 0; 1, 0, 0; 0, 0, 1"))
            try tablet.plug()
            try gamepad.plug()
            try imu.plug()
            let found = SensorDiscovery.candidates()
            #expect(found.map(\.sysname) == ["event\(imu.number)", tablet.id])
            #expect(found.first?.info.mountMatrix == (try MountMatrix.parse("0, -1, 0; 1, 0, 0; 0, 0, 1")))
            #expect(try Self.resolved("auto")?.deviceNode == imu.node)
            #expect(try Self.resolved("evdev:Pro Controller")?.deviceNode == imu.node)
            #expect(try Self.resolved("iio")?.sysfsPath == tablet.syspath)

            // The source reads X/Y/Z (not the gyroscope) at 4096 per g, through the frame.
            let source = try #require(SensorDiscovery.resolve(.auto))
            try source.start()
            defer { source.stop() }
            try MockTestbed.shared.nodeDescriptor(imu.node).writeAll(MockEvdevDevice.report(x: 4096, y: 0, z: 0))
            let sample = try #require(try Pump.run(source, count: 1).samples.first)
            // Triggers up: the far edge up, as a tablet standing on its bottom edge.
            #expect((sample.acceleration - Vector3(0, standardGravity, 0)).length < 1e-9, "\(sample.acceleration)")
        }

        /// hid-wiimote: the remote's buttons node, its IR node (hats), its accelerometer
        /// (RX/RY/RZ alone, no INPUT_PROP_ACCELEROMETER) and the Motion Plus gyroscope
        /// (the same axes). With our rule udev marks the accelerometer; without it
        /// (a joystick to input_id) discovery still tells it by its name and axes.
        @Test(arguments: [true, false])
        func aWiiRemoteGivesItsAccelerometerNeverItsGyroscopeOrIR(markedByOurRule: Bool) throws {
            MockTestbed.shared.reset()
            let tablet = MockIIODevice.polled(MockTestbed.nextNumber())
            let buttons = Self.node("Nintendo Wii Remote", bus: "0005", ids: ("057e", "0306"), axes: 0,
                                    properties: [("ID_INPUT", "1"), ("ID_INPUT_KEY", "1")])
            let ir = Self.node("Nintendo Wii Remote IR", bus: "0005", ids: ("057e", "0306"), axes: 0xFF << 16,
                               properties: Self.joystick)
            let motionPlus = Self.node("Nintendo Wii Remote Motion Plus", bus: "0005", ids: ("057e", "0306"),
                                       axes: 0b111000, properties: Self.joystick)
            let accel = Self.node("Nintendo Wii Remote Accelerometer", bus: "0005", ids: ("057e", "0306"),
                                  axes: 0b111000, range: 500,
                                  properties: markedByOurRule
                                      ? Self.accelerometer(matrix: "0, -1, 0; -1, 0, 0; 0, 0, 1") : Self.joystick)
            for device in [buttons, ir, motionPlus, accel] { try device.plug() }
            try tablet.plug()
            let found = SensorDiscovery.candidates()
            #expect(found.map(\.sysname) == ["event\(accel.number)", tablet.id])
            #expect(found.first?.isController == true)
            #expect(found.first?.info.mountMatrix == (markedByOurRule
                ? try MountMatrix.parse("0, -1, 0; -1, 0, 0; 0, 0, 1") : .identity))
            #expect(try Self.resolved("auto")?.deviceNode == accel.node)
            #expect(try Self.resolved("evdev:wii remote")?.deviceNode == accel.node)
            #expect(try Self.resolved("evdev:Motion Plus") == nil)
        }

        /// hid-sony's Sixaxis / DualShock 3: the gamepad node and "… Motion Sensors"
        /// (X/Y/Z, -512 to 511 at 113 per g), which our hwdb gives the Sony frame.
        @Test func aDualShock3GivesItsMotionSensors() throws {
            MockTestbed.shared.reset()
            let tablet = MockIIODevice.buffered(MockTestbed.nextNumber())
            let gamepad = Self.node("Sony PLAYSTATION(R)3 Controller", bus: "0003", ids: ("054c", "0268"),
                                    axes: 0b111111, range: 255, properties: Self.joystick)
            var motion = Self.node("Sony PLAYSTATION(R)3 Controller Motion Sensors", bus: "0003",
                                   ids: ("054c", "0268"), axes: 0b111, resolution: 113, range: 512, marked: true,
                                   properties: Self.accelerometer(matrix: "1, 0, 0; 0, 0, -1; 0, 1, 0"))
            motion.maximum = 511
            try gamepad.plug()
            try motion.plug()
            try tablet.plug()
            #expect(SensorDiscovery.candidates().map(\.sysname) == ["event\(motion.number)", tablet.id])
            let source = try #require(SensorDiscovery.resolve(.auto))
            try source.start()
            defer { source.stop() }
            // Lying face up the driver reads +1 g on Y (out of the face): a tablet lying flat.
            try MockTestbed.shared.nodeDescriptor(motion.node).writeAll(MockEvdevDevice.report(x: 0, y: 113, z: 0))
            let sample = try #require(try Pump.run(source, count: 1).samples.first)
            #expect((sample.acceleration - Vector3(0, 0, standardGravity)).length < 1e-9, "\(sample.acceleration)")
        }

        /// A Joy-Con pair: two IMU nodes; the left is played whichever came first.
        @Test func ofAJoyConPairTheLeftIsTaken() throws {
            MockTestbed.shared.reset()
            let tablet = MockIIODevice.buffered(MockTestbed.nextNumber())
            let right = Self.node("Nintendo Switch Right Joy-Con IMU", bus: "0005", ids: ("057e", "2007"),
                                  axes: 0b111111, resolution: 4096, marked: true,
                                  properties: Self.accelerometer(matrix: "1, 0, 0; 0, 1, 0; 0, 0, 1"))
            let left = Self.node("Nintendo Switch Left Joy-Con IMU", bus: "0005", ids: ("057e", "2006"),
                                 axes: 0b111111, resolution: 4096, marked: true,
                                 properties: Self.accelerometer(matrix: "-1, 0, 0; 0, -1, 0; 0, 0, 1"))
            try tablet.plug()
            try right.plug()
            try left.plug()
            let found = SensorDiscovery.candidates()
            #expect(found.map(\.sysname) == ["event\(left.number)", "event\(right.number)", tablet.id])
            #expect(found.map(\.isRightJoyCon) == [false, true, false])
            #expect(try Self.resolved("auto")?.deviceNode == left.node)
            #expect(try Self.resolved("evdev:Right Joy-Con")?.deviceNode == right.node)
            MockTestbed.shared.unplug(left.syspath)
            #expect(try Self.resolved("auto")?.deviceNode == right.node, "the right one is next")
        }
    }
}
