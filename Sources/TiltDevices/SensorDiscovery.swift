import TiltCore

/// Finds accelerometers through udev and picks one for a `SensorSpec`.
///
/// IIO devices (subsystem `iio`) with `in_accel_x_raw` or `scan_elements/in_accel_x_en`,
/// and input event nodes udev tagged `ID_INPUT_ACCELEROMETER=1` (not joysticks).
/// Accelerometers in a keyboard base are skipped. Order of preference: IIO with
/// a buffer, IIO polled, evdev; within each, a display-mounted one first, then by
/// kernel number (docs/sensors.md).
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
        case .evdev(let path?):
            if let found = select(spec, from: candidates(includeBase: true)) { return found.makeSource() }
            // An untagged node the user named: the source checks its axes when started.
            return SysfsFile.exists(path) ? EvdevSource(path: path) : nil
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
        case .evdev(let path?):
            return candidates.first { $0.info.kind == .evdev && $0.info.deviceNode == path }
        case .replay:
            return nil
        }
    }

    /// Best first: IIO buffered, IIO polled, evdev; display before unknown before
    /// base; then by kernel number (`iio:device2` before `iio:device10`).
    public static func ordered(_ candidates: [SensorCandidate]) -> [SensorCandidate] {
        func kindRank(_ c: SensorCandidate) -> Int {
            switch c.info.kind {
            case .iio: c.info.buffered == true ? 0 : 1
            case .evdev: 2
            case .replay: 3
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
        return candidates.sorted {
            (kindRank($0), locationRank($0), number($0), $0.sysname) < (kindRank($1), locationRank($1), number($1), $1.sysname)
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
        guard sysname.hasPrefix("event"), let node = device.devnode,
              isAccelerometer(device), device.property("ID_INPUT_JOYSTICK") != "1" else { return nil }
        var notes: [String] = []
        var matrix = Matrix3.identity
        if let text = device.property("ACCEL_MOUNT_MATRIX") {
            do throws(SensorError) {
                matrix = try MountMatrix.parse(text)
            } catch {
                notes.append("\(error); using the identity")
            }
        }
        let parent = device.parent
        let name = parent?.attribute("name") ?? parent?.property("NAME")?.trimmingCharacters(["\""]) ?? sysname
        let info = SensorInfo(kind: .evdev, name: name, sysfsPath: device.syspath, deviceNode: node,
                              mountMatrix: matrix, location: location(property: device.property("ACCEL_LOCATION"),
                                                                      label: nil))
        return SensorCandidate(info: info, sysname: sysname, notes: notes)
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
