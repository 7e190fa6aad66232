// SPDX-License-Identifier: GPL-3.0-or-later
/// Which trigger buffered capture sets (docs/sensors.md, IIO, "Buffered capture"): the
/// device's own (`<name>-dev<N>`) when none is set; nothing when a trigger is set
/// already (by the driver, as the HID sensor hub does, or by the administrator) or the
/// device takes none. A device that needs one and has none to use (an I2C chip without
/// its interrupt wired) is not captured at all.
enum TriggerPlan: Equatable {
    /// Nothing to set.
    case keep
    /// The trigger of this name (`/sys/bus/iio/devices/triggerN/name`).
    case set(name: String)
    /// The device needs a trigger and has none: a buffer would never fill.
    case missing

    /// The plan for the device in `sysfsDirectory`, from sysfs alone: made before
    /// libiio is loaded, so a device that cannot be captured never loads it. The
    /// triggers are the devices beside this one (`/sys/bus/iio/devices/triggerN`).
    static func plan(sysfsDirectory: String, deviceName: String?, deviceID: String) -> TriggerPlan {
        guard needsTrigger(sysfsDirectory: sysfsDirectory) else { return .keep }
        guard let deviceName else { return .missing }
        let devices = String(sysfsDirectory[..<(sysfsDirectory.lastIndex(of: "/") ?? sysfsDirectory.endIndex)])
        let triggers = SysfsFile.entries(devices).filter { $0.hasPrefix("trigger") }
            .compactMap { SysfsFile.read(devices + "/" + $0 + "/name") }
        guard let wanted = preferredTrigger(deviceName: deviceName, deviceID: deviceID, triggers: triggers) else {
            return .missing
        }
        return .set(name: wanted)
    }

    /// The device takes a trigger and has none set (`trigger/current_trigger` empty).
    static func needsTrigger(sysfsDirectory: String) -> Bool {
        let path = sysfsDirectory + "/trigger/current_trigger"
        return SysfsFile.exists(path) && SysfsFile.read(path) == ""
    }

    /// The trigger a driver registers for its device: `<name>-dev<N>` for `iio:deviceN`,
    /// else one named after the device.
    static func preferredTrigger(deviceName: String, deviceID: String, triggers: [String]) -> String? {
        let number = deviceID.hasPrefix("iio:device") ? String(deviceID.dropFirst("iio:device".count)) : nil
        if let number, triggers.contains("\(deviceName)-dev\(number)") { return "\(deviceName)-dev\(number)" }
        return triggers.first { $0.hasPrefix(deviceName + "-dev") } ?? triggers.first { $0.hasPrefix(deviceName + "-") }
    }
}
