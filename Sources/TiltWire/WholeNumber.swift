// SPDX-License-Identifier: GPL-3.0-or-later
/// A JSON number's value when it is a whole number, read exactly from its text.
///
/// JSON has one number type: `4`, `4.0`, `4e0` and `40e-1` are the same value, and
/// encoders differ in which they write, so each is a whole number wherever one is
/// expected (docs/protocol.md, "Numbers"). The text is read as digits and a power of
/// ten, never through a `Double`, so a seed near 2⁶⁴ stays exact.
struct WholeNumber: Equatable {
    var negative: Bool
    var magnitude: UInt64

    /// Nil when the text is not a JSON number, has a fraction, or its magnitude
    /// does not fit 64 bits.
    init?(json text: String) {
        var bytes = Array(text.utf8)[...]
        negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
        let whole = bytes.prefix(while: isDigit)
        bytes = bytes.dropFirst(whole.count)
        var fraction = ArraySlice<UInt8>()
        if bytes.first == UInt8(ascii: ".") {
            fraction = bytes.dropFirst().prefix(while: isDigit)
            // JSON wants a digit after the point: `1.` is not a number.
            guard !fraction.isEmpty else { return nil }
            bytes = bytes.dropFirst(1 + fraction.count)
        }
        var exponent = 0
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            let exponentNegative = bytes.first == UInt8(ascii: "-")
            if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
            let digits = bytes.prefix(while: isDigit)
            guard !digits.isEmpty else { return nil }
            bytes = bytes.dropFirst(digits.count)
            // Saturate: an exponent this large makes any non-zero value too big or fractional.
            for digit in digits { exponent = min(exponent * 10 + Int(digit - UInt8(ascii: "0")), 1_000_000) }
            if exponentNegative { exponent = -exponent }
        }
        guard !whole.isEmpty, bytes.isEmpty else { return nil }
        // The value is `significand × 10^scale`, the significand without leading zeros.
        var significand = Array((whole + fraction).drop { $0 == UInt8(ascii: "0") })[...]
        var scale = exponent - fraction.count
        if significand.isEmpty {
            magnitude = 0
            return
        }
        while scale < 0, significand.last == UInt8(ascii: "0") {
            significand = significand.dropLast()
            scale += 1
        }
        // Digits left after the point: not whole. UInt64 holds at most 20 digits.
        guard scale >= 0, significand.count + scale <= 20 else { return nil }
        var value: UInt64 = 0
        for digit in significand + repeatElement(UInt8(ascii: "0"), count: scale) {
            let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times10.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
            guard !overflow, !carry else { return nil }
            value = sum
        }
        magnitude = value
    }

    /// The value as an `Int`, if it fits.
    var int: Int? {
        if !negative { return magnitude <= UInt64(Int.max) ? Int(magnitude) : nil }
        if magnitude == UInt64(Int.max) + 1 { return Int.min }
        return magnitude <= UInt64(Int.max) ? -Int(magnitude) : nil
    }

    /// The value as a `UInt64`: nil when negative (`-0` is 0).
    var uint64: UInt64? { negative && magnitude != 0 ? nil : magnitude }
}
