// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltGUI

/// A font without a language's letters is said once (docs/gui.md, Text).
struct FontCoverageTests {
    static func latinOnly(_ scalar: Unicode.Scalar) -> Bool { scalar.isASCII }

    @Test func theLettersAFontLacksAreNamedOnceInTheOrderMet() {
        let missing = FontCoverage.missing(in: ["Zurück", "Πίσω πίσω", "Öl ü"], provided: Self.latinOnly)
        #expect(missing.map { String(Character($0)) } == ["ü", "Π", "ί", "σ", "ω", "π", "Ö"])
        let line = FontCoverage.warning(font: "/fonts/Latin.ttf", missing: missing)
        #expect(line == "the font /fonts/Latin.ttf lacks letters of this language (ü Π ί σ ω): they show as boxes; pass --font with a font that has them")
    }

    @Test func aFontWithEveryLetterIsNotMentioned() {
        #expect(FontCoverage.missing(in: FontCoverage.sample, provided: { _ in true }).isEmpty)
        #expect(FontCoverage.warning(font: "/fonts/Full.ttf", missing: []) == nil)
        // English needs nothing beyond ASCII and the typographic marks the sample uses.
        #expect(FontCoverage.missing(in: FontCoverage.sample, provided: { $0.isASCII || $0 == "’" }).isEmpty)
    }
}
