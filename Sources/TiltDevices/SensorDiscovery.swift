// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltSystem

/// Finds accelerometers through udev and picks one for a `SensorSpec`.
///
/// IIO devices (subsystem `iio`) with `in_accel_x_raw` or `scan_elements/in_accel_x_en`,
/// and input event nodes udev tagged `ID_INPUT_ACCELEROMETER=1` (not joysticks), or
/// whose only axes are ABS_RX/RY/RZ under a driver's name ending in "Accelerometer"
/// (the Wii Remote's). Accelerometers in a keyboard base are skipped. Order of
/// preference: a game controller's motion sensors (a right Joy-Con after the left),
/// IIO with a buffer, IIO polled, other evdev; within each, a display-mounted one
/// first, then by kernel number (docs/sensors.md).
public enum SensorDiscovery {
    static let subsystems = ["iio", "input"]

    /// The accelerometers present now, best first; base ones only when asked.
    public static func candidates(includeBase: Bool = false) -> [SensorCandidate] {
        guard let udev = UdevContext() else { return [] }
        let found = udev.devices(subsystems: subsystems).compactMap { candidate($0) }
        return ordered(includeBase ? found : found.filter { !$0.isBase })
    }

    /// The source `spec` names; nil when no such sensor is present (it may come later).
    public static func resolve(_ spec: SensorSpec) -> SensorSource? {
        switch spec {
        case .replay(let file):
            return ReplaySource(path: file)
        case .evdev(let argument?) where argument.hasPrefix("/"):
            // A link (by-id, by-path) names the node it points to now: a controller
            // plugged in again gets another eventN. A node itself is not resolved.
            let found = candidates(includeBase: true)
            if let named = select(spec, from: found) { return named.makeSource() }
            let node = (try? RealPath.of(argument)) ?? argument
            if let linked = select(.evdev(node), from: found) { return linked.makeSource() }
            // An untagged node the user named: the source checks its axes when started.
            return SysfsFile.exists(node) ? EvdevSource(path: node) : nil
        case .evdev(_?):
            return select(spec, from: candidates(includeBase: true))?.makeSource()
        case .auto, .iio, .evdev(nil):
            let named: Bool = if case .iio(_?) = spec { true } else { false }
            return select(spec, from: candidates(includeBase: named))?.makeSource()
        }
    }

    /// The candidate `spec` picks from `candidates` (in preference order). A named
    /// device may be a base one; `auto`, `iio` and `evdev` skip those.
    public static func select(_ spec: SensorSpec, from candidates: [SensorCandidate]) -> SensorCandidate? {
        let usable = candidates.filter { !$0.isBase }
        switch spec {
        case .auto:
            return usable.first
        case .iio(nil):
            return usable.first { $0.info.kind == .iio }
        case .iio(let name?):
            return candidates.first {
                $0.info.kind == .iio && ($0.info.name == name || $0.sysname == name || $0.sysname == "iio:" + name)
            }
        case .evdev(nil):
            return usable.first { $0.info.kind == .evdev }
        case .evdev(let path?) where path.hasPrefix("/"):
            return candidates.first { $0.info.kind == .evdev && $0.info.deviceNode == path }
        case .evdev(let name?):
            return candidates.first { $0.info.kind == .evdev && contains($0.info.name, name) }
        case .replay:
            return nil
        }
    }

    /// Best first: a controller, IIO buffered, IIO polled, other evdev; display before
    /// unknown before base; a right Joy-Con after any other controller, so of a pair the
    /// left is played; then by kernel number (`iio:device2` before `iio:device10`).
    /// A controller comes first because it was plugged in to be played with; the
    /// machine's own accelerometer is always there (docs/sensors.md).
    public static func ordered(_ candidates: [SensorCandidate]) -> [SensorCandidate] {
        func kindRank(_ c: SensorCandidate) -> Int {
            switch c.info.kind {
            case .evdev where c.isController: 0
            case .iio: c.info.buffered == true ? 1 : 2
            case .evdev: 3
            case .replay: 4
            }
        }
        func locationRank(_ c: SensorCandidate) -> Int {
            switch c.info.location {
            case "display"?: 0
            case "base"?: 2
            default: 1
            }
        }
        func number(_ c: SensorCandidate) -> Int {
            Int(String(c.sysname.reversed().prefix { $0.isNumber }.reversed())) ?? Int.max
        }
        func handRank(_ c: SensorCandidate) -> Int { c.isRightJoyCon ? 1 : 0 }
        return candidates.sorted {
            (kindRank($0), locationRank($0), handRank($0), number($0), $0.sysname)
                < (kindRank($1), locationRank($1), handRank($1), number($1), $1.sysname)
        }
    }

    /// The location udev's hwdb (`ACCEL_LOCATION`) or the driver (`label`) gives.
    public static func location(property: String?, label: String?) -> String? {
        if let property, !property.isEmpty { return property.trimmingWhitespace }
        switch label?.trimmingWhitespace {
        case "accel-base"?: return "base"
        case "accel-display"?: return "display"
        default: return nil
        }
    }

    /// The candidate a udev device is, or nil if it is no accelerometer. For a
    /// `remove` event only properties remain, so attributes are not checked then.
    static func candidate(_ device: UdevDevice, removing: Bool = false) -> SensorCandidate? {
        switch device.subsystem {
        case "iio"?: iioCandidate(device, removing: removing)
        case "input"?: evdevCandidate(device)
        default: nil
        }
    }

    private static func iioCandidate(_ device: UdevDevice, removing: Bool) -> SensorCandidate? {
        let sysname = device.sysname
        guard sysname.hasPrefix("iio:device") else { return nil }   // triggers, buffers
        let path = device.syspath
        if removing {
            return SensorCandidate(info: SensorInfo(kind: .iio, name: sysname, sysfsPath: path,
                                                    deviceNode: device.devnode), sysname: sysname)
        }
        let polled = SysfsFile.exists(path + "/in_accel_x_raw")
        let scanned = SysfsFile.exists(path + "/scan_elements/in_accel_x_en")
        guard polled || scanned else { return nil }
        var notes: [String] = []
        var matrix = Matrix3.identity
        let matrixText = device.property("ACCEL_MOUNT_MATRIX")
            ?? ["mount_matrix", "in_accel_mount_matrix", "in_mount_matrix"].lazy.compactMap(device.attribute).first
        if let matrixText {
            do throws(SensorError) {
                matrix = try MountMatrix.parse(matrixText)
            } catch {
                notes.append("\(error); using the identity")
            }
        }
        let rate = (device.attribute("sampling_frequency") ?? device.attribute("in_accel_sampling_frequency"))?
            .sysfsNumber
        let info = SensorInfo(kind: .iio, name: device.attribute("name") ?? sysname, sysfsPath: path,
                              deviceNode: device.devnode, samplingRate: rate, mountMatrix: matrix,
                              location: location(property: device.property("ACCEL_LOCATION"),
                                                 label: device.attribute("label")),
                              buffered: scanned && device.devnode != nil)
        return SensorCandidate(info: info, sysname: sysname, notes: notes)
    }

    private static func evdevCandidate(_ device: UdevDevice) -> SensorCandidate? {
        let sysname = device.sysname
        guard sysname.hasPrefix("event"), let node = device.devnode else { return nil }
        let parent = device.parent
        guard (isAccelerometer(device) && device.property("ID_INPUT_JOYSTICK") != "1")
                || isRotationalAccelerometer(name: parent?.attribute("name"), axes: parent?.attribute("capabilities/abs"))
        else { return nil }
        var notes: [String] = []
        var matrix = Matrix3.identity
        if let text = device.property("ACCEL_MOUNT_MATRIX") {
            do throws(SensorError) {
                matrix = try MountMatrix.parse(text)
            } catch {
                notes.append("\(error); using the identity")
            }
        }
        let name = parent?.attribute("name") ?? parent?.property("NAME")?.trimmingCharacters(["\""]) ?? sysname
        let info = SensorInfo(kind: .evdev, name: name, sysfsPath: device.syspath, deviceNode: node,
                              mountMatrix: matrix, location: location(property: device.property("ACCEL_LOCATION"),
                                                                      label: nil))
        return SensorCandidate(info: info, sysname: sysname, notes: notes,
                               isController: isController(bus: parent?.attribute("id/bustype")),
                               isRightJoyCon: isRightJoyCon(vendor: parent?.attribute("id/vendor"),
                                                            product: parent?.attribute("id/product"), name: name))
    }
}

extension SensorDiscovery {
    /// INPUT_PROP_ACCELEROMETER (linux/input-event-codes.h).
    static let accelerometerProperty = 0x06

    /// udev's ID_INPUT_ACCELEROMETER; on a device udev has not classified (no
    /// ID_INPUT: no udevd, as in an initramfs or a container) the kernel's property bitmap.
    static func isAccelerometer(_ device: UdevDevice) -> Bool {
        if let tagged = device.property("ID_INPUT_ACCELEROMETER") { return tagged == "1" }
        guard device.property("ID_INPUT") == nil, let properties = device.parent?.attribute("properties") else {
            return false
        }
        return hasBit(accelerometerProperty, inBitmap: properties)
    }

    /// BUS_USB and BUS_BLUETOOTH (linux/input.h): an accelerometer reached over them is
    /// in something held in the hands, a game controller's motion sensors; the machine's
    /// own sit on I2C, SPI or the platform (BUS_HOST, BUS_I2C…).
    static let controllerBuses: Set<Int> = [0x03, 0x05]

    /// Whether the input device's `id/bustype` (hex) is one of a controller's.
    static func isController(bus text: String?) -> Bool {
        guard let text, let bus = Int(text.trimmingWhitespace, radix: 16) else { return false }
        return controllerBuses.contains(bus)
    }

    /// An accelerometer whose driver puts it on ABS_RX/RY/RZ alone and says so only in
    /// its name (hid-wiimote's "Nintendo Wii Remote Accelerometer": no
    /// INPUT_PROP_ACCELEROMETER, and input_id calls it a joystick). The Motion Plus
    /// gyroscope has the same axes under another name; our udev rule marks this node
    /// too (70-tiltpuzzle.rules), this finds it where that rule is not installed.
    static func isRotationalAccelerometer(name: String?, axes: String?) -> Bool {
        guard let name, name.trimmingWhitespace.hasSuffix("Accelerometer"), let axes else { return false }
        let rotational = [3, 4, 5]   // ABS_RX, ABS_RY, ABS_RZ
        return rotational.allSatisfy { hasBit($0, inBitmap: axes.trimmingWhitespace) }
            && !(0..<64).contains { !rotational.contains($0) && hasBit($0, inBitmap: axes.trimmingWhitespace) }
    }

    /// Nintendo's vendor, its Joy-Con (R) and the Charging Grip (hid-ids.h), whose two
    /// halves the driver names "… Left Joy-Con IMU (Grip)" and "… Right Joy-Con IMU (Grip)".
    static let nintendo = 0x057E, rightJoyCon = 0x2007, chargingGrip = 0x200E

    /// A right Joy-Con's IMU: of a pair, the left one is played first (docs/sensors.md).
    static func isRightJoyCon(vendor: String?, product: String?, name: String) -> Bool {
        guard let vendor, Int(vendor.trimmingWhitespace, radix: 16) == nintendo,
              let product, let id = Int(product.trimmingWhitespace, radix: 16) else { return false }
        return id == rightJoyCon || (id == chargingGrip && contains(name, "Right Joy-Con"))
    }

    /// Whether `text` holds `part`, ASCII letters in either case (`evdev:dualsense`).
    static func contains(_ text: String, _ part: String) -> Bool {
        func folded(_ s: String) -> [UInt8] { s.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 } }
        let (whole, wanted) = (folded(text), folded(part))
        guard !wanted.isEmpty, wanted.count <= whole.count else { return wanted.isEmpty }
        return (0...(whole.count - wanted.count)).contains { start in
            whole[start..<(start + wanted.count)].elementsEqual(wanted)
        }
    }

    /// Whether `bit` is set in a sysfs input bitmap: hex words, most significant first.
    static func hasBit(_ bit: Int, inBitmap text: String) -> Bool {
        let words = text.split(separator: " ").reversed().map { UInt64($0, radix: 16) }
        let (index, offset) = (bit / 64, bit % 64)
        guard index < words.count, let word = words[index] else { return false }
        return word & (1 << UInt64(offset)) != 0
    }
}

private extension String {
    func trimmingCharacters(_ characters: Set<Character>) -> String {
        String(drop { characters.contains($0) }.reversed().drop { characters.contains($0) }.reversed())
    }
}
