// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import TiltWire

/// A JSON number read as a whole number from its text (docs/protocol.md, "Numbers"):
/// its sign and magnitude exactly, through digits and a power of ten, never a `Double`.
/// (`RequestArgumentTests` reads the same texts through a request's arguments.)
@Suite struct WholeNumberTests {
    @Test(arguments: [
        ("12", false, 12), ("-12", true, 12), ("1.2e1", false, 12), ("120e-1", false, 12), ("12.000", false, 12),
        ("1200E-2", false, 12), ("0.012e+3", false, 12), ("0", false, 0), ("-0.0e7", true, 0), ("000.000", false, 0),
        ("1e19", false, 10_000_000_000_000_000_000), ("18446744073709551615", false, UInt64.max),
        ("184467440737095516150e-1", false, UInt64.max),
    ] as [(String, Bool, UInt64)])
    func signAndMagnitudeAreReadExactly(text: String, negative: Bool, magnitude: UInt64) {
        let number = WholeNumber(json: text)
        #expect(number?.negative == negative)
        #expect(number?.magnitude == magnitude)
    }

    @Test(arguments: ["", "-", "+1", ".5", "1e", "1e+", "1e-", "1x", " 1", "1 ", "0x10", "NaN", "--1", "1.2.3", "1.", "1.e3", "-0."])
    func whatIsNotANumberIsNil(text: String) {
        #expect(WholeNumber(json: text) == nil)
    }

    @Test(arguments: ["1.5", "15e-1", "1e-1", "0.0001", "18446744073709551616", "1e20", "184467440737095516160e-1",
                      "1e999999999999999999999"])
    func fractionsAndWhatOverflowsSixtyFourBitsAreNil(text: String) {
        #expect(WholeNumber(json: text) == nil)
    }

    @Test func zeroTimesAnyPowerOfTenIsZero() {
        for text in ["0e999999999999999999999", "0e-999999999999999999999", "0.000e5"] {
            #expect(WholeNumber(json: text)?.magnitude == 0, "\(text)")
        }
    }

    @Test func asAnIntTheLowestIsOneFurtherFromZeroThanTheHighest() {
        #expect(WholeNumber(json: "9223372036854775807")?.int == Int.max)
        #expect(WholeNumber(json: "9223372036854775808")?.int == .some(nil))
        #expect(WholeNumber(json: "-9223372036854775808")?.int == Int.min)
        #expect(WholeNumber(json: "-9223372036854775809")?.int == .some(nil))
        #expect(WholeNumber(json: "-7")?.int == -7)
        #expect(WholeNumber(json: "-0")?.int == 0)
    }

    @Test func asAUInt64OnlyMinusZeroIsNegative() {
        #expect(WholeNumber(json: "18446744073709551615")?.uint64 == UInt64.max)
        #expect(WholeNumber(json: "-0")?.uint64 == 0)
        #expect(WholeNumber(json: "-1")?.uint64 == .some(nil))
        #expect(WholeNumber(json: "-18446744073709551615")?.uint64 == .some(nil))
    }
}
