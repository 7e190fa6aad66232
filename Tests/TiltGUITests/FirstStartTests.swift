// SPDX-License-Identifier: GPL-3.0-or-later
import TestSupport
import Testing
import TiltGUI
import TiltSystem

/// The first-start card (docs/gui.md, First start): where the mark that it was seen is
/// kept, by the XDG base-directory rule, and its words, which the catalogs translate.
@Suite struct FirstStartTests {
    @Test func theMarkIsInTheStateHome() {
        #expect(FirstStart.markerPath(environment: ["XDG_STATE_HOME": "/state", "HOME": "/home/ann"])
                == "/state/tiltpuzzle/welcomed")
        #expect(FirstStart.markerPath(environment: ["HOME": "/home/ann"]) == "/home/ann/.local/state/tiltpuzzle/welcomed")
        // The XDG spec: a relative XDG_STATE_HOME is invalid, and ignored.
        #expect(FirstStart.markerPath(environment: ["XDG_STATE_HOME": "state", "HOME": "/home/ann"])
                == "/home/ann/.local/state/tiltpuzzle/welcomed")
        #expect(FirstStart.markerPath(environment: ["XDG_STATE_HOME": "", "HOME": "/home/ann"])
                == "/home/ann/.local/state/tiltpuzzle/welcomed")
    }

    @Test func withoutAnAbsoluteStateHomeOrHomeThereIsNoMark() {
        #expect(FirstStart.markerPath(environment: [:]) == nil)
        #expect(FirstStart.markerPath(environment: ["HOME": "home/ann"]) == nil)
        #expect(FirstStart.markerPath(environment: ["XDG_STATE_HOME": "state", "HOME": ""]) == nil)
    }

    @Test func theCardSaysHowToPlayAndHowToGoOn() {
        #expect(FirstStart.title == "How to play")
        #expect(FirstStart.paragraphs.count == 3)
        #expect(FirstStart.paragraphs.allSatisfy { !$0.isEmpty && $0.hasSuffix(".") })
        #expect(FirstStart.paragraphs.contains { $0.contains("Tilt") } && FirstStart.paragraphs.contains { $0.contains("tap") })
        #expect(FirstStart.dismiss == "Tap anywhere to play")
    }

    @Test func theCardsWordsAreTheCatalogs() throws {
        let words = Localization.speaking("de_DE.UTF-8", catalogs: CompiledCatalog.directory) {
            [FirstStart.title, FirstStart.dismiss] + FirstStart.paragraphs
        }
        let german = try #require(words, "no locale de_DE.UTF-8: scripts/setup generates it")
        #expect(german[0] == "So wird gespielt")
        let english = [FirstStart.title, FirstStart.dismiss] + FirstStart.paragraphs
        #expect(zip(german, english).allSatisfy { $0 != $1 }, "\(german)")
    }
}
