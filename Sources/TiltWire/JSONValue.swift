// SPDX-License-Identifier: GPL-3.0-or-later
/// A parsed JSON value. Numbers keep their text so that large integers (seeds)
/// survive exactly; objects keep their key order.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.bool(let x), .bool(let y)): x == y
        case (.number(let x), .number(let y)): x == y
        case (.string(let x), .string(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.object(let x), .object(let y)): x.map(\.key) == y.map(\.key) && x.map(\.value) == y.map(\.value)
        default: false
        }
    }

    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last(where: { $0.key == key })?.value
    }

    /// The value as an integer when it is whole and in range, whichever way it is
    /// written (`4`, `4.0`, `4e0`: `WholeNumber`).
    public var int: Int? {
        guard case .number(let text) = self else { return nil }
        return Int(text) ?? WholeNumber(json: text)?.int
    }

    /// The value as an unsigned 64-bit integer when it is whole and in range.
    public var uint64: UInt64? {
        guard case .number(let text) = self else { return nil }
        return UInt64(text) ?? WholeNumber(json: text)?.uint64
    }

    public var double: Double? {
        guard case .number(let text) = self else { return nil }
        return Double(text)
    }

    public var string: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    public var bool: Bool? {
        guard case .bool(let value) = self else { return nil }
        return value
    }

    /// The JSON type's name, for error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

/// A strict RFC 8259 parser over UTF-8 bytes, with a nesting limit.
public struct JSONParser {
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var offset: Int
        public var reason: String
        public var description: String { "\(reason) at byte \(offset)" }
    }

    public static let maxDepth = 32

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Parses one complete JSON text (surrounding white space allowed).
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes)
        parser.skipSpace()
        let value = try parser.value()
        parser.skipSpace()
        guard parser.index == bytes.count else { throw parser.fail("unexpected data after the value") }
        return value
    }

    public static func parse(_ text: String) throws(Failure) -> JSONValue {
        var copy = text
        let result = copy.withUTF8 { bytes in Result { () throws(Failure) in try parse(bytes) } }
        return try result.get()
    }

    private func fail(_ reason: String) -> Failure { Failure(offset: index, reason: reason) }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// JSON's white space: space, tab, line feed, carriage return.
    public static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private mutating func skipSpace() {
        while let c = current, Self.isWhitespace(c) { index += 1 }
    }

    private mutating func value() throws(Failure) -> JSONValue {
        guard let c = current else { throw fail("unexpected end") }
        switch c {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw fail("unexpected character")
        }
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw fail("unexpected end") }
        for i in 0..<count where bytes[index + i] != word.utf8Start[i] { throw fail("invalid literal") }
        index += count
    }

    private mutating func nest() throws(Failure) {
        depth += 1
        guard depth <= Self.maxDepth else { throw fail("nested deeper than \(Self.maxDepth)") }
    }

    private mutating func object() throws(Failure) -> JSONValue {
        try nest()
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        skipSpace()
        if current == UInt8(ascii: "}") { index += 1; depth -= 1; return .object(members) }
        while true {
            skipSpace()
            guard current == UInt8(ascii: "\"") else { throw fail("expected a string key") }
            let key = try string()
            skipSpace()
            guard current == UInt8(ascii: ":") else { throw fail("expected ':'") }
            index += 1
            skipSpace()
            members.append((key, try value()))
            skipSpace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; depth -= 1; return .object(members)
            default: throw fail("expected ',' or '}'")
            }
        }
    }

    private mutating func array() throws(Failure) -> JSONValue {
        try nest()
        index += 1
        var elements: [JSONValue] = []
        skipSpace()
        if current == UInt8(ascii: "]") { index += 1; depth -= 1; return .array(elements) }
        while true {
            skipSpace()
            elements.append(try value())
            skipSpace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; depth -= 1; return .array(elements)
            default: throw fail("expected ',' or ']'")
            }
        }
    }

    private mutating func number() throws(Failure) -> String {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        func digits(_ p: inout JSONParser) -> Int {
            let s = p.index
            while let c = p.current, c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") { p.index += 1 }
            return p.index - s
        }
        if current == UInt8(ascii: "0") {
            index += 1
        } else if digits(&self) == 0 {
            throw fail("invalid number")
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw fail("invalid number") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw fail("invalid number") }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    private mutating func string() throws(Failure) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flushRun(_ p: JSONParser, _ scalars: inout String.UnicodeScalarView) {
            scalars.append(contentsOf: String(decoding: UnsafeBufferPointer(rebasing: p.bytes[runStart..<p.index]),
                                              as: UTF8.self).unicodeScalars)
        }
        while let c = current {
            switch c {
            case UInt8(ascii: "\""):
                flushRun(self, &scalars)
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                flushRun(self, &scalars)
                index += 1
                scalars.append(try escape())
                runStart = index
            case 0..<0x20:
                throw fail("control character in string")
            default:
                index += 1
            }
        }
        throw fail("unterminated string")
    }

    private mutating func escape() throws(Failure) -> Unicode.Scalar {
        guard let c = current else { throw fail("unterminated escape") }
        index += 1
        switch c {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try hex4()
            if (0xD800..<0xDC00).contains(high) {
                guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                    throw fail("unpaired surrogate")
                }
                index += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw fail("unpaired surrogate") }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(high) else { throw fail("unpaired surrogate") }
            return scalar
        default:
            throw fail("invalid escape")
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let digit: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw fail("invalid \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
