// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCore
@testable import TiltDevices

@Suite struct SensorDiscoveryTests {
    static func iio(_ number: Int, name: String = "accel_3d", buffered: Bool, location: String? = nil) -> SensorCandidate {
        SensorCandidate(info: SensorInfo(kind: .iio, name: name, sysfsPath: "/sys/devices/x/iio:device\(number)",
                                         location: location, buffered: buffered),
                        sysname: "iio:device\(number)")
    }

    static func evdev(_ number: Int, location: String? = nil) -> SensorCandidate {
        SensorCandidate(info: SensorInfo(kind: .evdev, name: "accel", deviceNode: "/dev/input/event\(number)",
                                         location: location),
                        sysname: "event\(number)")
    }

    @Test func prefersBufferedIIOThenPolledIIOThenEvdevDisplayFirst() {
        let shuffled = [Self.evdev(2), Self.iio(10, buffered: false), Self.iio(3, buffered: true, location: "base"),
                        Self.evdev(1, location: "display"), Self.iio(2, buffered: false, location: "display"),
                        Self.iio(11, buffered: true), Self.iio(9, buffered: true)]
        let order = SensorDiscovery.ordered(shuffled).map(\.sysname)
        #expect(order == ["iio:device9", "iio:device11", "iio:device3", "iio:device2", "iio:device10",
                          "event1", "event2"])
    }

    @Test func selectsBySpecSkippingBaseUnlessNamed() {
        let base = Self.iio(0, name: "bmc150_base", buffered: true, location: "base")
        let polled = Self.iio(1, name: "bmc150", buffered: false, location: "display")
        let input = Self.evdev(4)
        let all = SensorDiscovery.ordered([base, polled, input])
        #expect(SensorDiscovery.select(.auto, from: all) == polled)
        #expect(SensorDiscovery.select(.iio(nil), from: all) == polled)
        #expect(SensorDiscovery.select(.iio("bmc150_base"), from: all) == base)
        #expect(SensorDiscovery.select(.iio("iio:device1"), from: all) == polled)
        #expect(SensorDiscovery.select(.iio("device1"), from: all) == polled)
        #expect(SensorDiscovery.select(.iio("nothing"), from: all) == nil)
        #expect(SensorDiscovery.select(.evdev(nil), from: all) == input)
        #expect(SensorDiscovery.select(.evdev("/dev/input/event4"), from: all) == input)
        #expect(SensorDiscovery.select(.evdev("/dev/input/event5"), from: all) == nil)
        #expect(SensorDiscovery.select(.auto, from: [base]) == nil)
    }

    @Test func locationComesFromUdevThenTheLabel() {
        #expect(SensorDiscovery.location(property: "base", label: "accel-display") == "base")
        #expect(SensorDiscovery.location(property: nil, label: "accel-base") == "base")
        #expect(SensorDiscovery.location(property: nil, label: "accel-display\n") == "display")
        #expect(SensorDiscovery.location(property: nil, label: "something") == nil)
        #expect(SensorDiscovery.location(property: nil, label: nil) == nil)
    }

    @Test func picksTheDevicesOwnTrigger() {
        let triggers = ["bmc150-dev2", "accel_3d-dev0", "accel_3d-dev3", "sysfstrig1"]
        #expect(TriggerPlan.preferredTrigger(deviceName: "accel_3d", deviceID: "iio:device3", triggers: triggers)
                == "accel_3d-dev3")
        #expect(TriggerPlan.preferredTrigger(deviceName: "accel_3d", deviceID: "iio:device7", triggers: triggers)
                == "accel_3d-dev0")
        #expect(TriggerPlan.preferredTrigger(deviceName: "lis3dh", deviceID: "iio:device1", triggers: triggers) == nil)
        #expect(TriggerPlan.preferredTrigger(deviceName: "bmc150", deviceID: "iio:device2",
                                           triggers: ["bmc150-any-motion-dev2", "bmc150-dev2"]) == "bmc150-dev2")
    }

    @Test func evdevScaleUsesResolutionElseTwoGFullScale() {
        let g = standardGravity
        #expect(EvdevSource.scale(AbsoluteAxis(value: 0, minimum: -512, maximum: 511, resolution: 256)) == g / 256)
        #expect(EvdevSource.scale(AbsoluteAxis(value: 0, minimum: -2048, maximum: 2047, resolution: 0)) == 2 * g / 2048)
        // A range that does not span zero is centred on its middle: half of it is 2 g.
        #expect(EvdevSource.scale(AbsoluteAxis(value: 0, minimum: 0, maximum: 1023, resolution: 0)) == 2 * g / 511.5)
        #expect(EvdevSource.scale(AbsoluteAxis(value: 0, minimum: 0, maximum: 0, resolution: 0)) == g)
    }
}

/// The order among several accelerometers (docs/sensors.md, "Choosing a sensor"), on
/// the candidates discovery makes of each driver's devices.
@Suite struct ControllerDiscoveryTests {
    static func controller(_ number: Int, name: String) -> SensorCandidate {
        SensorCandidate(info: SensorInfo(kind: .evdev, name: name, deviceNode: "/dev/input/event\(number)"),
                        sysname: "event\(number)", isController: true)
    }

    @Test func aControllerComesBeforeTheMachinesOwnAccelerometers() {
        let dualSense = Self.controller(21, name: "Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors")
        let dualShock = Self.controller(9, name: "Sony Computer Entertainment Wireless Controller Motion Sensors")
        let lis3 = SensorDiscoveryTests.evdev(4)
        let tablet = SensorDiscoveryTests.iio(0, buffered: true, location: "display")
        let order = SensorDiscovery.ordered([lis3, tablet, dualSense, dualShock])
        #expect(order.map(\.sysname) == ["event9", "event21", "iio:device0", "event4"])
        #expect(SensorDiscovery.select(.auto, from: order) == dualShock)
        #expect(SensorDiscovery.select(.iio(nil), from: order) == tablet)
        #expect(SensorDiscovery.select(.evdev("DualSense"), from: order) == dualSense)
        #expect(SensorDiscovery.select(.evdev("wireless controller motion"), from: order) == dualShock)
        #expect(SensorDiscovery.select(.evdev("Joy-Con"), from: order) == nil)
    }

    @Test func theBusTellsAController() {
        #expect(SensorDiscovery.isController(bus: "0003"))   // USB
        #expect(SensorDiscovery.isController(bus: "0005\n"))   // Bluetooth
        #expect(!SensorDiscovery.isController(bus: "0019"))   // BUS_HOST: lis3lv02d
        #expect(!SensorDiscovery.isController(bus: "0018"))   // BUS_I2C
        #expect(!SensorDiscovery.isController(bus: nil))
    }

    static func joyCon(_ number: Int, right: Bool) -> SensorCandidate {
        SensorCandidate(info: SensorInfo(kind: .evdev, name: "Nintendo Switch \(right ? "Right" : "Left") Joy-Con IMU",
                                         deviceNode: "/dev/input/event\(number)"),
                        sysname: "event\(number)", isController: true, isRightJoyCon: right)
    }

    /// Of a Joy-Con pair the left is played, whichever connected first; the right can be named.
    @Test func ofAJoyConPairTheLeftComesFirst() {
        let right = Self.joyCon(5, right: true), left = Self.joyCon(7, right: false)
        let tablet = SensorDiscoveryTests.iio(0, buffered: true)
        let order = SensorDiscovery.ordered([tablet, right, left])
        #expect(order.map(\.sysname) == ["event7", "event5", "iio:device0"])
        #expect(SensorDiscovery.select(.auto, from: order) == left)
        #expect(SensorDiscovery.select(.evdev("right joy-con"), from: order) == right)
        #expect(SensorDiscovery.select(.evdev("/dev/input/event5"), from: order) == right)
        // The left gone, the right is next (the daemon hands over: docs/sensors.md).
        #expect(SensorDiscovery.select(.auto, from: order.filter { $0 != left }) == right)
    }

    /// hid-nintendo's ids (hid-ids.h) and its names for the Charging Grip's halves.
    @Test func theRightJoyConIsToldByItsIdsOrInTheGripByItsName() {
        #expect(SensorDiscovery.isRightJoyCon(vendor: "057e", product: "2007", name: "Nintendo Switch Right Joy-Con IMU"))
        #expect(!SensorDiscovery.isRightJoyCon(vendor: "057e", product: "2006", name: "Nintendo Switch Left Joy-Con IMU"))
        #expect(SensorDiscovery.isRightJoyCon(vendor: "057e\n", product: "200e",
                                              name: "Nintendo Switch Right Joy-Con IMU (Grip)"))
        #expect(!SensorDiscovery.isRightJoyCon(vendor: "057e", product: "200e", name: "Nintendo Switch Left Joy-Con IMU (Grip)"))
        #expect(!SensorDiscovery.isRightJoyCon(vendor: "057e", product: "2009", name: "Nintendo Switch Pro Controller IMU"))
        #expect(!SensorDiscovery.isRightJoyCon(vendor: "054c", product: "2007", name: "Right Joy-Con"))
        #expect(!SensorDiscovery.isRightJoyCon(vendor: nil, product: nil, name: "Nintendo Switch Right Joy-Con IMU"))
    }

    /// hid-wiimote's nodes (hid-wiimote-modules.c): the accelerometer has ABS_RX/RY/RZ
    /// alone (capabilities/abs 38); the Motion Plus gyroscope has the same axes under
    /// another name; the IR node has the hats; the Nunchuk node its stick and its own
    /// accelerometer (RX/RY/RZ and HAT0X/Y) under the extension's name.
    @Test func theWiiRemotesAccelerometerIsToldByItsNameAndAxes() {
        #expect(SensorDiscovery.isRotationalAccelerometer(name: "Nintendo Wii Remote Accelerometer", axes: "38\n"))
        #expect(!SensorDiscovery.isRotationalAccelerometer(name: "Nintendo Wii Remote Motion Plus", axes: "38"))
        #expect(!SensorDiscovery.isRotationalAccelerometer(name: "Nintendo Wii Remote IR", axes: "ff0000000"))
        #expect(!SensorDiscovery.isRotationalAccelerometer(name: "Nintendo Wii Remote Nunchuk", axes: "30000038"))
        #expect(!SensorDiscovery.isRotationalAccelerometer(name: "Nintendo Wii Remote", axes: "0"))
        // The axes matter as well as the name: another accelerometer's X/Y/Z are udev's to judge.
        #expect(!SensorDiscovery.isRotationalAccelerometer(name: "ST LIS3LV02DL Accelerometer", axes: "7"))
        #expect(!SensorDiscovery.isRotationalAccelerometer(name: "Nintendo Wii Remote Accelerometer", axes: nil))
    }

    /// Which axes the evdev source reads, from the node's axes (and, for RX/RY/RZ alone,
    /// whether the node says it measures acceleration).
    @Test func theSourceReadsTheAxesTheAccelerometerIsOn() {
        // Pro Controller IMU, DualSense: X/Y/Z and the gyroscope's RX/RY/RZ.
        #expect(EvdevAxes.choose(hasLinear: true, hasRotational: true, accelerometerProperty: true,
                                 name: "Nintendo Switch Pro Controller IMU") == .linear)
        #expect(EvdevAxes.choose(hasLinear: false, hasRotational: true, accelerometerProperty: false,
                                 name: "Nintendo Wii Remote Accelerometer") == .rotational)
        #expect(EvdevAxes.choose(hasLinear: false, hasRotational: true, accelerometerProperty: false,
                                 name: "Nintendo Wii Remote Motion Plus") == nil)
        #expect(EvdevAxes.choose(hasLinear: false, hasRotational: true, accelerometerProperty: true, name: "x") == .rotational)
        #expect(EvdevAxes.choose(hasLinear: false, hasRotational: false, accelerometerProperty: true, name: "x") == nil)
        #expect(EvdevAxes.rotational.codes == [InputCode.absRX, InputCode.absRY, InputCode.absRZ])
    }

    @Test func namesMatchAnyPartInEitherCase() {
        #expect(SensorDiscovery.contains("DualSense Wireless Controller Motion Sensors", "dualsense"))
        #expect(SensorDiscovery.contains("abc", "ABC") && SensorDiscovery.contains("abc", ""))
        #expect(!SensorDiscovery.contains("abc", "abcd") && !SensorDiscovery.contains("abc", "bd"))
    }
}
