// SPDX-License-Identifier: GPL-3.0-or-later
/// Writes one JSON object as a line, field by field, straight into bytes:
/// server messages are encoded once and the same bytes go to every client.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []
    private var first = true

    public init() {
        bytes.reserveCapacity(128)
        bytes.append(UInt8(ascii: "{"))
    }

    private mutating func key(_ name: StaticString) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    public mutating func field(_ name: StaticString, _ value: String) {
        key(name)
        Self.appendString(value, to: &bytes)
    }

    public mutating func field(_ name: StaticString, _ value: Int) {
        key(name)
        bytes.append(contentsOf: String(value).utf8)
    }

    public mutating func field(_ name: StaticString, _ value: UInt64) {
        key(name)
        bytes.append(contentsOf: String(value).utf8)
    }

    /// Non-finite doubles are written as null: JSON has no NaN.
    public mutating func field(_ name: StaticString, _ value: Double) {
        key(name)
        bytes.append(contentsOf: (value.isFinite ? "\(value)" : "null").utf8)
    }

    public mutating func field(_ name: StaticString, _ value: Bool) {
        key(name)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    public mutating func field(_ name: StaticString, _ values: [Int]) {
        key(name)
        bytes.append(UInt8(ascii: "["))
        for (i, value) in values.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: String(value).utf8)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    public mutating func field(_ name: StaticString, _ values: [Double]) {
        key(name)
        bytes.append(UInt8(ascii: "["))
        for (i, value) in values.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: (value.isFinite ? "\(value)" : "null").utf8)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    public mutating func field(_ name: StaticString, _ values: [String]) {
        key(name)
        bytes.append(UInt8(ascii: "["))
        for (i, value) in values.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            Self.appendString(value, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// A value that is already JSON (an echoed request id).
    public mutating func field(_ name: StaticString, raw value: JSONValue) {
        key(name)
        Self.append(value, to: &bytes)
    }

    /// The finished object with its `\n`.
    public consuming func line() -> [UInt8] {
        bytes.append(contentsOf: [UInt8(ascii: "}"), UInt8(ascii: "\n")])
        return bytes
    }

    static func append(_ value: JSONValue, to bytes: inout [UInt8]) {
        switch value {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let b): bytes.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let text): bytes.append(contentsOf: text.utf8)
        case .string(let s): appendString(s, to: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (i, e) in elements.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                append(e, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (i, m) in members.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                appendString(m.key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                append(m.value, to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    static func appendString(_ s: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

extension JSONValue {
    /// The value as compact JSON text.
    public var encoded: [UInt8] {
        var bytes: [UInt8] = []
        JSONWriter.append(self, to: &bytes)
        return bytes
    }
}
