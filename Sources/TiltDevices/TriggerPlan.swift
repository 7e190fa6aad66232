// SPDX-License-Identifier: GPL-3.0-or-later
/// Which trigger buffered capture sets (docs/sensors.md, IIO, "Buffered capture"): the
/// device's own (`<name>-dev<N>`) when none is set; nothing when a trigger is set
/// already (by the driver, as the HID sensor hub does, or by the administrator) or the
/// device takes none. A device that needs one and has none to use (an I2C chip without
/// its interrupt wired) is not captured at all.
enum TriggerPlan {
    /// Nothing to set.
    case keep
    case set(IIODevice, name: String)
    /// The device needs a trigger and has none: a buffer would never fill.
    case missing

    /// The plan for `device`, whose sysfs directory is `sysfsDirectory`.
    static func plan(_ device: IIODevice, deviceID: String, in context: IIOContext, sysfsDirectory: String) -> TriggerPlan {
        do {
            if try device.trigger() != nil { return .keep }
        } catch {
            // An unset trigger reads as 0 bytes, which libiio 0.24 reports as EIO; a
            // device that takes no trigger has no current_trigger at all.
            guard needsTrigger(sysfsDirectory: sysfsDirectory) else { return .keep }
        }
        guard let name = device.name else { return .missing }
        let triggers = context.devices.filter(\.isTrigger).compactMap(\.name)
        guard let wanted = preferredTrigger(deviceName: name, deviceID: deviceID, triggers: triggers),
              let trigger = context.device(wanted) else { return .missing }
        return .set(trigger, name: wanted)
    }

    /// Whether a buffer would have no trigger (`missing`), from sysfs alone: asked
    /// before libiio is loaded, so a device that cannot be captured never loads it.
    /// The triggers are the devices beside this one (`/sys/bus/iio/devices/triggerN`).
    static func isMissing(sysfsDirectory: String, deviceName: String?, deviceID: String) -> Bool {
        guard needsTrigger(sysfsDirectory: sysfsDirectory) else { return false }
        guard let deviceName else { return true }
        let devices = String(sysfsDirectory[..<(sysfsDirectory.lastIndex(of: "/") ?? sysfsDirectory.endIndex)])
        let triggers = SysfsFile.entries(devices).filter { $0.hasPrefix("trigger") }
            .compactMap { SysfsFile.read(devices + "/" + $0 + "/name") }
        return preferredTrigger(deviceName: deviceName, deviceID: deviceID, triggers: triggers) == nil
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
