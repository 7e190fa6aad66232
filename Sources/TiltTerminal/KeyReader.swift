// SPDX-License-Identifier: GPL-3.0-or-later
import TiltClient
import TiltCore

/// Turns the bytes a terminal sends into keys. Pure: no I/O and no clock, so a
/// sequence split across reads (slow SSH links do that) is completed by the next
/// read instead of being guessed with a timeout.
public struct KeyReader: Sendable {
    private var pending: [UInt8] = []

    public init() {}

    private static let escape: UInt8 = 0x1B

    /// The keys `bytes` complete; an unfinished escape sequence waits for more bytes.
    public mutating func feed<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        var start = 0
        while start < pending.count {
            guard let (key, length) = Self.decode(pending[start...]) else { break }
            keys.append(key)
            start += length
        }
        pending.removeFirst(start)
        return keys
    }

    /// The first key in `bytes` and how many bytes it took; nil when it is incomplete.
    static func decode(_ bytes: ArraySlice<UInt8>) -> (Key, Int)? {
        guard let first = bytes.first else { return nil }
        switch first {
        case escape:
            return decodeEscape(bytes)
        case 0x20 ..< 0x7F:
            return (.character(Character(Unicode.Scalar(first))), 1)
        case 0x00 ..< 0x20, 0x7F:
            return (.control(first), 1)
        default:
            return (.other, 1)
        }
    }

    /// ESC [ … final (CSI), ESC O x (SS3, cursor keys in application mode), or a lone ESC.
    private static func decodeEscape(_ bytes: ArraySlice<UInt8>) -> (Key, Int)? {
        let start = bytes.startIndex
        guard bytes.count >= 2 else { return nil }
        let introducer = bytes[start + 1]
        switch introducer {
        case UInt8(ascii: "["):
            // Parameters and intermediates (0x20…0x3F), then one final byte (0x40…0x7E).
            var index = start + 2
            while index < bytes.endIndex, (0x20...0x3F).contains(bytes[index]) { index += 1 }
            guard index < bytes.endIndex else { return nil }
            let final = bytes[index]
            let length = index - start + 1
            guard (0x40...0x7E).contains(final) else { return (.other, length) }
            // Modifiers (ESC [ 1 ; 5 A for Ctrl-Up) do not change the direction.
            return (arrow(final).map(Key.arrow) ?? .other, length)
        case UInt8(ascii: "O"):
            guard bytes.count >= 3 else { return nil }
            return (arrow(bytes[start + 2]).map(Key.arrow) ?? .other, 3)
        default:
            // Escape followed by anything else: the Escape key, then that byte on its own.
            return (.escape, 1)
        }
    }

    private static func arrow(_ final: UInt8) -> Direction? {
        switch final {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        default: nil
        }
    }
}
