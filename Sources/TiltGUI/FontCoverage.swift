// SPDX-License-Identifier: GPL-3.0-or-later
import TiltSystem

/// Whether a font has the letters the window's words use in the player's language: a
/// `--font` made for Latin alone would draw Greek or Cyrillic labels as empty boxes,
/// so the window says so once, in one line, and plays on (docs/gui.md, Text).
public enum FontCoverage {
    /// Words the window shows, in the player's language: the buttons, the first-start card, the solved panel.
    public static var sample: [String] {
        Control.allCases.map(\.word) + [FirstStart.title, FirstStart.dismiss, L("Solved!")] + FirstStart.paragraphs
    }

    /// The characters of `texts` the font does not provide, each once, in the order met;
    /// spaces need no glyph.
    public static func missing(in texts: [String], provided: (Unicode.Scalar) -> Bool) -> [Unicode.Scalar] {
        var seen: Set<Unicode.Scalar> = []
        var missing: [Unicode.Scalar] = []
        for scalar in texts.joined().unicodeScalars where !scalar.properties.isWhitespace && !seen.contains(scalar) {
            seen.insert(scalar)
            if !provided(scalar) { missing.append(scalar) }
        }
        return missing
    }

    /// The one line for a font that lacks `missing`, naming a few of them; nil when nothing is missing.
    public static func warning(font: String, missing: [Unicode.Scalar]) -> String? {
        guard !missing.isEmpty else { return nil }
        let some = missing.prefix(5).map { String(Character($0)) }.joined(separator: " ")
        return L("the font {0} lacks letters of this language ({1}): they show as boxes; pass --font with a font that has them",
                 font, some)
    }
}
