// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltSystem
@testable import TiltDevices

/// What the daemon reads through sysfs (`SysfsIIODevice`) is what libiio's attributes
/// gave, for the attribute layouts the drivers use (docs/sensors.md, IIO, "Attributes"):
/// the name, each axis's scale and offset, shared or per axis, and the data rate and its
/// list per device or per channel.
extension MockDeviceTests {
    @Suite struct SysfsAgreesWithLibIIO {
        enum Layout: String, Sendable, CaseIterable {
            /// The HID sensor hub: shared scale and offset, the rate per device, no list.
            case shared
            /// st_accel: per-axis scales and offsets beside shared ones.
            case perAxis
            /// kxsd9: unsigned, the offset shared.
            case sharedOffset
            /// mma8452, bmc150: the rate per channel, the list per device.
            case channelRateDeviceList
            /// kxcjk-1013: both per channel.
            case channelRateChannelList
            case deviceRateChannelList
            /// A rate per axis.
            case rateperAxis
            /// mxc6255: x and y only, no rate.
            case twoAxes

            func mock(_ number: Int) -> MockIIODevice {
                var mock = MockIIODevice.polled(number, scale: "0.019163", offset: "0")
                let list = "1.56 6.25 12.5 50 100"
                func replaceRate(_ attributes: [(String, String)]) {
                    mock.attributes.removeAll { $0.0 == "sampling_frequency" }
                    mock.attributes += attributes
                }
                switch self {
                case .shared: break
                case .perAxis:
                    mock = mock.with("in_accel_x_scale", "2").with("in_accel_y_scale", "3").with("in_accel_z_offset", "-7")
                        .with("sampling_frequency_available", list)
                case .sharedOffset:
                    mock = mock.with("in_accel_offset", "-2048").with("in_accel_scale", "0.011978")
                case .channelRateDeviceList:
                    replaceRate([("in_accel_sampling_frequency", "6.25"), ("sampling_frequency_available", list)])
                case .channelRateChannelList:
                    replaceRate([("in_accel_sampling_frequency", "6.25"), ("in_accel_sampling_frequency_available", list)])
                case .deviceRateChannelList:
                    mock = mock.with("in_accel_sampling_frequency_available", list)
                case .rateperAxis:
                    replaceRate([("in_accel_x_sampling_frequency", "6.25"), ("in_accel_y_sampling_frequency", "6.25"),
                                 ("in_accel_z_sampling_frequency", "6.25"), ("sampling_frequency_available", list)])
                case .twoAxes:
                    mock.attributes.removeAll { $0.0 == "in_accel_z_raw" || $0.0 == "sampling_frequency" }
                }
                return mock
            }
        }

        /// libiio's number for a channel's attribute, as `IIOAxes` read it before.
        static func libiioNumber(_ channel: IIOChannel, _ name: String, default value: Double) throws -> Double {
            guard channel.hasAttribute(name) else { return value }
            return try #require(try channel.attribute(name).sysfsNumber)
        }

        @Test(arguments: Layout.allCases)
        func sysfsGivesWhatLibIIOGave(_ layout: Layout) throws {
            MockTestbed.shared.reset()
            let mock = layout.mock(MockTestbed.nextNumber())
            try mock.plug()
            let sysfs = try SysfsIIODevice(deviceID: mock.id, info: SensorInfo(kind: .iio, name: mock.id, sysfsPath: mock.syspath))
            let context = try IIOContext()
            let device = try #require(context.device(mock.id))
            #expect(sysfs.name == device.name)

            let channels = ["accel_x", "accel_y", "accel_z"].compactMap { device.channel($0) }
            #expect(sysfs.axes.channels == channels.map(\.id))
            let axes = try channels.map { channel in
                IIOAxes.Axis(scale: try Self.libiioNumber(channel, "scale", default: 1),
                             offset: try Self.libiioNumber(channel, "offset", default: 0))
            }
            #expect(sysfs.axes.axes == axes)
            #expect(try sysfs.axes.readRaw() == (try channels.map { try #require(try $0.attribute("raw").sysfsNumber) }))

            // The rate: the device's first, else the first axis's; its list beside it first.
            let rate = "sampling_frequency", list = "sampling_frequency_available"
            let first = channels[0]
            func deviceList() -> String? { device.hasAttribute(list) ? try? device.attribute(list) : nil }
            func channelList() -> String? { first.hasAttribute(list) ? try? first.attribute(list) : nil }
            let found = sysfs.rates.attribute
            if device.hasAttribute(rate) {
                #expect(found?.read() == (try device.attribute(rate)))
                #expect(found?.available() == deviceList() ?? channelList())
                try #require(found).write("50")
                #expect(try device.attribute(rate) == "50")
            } else if first.hasAttribute(rate) {
                #expect(found?.read() == (try first.attribute(rate)))
                #expect(found?.available() == channelList() ?? deviceList())
                try #require(found).write("50")
                for channel in channels { #expect(try channel.attribute(rate) == "50") }
            } else {
                #expect(found == nil)
            }
        }
    }
}
