// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCore

/// A message's placeholders (po/tiltpuzzle.pot, "For translators"), and a sentence read
/// back into its template's arguments.
struct MessageFormatTests {
    @Test func placeholdersAreFilledByPositionInAnyOrder() {
        #expect(MessageFormat.fill("{0} goes before the command: {1} {0}", ["--version", "tiltpuzzle"])
                == "--version goes before the command: tiltpuzzle --version")
        // A translation that puts the second argument first.
        #expect(MessageFormat.fill("auf dem Brett {1} gibt es keinen Stein {0}", ["17", "4×4"])
                == "auf dem Brett 4×4 gibt es keinen Stein 17")
        #expect(MessageFormat.fill("{1}", ["a", "b"]) == "b")
    }

    @Test func otherBracesAreText() {
        #expect(MessageFormat.fill("{x} {} {2} {0", ["a", "b"]) == "{x} {} {2} {0")
        #expect(MessageFormat.fill("{{0}}", ["a"]) == "{a}")
        // An argument's own braces are not read again.
        #expect(MessageFormat.fill("{0} {1}", ["{1}", "b"]) == "{1} b")
    }

    @Test func aSentenceIsReadBackIntoItsArguments() {
        let template = "index {0} is outside the {1}×{1} board"
        #expect(MessageFormat.arguments(of: template, in: "index 17 is outside the 4×4 board") == ["17", "4"])
        // The same placeholder twice must read the same text.
        #expect(MessageFormat.arguments(of: template, in: "index 17 is outside the 4×5 board") == nil)
        #expect(MessageFormat.arguments(of: template, in: "index 17 is outside the 4×4 board!") == nil)
        #expect(MessageFormat.arguments(of: "no placeholder", in: "no placeholder") == [])
        #expect(MessageFormat.arguments(of: "no placeholder", in: "no placeholders") == nil)
        // An argument may hold the text that follows its placeholder.
        #expect(MessageFormat.arguments(of: "{0} was done but could not be saved", in: "undo was done but was done but could not be saved")
                == ["undo was done but"])
        #expect(MessageFormat.arguments(of: "{1} before {0}", in: "b before a") == ["a", "b"])
    }

    @Test func aTranslatableTextKeepsItsTemplateAndArguments() {
        let text = TranslatableText("there is no tile {0} on a {1}×{1} board", 17, 4)
        #expect(text.english == "there is no tile 17 on a 4×4 board")
        #expect(text.arguments == ["17", "4"])
        #expect(TranslatableText("there is no tile {0} on a {1}×{1} board", 0, 0).reading(text.english) == text)
        #expect(TranslatableText("tile {0} is written twice", 0).reading(text.english) == nil)
    }
}
