// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltSystem
@testable import TiltDevices

/// Where a channel's and a device's attributes are, over sysfs trees in a temporary
/// folder laid out as the drivers lay theirs (docs/sensors.md, IIO, "Attributes"); that
/// libiio finds the same values runs in TiltDeviceMockTests.
@Suite struct IIOAttributesTests {
    @Test func aChannelsOwnFileComesBeforeTheOneItsTypeShares() throws {
        // st_accel (lis3dh): per-axis scale; kxsd9: the offset shared.
        let device = try SysfsFixture("iio-polled")
        try device.write("in_accel_x_scale", "0.000598")
        try device.write("in_accel_offset", "-2048")
        let attributes = IIOAttributes(directory: device.path)
        #expect(attributes.channelFile("accel_x", "scale") == device.file("in_accel_x_scale"))
        #expect(attributes.channelFile("accel_y", "scale") == device.file("in_accel_scale"))
        #expect(attributes.channelFile("accel_z", "offset") == device.file("in_accel_offset"))
        #expect(attributes.channelFile("accel_x", "sampling_frequency") == device.file("in_accel_sampling_frequency"))
        // A device-wide file is not a channel's, nor a channel's the device's.
        #expect(attributes.channelFile("accel_x", "sampling_frequency_available") == nil)
        #expect(attributes.deviceFile("sampling_frequency_available") == device.file("sampling_frequency_available"))
        #expect(attributes.deviceFile("sampling_frequency") == nil)
        #expect(attributes.deviceFile("name") == device.file("name"))
    }

    @Test func aChannelIsThereWithAFileOfItsOwnInTheDirectoryOrAmongTheScanElements() throws {
        let bufferedDevice = try SysfsFixture("iio-buffered"), polledDevice = try SysfsFixture("iio-polled")
        let buffered = IIOAttributes(directory: bufferedDevice.path)
        #expect(buffered.hasChannel("accel_z"))
        #expect(buffered.hasChannel("timestamp"))
        #expect(buffered.scanFormat("accel_x") == (try ScanElementFormat(signed: true, bits: 16, storageBits: 16)))
        let polled = IIOAttributes(directory: polledDevice.path)
        #expect(polled.hasChannel("accel_x"))
        // Neither an axis of another type nor one the chip lacks (the gyroscope's, a two-axis chip's z).
        #expect(!polled.hasChannel("anglvel_x"))
        #expect(polled.scanFormat("accel_x") == nil)
        try polledDevice.remove("in_accel_z_raw")
        #expect(!IIOAttributes(directory: polledDevice.path).hasChannel("accel_z"))
    }

    @Test func aNumberIsItsDefaultWhenAbsentAndAnErrorNamingTheFileWhenNotANumber() throws {
        let device = try SysfsFixture("iio-polled")
        try device.write("in_accel_y_offset", "twelve")
        let attributes = IIOAttributes(directory: device.path)
        #expect(try attributes.number("accel_x", "scale", default: 1) == 0.019163)
        #expect(try attributes.number("accel_x", "offset", default: 0) == 0)
        let error = #expect(throws: SensorError.self) { try attributes.number("accel_y", "offset", default: 0) }
        #expect(error?.message == "\(device.file("in_accel_y_offset")) is not a number: 'twelve'")
    }

    @Test func axesGetTheirScaleAndOffsetAndRawFilesFromSysfs() throws {
        let device = try SysfsFixture("iio-polled")
        try device.write("in_accel_z_scale", "0.5")
        try device.write("in_accel_offset", "2")
        let axes = try IIOAxes(attributes: IIOAttributes(directory: device.path), deviceID: "iio:device0")
        #expect(axes.channels == ["accel_x", "accel_y", "accel_z"])
        #expect(axes.axes == [IIOAxes.Axis(scale: 0.019163, offset: 2), IIOAxes.Axis(scale: 0.019163, offset: 2),
                              IIOAxes.Axis(scale: 0.5, offset: 2)])
        #expect(try axes.readRaw() == [12, -3, 512])
        try device.write("in_accel_z_raw", "")
        #expect(throws: Errno.ioError) { try axes.readRaw() }
    }

    @Test func aDeviceWithoutXIsNotAnAccelerometerAndOneWithoutZHasTwoAxes() throws {
        let device = try SysfsFixture("iio-polled")
        try device.remove("in_accel_z_raw")
        let axes = try IIOAxes(attributes: IIOAttributes(directory: device.path), deviceID: "iio:device0")
        #expect(axes.channels == ["accel_x", "accel_y"])
        try device.remove("in_accel_x_raw")
        let error = #expect(throws: SensorError.self) {
            try IIOAxes(attributes: IIOAttributes(directory: device.path), deviceID: "iio:device0")
        }
        #expect(error?.message == "iio:device0 has no accel_x channel: not an accelerometer")
    }
}
