// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCore
import TiltSystem

/// The message markers and their placeholders (po/tiltpuzzle.pot, "For translators").
struct LocalizationTests {
    /// Without a catalog (none is opened in the tests), a message is its English msgid,
    /// and the plural follows English's rule.
    @Test func withoutACatalogTheEnglishIsSaid() {
        #expect(L("unknown command '{0}'", "bogus") == "unknown command 'bogus'")
        #expect(L.plural("{0} move", "{0} moves", 1) == "1 move")
        #expect(L.plural("{0} move", "{0} moves", 0) == "0 moves")
        #expect(L.plural("{0} move", "{0} moves", 21) == "21 moves")
        #expect(L.plural("{1}, {0} move", "{1}, {0} moves", 2, "1:02") == "1:02, 2 moves")
        #expect(L.translated(TranslatableText("tile {0} is written twice", 7)) == "tile 7 is written twice")
    }

    @Test func theCatalogsAreBesideTheProgramsFolderUnlessTheEnvironmentSays() {
        #expect(Localization.directory(environment: [:], executable: "/usr/bin/tiltpuzzle") == "/usr/share/locale")
        #expect(Localization.directory(environment: [:], executable: "/usr/local/bin/tiltpuzzle-gui") == "/usr/local/share/locale")
        #expect(Localization.directory(environment: ["TILTPUZZLE_LOCALEDIR": "/tmp/l"], executable: "/usr/bin/tiltpuzzle") == "/tmp/l")
        #expect(Localization.directory(environment: ["TILTPUZZLE_LOCALEDIR": ""], executable: nil) == "/usr/share/locale")
    }
}
