/// Parses a decimal number from ASCII bytes, fast for the short numbers traces hold.
///
/// Numbers with at most 15 significant digits and a small exponent take the exact
/// fast path (an integer and a power of ten, both exact doubles, one correctly
/// rounded operation); anything else goes to the standard library's parser.
enum DecimalParser {
    private static let powersOfTen: [Double] = (0...22).map { n in
        var p = 1.0
        for _ in 0..<n { p *= 10 }
        return p
    }

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
        while i < n, let d = digit(bytes[i]) {
            mantissa = mantissa &* 10 &+ d
            if mantissa != 0 { digits += 1 }
            sawDigit = true
            i += 1
        }
        if i < n, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < n, let d = digit(bytes[i]) {
                mantissa = mantissa &* 10 &+ d
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
        let value = Double(mantissa) / powersOfTen[-scale]
        return negative ? -value : value
    }

    private static func digit(_ byte: UInt8) -> UInt64? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? UInt64(byte - UInt8(ascii: "0")) : nil
    }

    private static func slowPath(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        Double(String(decoding: bytes, as: UTF8.self))
    }
}
