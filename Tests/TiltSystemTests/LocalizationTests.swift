// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltSystem

/// The message markers and their placeholders (po/tiltpuzzle.pot, "For translators").
struct LocalizationTests {
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

    /// Without a catalog (none is opened in the tests), a message is its English msgid,
    /// and the plural follows English's rule.
    @Test func withoutACatalogTheEnglishIsSaid() {
        #expect(L("unknown command '{0}'", "bogus") == "unknown command 'bogus'")
        #expect(L.plural("{0} move", "{0} moves", 1) == "1 move")
        #expect(L.plural("{0} move", "{0} moves", 0) == "0 moves")
        #expect(L.plural("{0} move", "{0} moves", 21) == "21 moves")
        #expect(L.plural("{1}, {0} move", "{1}, {0} moves", 2, "1:02") == "1:02, 2 moves")
    }

    @Test func theCatalogsAreBesideTheProgramsFolderUnlessTheEnvironmentSays() {
        #expect(Localization.directory(environment: [:], executable: "/usr/bin/tiltpuzzle") == "/usr/share/locale")
        #expect(Localization.directory(environment: [:], executable: "/usr/local/bin/tiltpuzzle-gui") == "/usr/local/share/locale")
        #expect(Localization.directory(environment: ["TILTPUZZLE_LOCALEDIR": "/tmp/l"], executable: "/usr/bin/tiltpuzzle") == "/tmp/l")
        #expect(Localization.directory(environment: ["TILTPUZZLE_LOCALEDIR": ""], executable: nil) == "/usr/share/locale")
    }
}
