// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltSystem
@testable import TiltDevices

/// Which files hold the data rate and its list, each way drivers name them (docs/sensors.md,
/// IIO, "Buffered capture"): the device's rate first, as libiio's device attribute was.
@Suite struct RateAttributeTests {
    static let axes = ["accel_x", "accel_y", "accel_z"]

    static func find(_ device: SysfsFixture) throws -> RateAttribute {
        try #require(RateAttribute.find(attributes: IIOAttributes(directory: device.path), axes: axes))
    }

    @Test func bmc150TheRatePerChannelTheListPerDevice() throws {
        let device = try SysfsFixture("iio-polled")
        let rate = try Self.find(device)
        #expect(rate.read() == "12.500000")
        #expect(rate.available() == device.read("sampling_frequency_available"))
        try rate.write("62.5")
        #expect(device.read("in_accel_sampling_frequency") == "62.5")
    }

    @Test func kxcjkTheRatePerDeviceWinsOverAChannelsAndItsListComesFirst() throws {
        let device = try SysfsFixture("iio-buffered")
        try device.write("in_accel_sampling_frequency", "3")
        try device.write("in_accel_sampling_frequency_available", "3 6")
        let rate = try Self.find(device)
        #expect(rate.read() == "12.500000")
        #expect(rate.available() == device.read("sampling_frequency_available"))
        try rate.write("50")
        #expect(device.read("sampling_frequency") == "50")
        #expect(device.read("in_accel_sampling_frequency") == "3")
        // Without the device's list, the channel's.
        try device.remove("sampling_frequency_available")
        #expect(try Self.find(device).available() == "3 6")
    }

    @Test func aRatePerAxisIsWrittenToEveryAxisOnce() throws {
        let device = try SysfsFixture("iio-polled")
        try device.remove("in_accel_sampling_frequency")
        for axis in ["x", "y", "z"] { try device.write("in_accel_\(axis)_sampling_frequency", "10") }
        try device.write("in_accel_sampling_frequency_available", "10 100")
        let rate = try Self.find(device)
        #expect(rate.available() == "10 100")
        try rate.write("100")
        for axis in ["x", "y", "z"] { #expect(device.read("in_accel_\(axis)_sampling_frequency") == "100") }
    }

    @Test func noRateFileNoRate() throws {
        let device = try SysfsFixture("iio-polled")
        try device.remove("in_accel_sampling_frequency")
        #expect(RateAttribute.find(attributes: IIOAttributes(directory: device.path), axes: Self.axes) == nil)
    }
}
