// SPDX-License-Identifier: GPL-3.0-or-later
import TiltSystem

/// An IIO device's attributes as sysfs files (the kernel's ABI,
/// Documentation/ABI/testing/sysfs-bus-iio), found the way libiio's local backend finds
/// them, without libiio (docs/sensors.md, IIO, "Attributes"): a channel's attribute is
/// its own file (`in_accel_x_scale`), else the one its type shares
/// (`in_accel_scale`); a device's is the bare name (`sampling_frequency`). Which of the
/// two a caller asks first is its own rule (`RateAttribute`: the device's rate first).
struct IIOAttributes {
    /// The device's sysfs directory, `/sys/bus/iio/devices/iio:deviceN`.
    let directory: String
    /// Its files and those in `scan_elements/`, listed once: sysfs does not add
    /// attributes to a bound device.
    private let files: Set<String>
    private let scanElements: Set<String>

    init(directory: String) {
        self.directory = directory
        files = Set(SysfsFile.entries(directory))
        scanElements = Set(SysfsFile.entries(directory + "/scan_elements"))
    }

    /// The channel's type: `accel` for `accel_x`.
    static func type(ofChannel channel: String) -> String {
        channel.split(separator: "_", maxSplits: 1).first.map(String.init) ?? channel
    }

    /// Whether the input channel `channel` (`accel_x`) exists: some file of its own,
    /// in the directory or among the scan elements (`in_accel_x_raw`, `in_accel_x_en`).
    func hasChannel(_ channel: String) -> Bool {
        let prefix = "in_\(channel)_"
        return files.contains { $0.hasPrefix(prefix) } || scanElements.contains { $0.hasPrefix(prefix) }
    }

    /// The file of a channel's attribute: the channel's own, else the one its type
    /// shares; nil when it has neither.
    func channelFile(_ channel: String, _ attribute: String) -> String? {
        let own = "in_\(channel)_\(attribute)", shared = "in_\(Self.type(ofChannel: channel))_\(attribute)"
        if files.contains(own) { return directory + "/" + own }
        if files.contains(shared) { return directory + "/" + shared }
        return nil
    }

    /// The file of a device-wide attribute; nil when there is none.
    func deviceFile(_ attribute: String) -> String? {
        files.contains(attribute) ? directory + "/" + attribute : nil
    }

    /// A scan element's file (`in_accel_x_type`); nil when the channel is not one.
    func scanElementFile(_ channel: String, _ suffix: String) -> String? {
        let name = "in_\(channel)_\(suffix)"
        return scanElements.contains(name) ? directory + "/scan_elements/" + name : nil
    }

    /// The channel's layout in a scan (`scan_elements/in_accel_x_type`), nil when it is
    /// not a scan element or its type cannot be parsed.
    func scanFormat(_ channel: String) -> ScanElementFormat? {
        guard scanElementFile(channel, "en") != nil, let file = scanElementFile(channel, "type"),
              let text = SysfsFile.read(file) else { return nil }
        return try? ScanElementFormat(parsing: text)
    }

    /// A channel's number, `fallback` when it has no such attribute; an error naming the
    /// file when it cannot be read or is not a number.
    func number(_ channel: String, _ attribute: String, default fallback: Double) throws(SensorError) -> Double {
        guard let file = channelFile(channel, attribute) else { return fallback }
        let text: String
        do {
            text = try SysfsFile.value(file)
        } catch {
            throw SensorError("cannot read \(file): \(error)")
        }
        guard let number = text.sysfsNumber else { throw SensorError("\(file) is not a number: '\(text)'") }
        return number
    }
}
