// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltClient
import TiltCore
import TiltWire

/// A daemon's refusal read back by its template (docs/client.md, "Languages"); the
/// languages themselves are read by the built client (LocalizedClientTests).
struct RefusalTextTests {
    /// Without a catalog every sentence the daemon sends reads as the daemon wrote it.
    @Test(arguments: ErrorCode.allCases)
    func withoutACatalogTheDaemonsWordsAreKept(_ code: ErrorCode) {
        for sentence in Refusal.sentences(for: code) {
            #expect(RefusalText.text(code, sentence.english) == sentence.english)
        }
    }

    @Test func aSentenceIsFoundByItsTemplateWithItsArguments() {
        let sent = Refusal.cellOutsideBoard(17, side: 4).english
        #expect(sent == "index 17 is outside the 4×4 board")
        #expect(Refusal.sentences(for: .badArgument).compactMap { $0.reading(sent) } == [Refusal.cellOutsideBoard(17, side: 4)])
        #expect(Refusal.sentences(for: .saveFailed).compactMap { $0.reading("undo was done but could not be saved") }
                == [Refusal.notSaved("undo")])
        // The range a configure names comes from the one definition of the angles.
        #expect(Refusal.sentences(for: .badArgument).contains(Sensitivity.Problem.tooLittleHysteresis.text))
    }

    /// A sentence of a newer daemon, or one under another code, is shown as it came.
    @Test func anUnknownSentenceIsShownAsItCame() {
        #expect(RefusalText.text(.badArgument, "something new") == "something new")
        #expect(RefusalText.text(.unknown, Refusal.noSensor.english) == Refusal.noSensor.english)
        #expect(Refusal.sentences(for: .invalidJSON).isEmpty)
    }
}
