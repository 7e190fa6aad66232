// SPDX-License-Identifier: GPL-3.0-or-later
/// Parses a decimal number from ASCII bytes, fast for the short numbers traces hold.
///
/// Numbers with at most 15 significant digits and a small exponent take the exact
/// fast path (an integer and a power of ten, both exact doubles, one correctly
/// rounded operation); anything else goes to the standard library's parser.
enum DecimalParser {
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0
        let n = bytes.count
        guard n > 0 else { return nil }
        var negative = false
        if bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
            negative = bytes[0] == UInt8(ascii: "-")
            i = 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var scale = 0
        var sawDigit = false
        while i < n, bytes[i] &- UInt8(ascii: "0") < 10 {
            mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- UInt8(ascii: "0"))
            if mantissa != 0 { digits += 1 }
            sawDigit = true
            i += 1
        }
        if i < n, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < n, bytes[i] &- UInt8(ascii: "0") < 10 {
                mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- UInt8(ascii: "0"))
                if mantissa != 0 { digits += 1 }
                scale -= 1
                sawDigit = true
                i += 1
            }
        }
        guard sawDigit else { return slowPath(bytes) }
        if i < n {
            guard bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") else { return nil }
            return slowPath(bytes)
        }
        guard digits <= 15, scale >= -22 else { return slowPath(bytes) }
        // 10^k for k ≤ 22 is an exact double, and so is every partial product here.
        var power = 1.0
        for _ in 0..<(-scale) { power *= 10 }
        let value = Double(mantissa) / power
        return negative ? -value : value
    }

    private static func slowPath(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        Double(String(decoding: bytes, as: UTF8.self))
    }
}
