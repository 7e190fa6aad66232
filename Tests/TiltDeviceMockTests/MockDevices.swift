// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TiltDevices
import TiltSystem

/// umockdev-record's text format: `P:` path, `N:` node, `E:` property, `A:` attribute.
/// Attribute values get the newline sysfs ends them with (libiio drops the last byte).
private func deviceText(path: String, node: String?, properties: [(String, String)],
                        attributes: [(String, String)]) -> String {
    var text = "P: \(path)\n"
    if let node { text += "N: \(node)\n" }
    for (key, value) in properties { text += "E: \(key)=\(value)\n" }
    for (key, value) in attributes { text += "A: \(key)=\(value)\\n\n" }
    return text + "\n"
}

/// A fake IIO accelerometer, optionally with scan elements, a node and a trigger.
struct MockIIODevice {
    let number: Int
    var name = "accel_3d"
    var attributes: [(String, String)] = []
    var properties: [(String, String)] = []
    var hasNode = true
    var hasTrigger = false

    var id: String { "iio:device\(number)" }
    var syspath: String { "/sys/devices/platform/mock-sensor.\(number)/iio:device\(number)" }
    var node: String { "/dev/iio:device\(number)" }
    var triggerName: String { "\(name)-dev\(number)" }

    /// Polled only: raw values and shared scale and offset.
    static func polled(_ number: Int, name: String = "accel_3d", scale: String = "0.5", offset: String = "0") -> MockIIODevice {
        MockIIODevice(number: number, name: name, attributes: [
            ("in_accel_x_raw", "0"), ("in_accel_y_raw", "0"), ("in_accel_z_raw", "0"),
            ("in_accel_scale", scale), ("in_accel_offset", offset), ("sampling_frequency", "20"),
        ], hasNode: false)
    }

    /// With scan elements `type` for x, y, z, a s64 timestamp, a buffer, and a trigger.
    static func buffered(_ number: Int, name: String = "accel_3d", type: String = "le:s16/32>>0") -> MockIIODevice {
        var device = MockIIODevice(number: number, name: name, hasTrigger: true)
        device.attributes = [
            ("in_accel_x_raw", "0"), ("in_accel_y_raw", "0"), ("in_accel_z_raw", "0"),
            ("in_accel_scale", "0.5"), ("in_accel_offset", "0"),
            ("sampling_frequency", "10"), ("sampling_frequency_available", "10 50 100"),
            ("current_timestamp_clock", "realtime"),
            ("buffer/enable", "0"), ("buffer/length", "2"), ("trigger/current_trigger", ""),
        ]
        for (index, axis) in ["x", "y", "z"].enumerated() {
            device.attributes += [("scan_elements/in_accel_\(axis)_en", "0"),
                                  ("scan_elements/in_accel_\(axis)_index", "\(index)"),
                                  ("scan_elements/in_accel_\(axis)_type", type)]
        }
        device.attributes += [("scan_elements/in_timestamp_en", "0"), ("scan_elements/in_timestamp_index", "3"),
                              ("scan_elements/in_timestamp_type", "le:s64/64>>0")]
        return device
    }

    /// Replaces an attribute's value, or adds it.
    func with(_ key: String, _ value: String) -> MockIIODevice {
        var copy = self
        if let index = copy.attributes.firstIndex(where: { $0.0 == key }) {
            copy.attributes[index].1 = value
        } else {
            copy.attributes.append((key, value))
        }
        return copy
    }

    var text: String {
        var props = [("SUBSYSTEM", "iio"), ("DEVTYPE", "iio_device")]
        if hasNode { props.append(("DEVNAME", node)) }
        var text = deviceText(path: String(syspath.dropFirst(4)), node: hasNode ? "iio:device\(number)" : nil,
                              properties: props + properties, attributes: [("name", name)] + attributes)
        if hasTrigger {
            text += deviceText(path: "/devices/platform/mock-sensor.\(number)/trigger\(number)", node: nil,
                               properties: [("SUBSYSTEM", "iio")], attributes: [("name", triggerName)])
        }
        return text
    }

    func plug(into testbed: MockTestbed = .shared) throws {
        try testbed.add(text)
    }

    func attribute(_ name: String) -> String? { MockTestbed.attribute(syspath, name) }

    /// The source discovery makes for it, as the daemon and `tiltpuzzle record` get theirs.
    func source() throws -> IIOSource {
        let candidate = try #require(SensorDiscovery.candidates(includeBase: true).first { $0.sysname == id },
                                     "discovery does not list \(id)")
        return try #require(candidate.makeSource() as? IIOSource)
    }
}

/// A fake evdev accelerometer: udev properties, and ioctl replies for libevdev's probe.
struct MockEvdevDevice {
    let number: Int
    var name = "Mock Accelerometer"
    var resolution: Int32 = 256
    var minimum: Int32 = -512
    var maximum: Int32 = 511
    /// The axis state EVIOCGABS reports (what a resync after SYN_DROPPED finds).
    var state: (Int32, Int32, Int32) = (10, -20, 256)
    var properties: [(String, String)] = [("ID_INPUT", "1"), ("ID_INPUT_ACCELEROMETER", "1")]
    var accelerometerProperty = true
    /// ABS_X, ABS_Y, ABS_Z; ABS_RX/RY/RZ are 0b111000.
    var axisBits: UInt64 = 0b111
    /// The input device's `id/bustype` (hex, as sysfs prints it), when given.
    var bus: String?
    /// `id/vendor` and `id/product` (hex, as sysfs prints them), when given.
    var ids: (vendor: String, product: String)?
    /// The axes `state`, minimum, maximum and resolution are for: ABS_X/Y/Z, unless
    /// the node has only ABS_RX/RY/RZ (a Wii Remote's); others read 0 over ±32767000
    /// (a gyroscope's).
    var accelerometerAxes: [Int] { axisBits & 0b111 == 0b111 ? [0, 1, 2] : [3, 4, 5] }

    var syspath: String { "/sys/devices/virtual/input/input\(number)/event\(number)" }
    var node: String { "/dev/input/event\(number)" }

    var text: String {
        deviceText(path: "/devices/virtual/input/input\(number)", node: nil,
                   properties: [("SUBSYSTEM", "input"), ("NAME", "\"\(name)\"")],
                   attributes: [("name", name), ("capabilities/abs", String(axisBits, radix: 16))]
                       + (bus.map { [("id/bustype", $0)] } ?? [])
                       + (ids.map { [("id/vendor", $0.vendor), ("id/product", $0.product)] } ?? []))
            + deviceText(path: "/devices/virtual/input/input\(number)/event\(number)", node: "input/event\(number)",
                         properties: [("SUBSYSTEM", "input"), ("DEVNAME", node)] + properties, attributes: [])
    }

    /// Replies to the ioctls libevdev makes; a reply matches only a request of
    /// exactly its length (64-bit: name 255 bytes, key bits 96, FF bits 16, others 8).
    var ioctls: String {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02X", $0) }.joined() }
        func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
        func bits(_ value: UInt64, _ length: Int) -> [UInt8] { le(value) + [UInt8](repeating: 0, count: length - 8) }
        let nameBytes = Array(name.utf8)
        var lines = ["@DEV \(node)",
                     "EVIOCGBIT(0) 8 " + hex(bits(1 << 0 | 1 << 3, 8)),   // EV_SYN, EV_ABS
                     "EVIOCGNAME \(nameBytes.count + 1) " + hex(nameBytes + [UInt8](repeating: 0, count: 255 - nameBytes.count)),
                     "EVIOCGID 0 " + hex(le(UInt16(0x18)) + le(UInt16(0x1234)) + le(UInt16(0x5678)) + le(UInt16(1))),
                     "EVIOCGVERSION 0 " + hex(le(Int32(0x010001))),
                     "EVIOCGPROP 8 " + hex(bits(accelerometerProperty ? 1 << 6 : 0, 8))]
        for (type, length) in [(1, 96), (2, 8), (3, 8), (4, 8), (5, 8), (0x11, 8), (0x12, 8), (0x15, 16)] {
            lines.append("EVIOCGBIT(\(type)) \(length) " + hex(bits(type == 3 ? axisBits : 0, length)))
        }
        lines += ["EVIOCGKEY 96 " + hex([UInt8](repeating: 0, count: 96)),
                  "EVIOCGLED 8 " + hex(bits(0, 8)), "EVIOCGSW 8 " + hex(bits(0, 8))]
        let values = [state.0, state.1, state.2]
        for axis in 0..<64 where axisBits & (1 << UInt64(axis)) != 0 {
            let gyroscope: [Int32] = [0, -32_767_000, 32_767_000, 10, 0, 14247]
            let info: [Int32] = accelerometerAxes.firstIndex(of: axis)
                .map { [values[$0], minimum, maximum, 0, 0, resolution] } ?? gyroscope
            lines.append("EVIOCGABS(\(axis)) 0 " + hex(info.flatMap { le($0) }))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func plug(into testbed: MockTestbed = .shared) throws {
        try testbed.add(text)
        try testbed.loadIoctl(node: node, records: ioctls)
    }

    /// A `struct input_event` as the kernel writes it on 64-bit Linux.
    static func event(_ type: UInt16, _ code: UInt16, _ value: Int32, seconds: Int64 = 100, microseconds: Int64 = 0) -> [UInt8] {
        func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
        return le(seconds) + le(microseconds) + le(type) + le(code) + le(value)
    }

    /// ABS_X/Y/Z (the given ones) and a SYN_REPORT.
    static func report(x: Int32? = nil, y: Int32? = nil, z: Int32? = nil) -> [UInt8] {
        var bytes: [UInt8] = []
        if let x { bytes += event(InputCode.absolute, InputCode.absX, x) }
        if let y { bytes += event(InputCode.absolute, InputCode.absY, y) }
        if let z { bytes += event(InputCode.absolute, InputCode.absZ, z) }
        return bytes + event(InputCode.synchronization, InputCode.report, 0)
    }

    /// ABS_RX/RY/RZ and a SYN_REPORT: a Wii Remote's accelerometer.
    static func rotationalReport(_ x: Int32, _ y: Int32, _ z: Int32) -> [UInt8] {
        event(InputCode.absolute, InputCode.absRX, x) + event(InputCode.absolute, InputCode.absRY, y)
            + event(InputCode.absolute, InputCode.absRZ, z) + event(InputCode.synchronization, InputCode.report, 0)
    }

    static let dropped = event(InputCode.synchronization, InputCode.dropped, 0)
}

/// Little-endian scan bytes as an IIO buffer holds them.
enum ScanBytes {
    /// x, y, z as `le:s16/32` with garbage in the upper 16 bits, then a s64 timestamp at offset 16.
    static func garbageUpper(_ x: Int16, _ y: Int16, _ z: Int16, timestamp: Int64) -> [UInt8] {
        func word(_ value: Int16, _ garbage: UInt32) -> [UInt8] {
            withUnsafeBytes(of: (garbage << 16 | UInt32(UInt16(bitPattern: value))).littleEndian, Array.init)
        }
        return word(x, 0xABCD) + word(y, 0x7FFF) + word(z, 0x8001) + [0xEE, 0xEE, 0xEE, 0xEE]
            + withUnsafeBytes(of: timestamp.littleEndian, Array.init)
    }
}
