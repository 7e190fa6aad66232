// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TiltClient
import TiltCore
import TiltWire

/// The one keymap of `play` and the window (docs/client.md, "Keys").
@Suite struct KeymapTests {
    @Test func keysMapToActions() {
        for direction in Direction.allCases {
            #expect(UserAction(key: .arrow(direction)) == .send(.tilt(direction)))
        }
        #expect(UserAction(key: .character("u")) == .send(.undo))
        #expect(UserAction(key: .character("r")) == .send(.redo))
        #expect(UserAction(key: .character("n")) == .newGame)
        #expect(UserAction(key: .character("g")) == .chooseSize)
        #expect(UserAction(key: .character("c")) == .send(.calibrate))
        #expect(UserAction(key: .character("s")) == .cycleSensitivity)
        #expect(UserAction(key: .character("f")) == .toggleFullscreen)
        #expect(UserAction(key: .character("m")) == .toggleSound)
        #expect(UserAction(key: .character("q")) == .quit)
        #expect(UserAction(key: .escape) == .quit)
        #expect(UserAction(key: .enter) == nil)
        #expect(UserAction(key: .control(13)) == nil)
        #expect(UserAction(key: .other) == nil)
    }

    /// `h` meant left in `play` and the hint in the window; now it is the hint in both,
    /// and only the arrows slide.
    @Test func hIsTheHintAndOnlyTheArrowsSlide() {
        for key in ["h", "H", "?", "/"] {
            #expect(UserAction(key: .character(Character(key))) == .send(.hint), "\(key)")
        }
        for key in ["j", "k", "l"] {
            #expect(UserAction(key: .character(Character(key))) == nil, "\(key) does nothing")
        }
    }

    @Test func lettersAreCaseBlind() {
        for letter in "abcdefghijklmnopqrstuvwxyz" {
            #expect(UserAction(key: .character(letter)) == UserAction(key: .character(Character(letter.uppercased()))))
        }
    }

    @Test func sensitivityGoesRoundThePresets() {
        let presets = Sensitivity.Preset.self
        #expect(UserAction.nextSensitivity(after: presets.gentle.sensitivity) == presets.normal.sensitivity)
        #expect(UserAction.nextSensitivity(after: presets.normal.sensitivity) == presets.firm.sensitivity)
        #expect(UserAction.nextSensitivity(after: presets.firm.sensitivity) == presets.gentle.sensitivity)
        #expect(UserAction.nextSensitivity(after: Sensitivity(trigger: 33, release: 3)) == presets.normal.sensitivity)
        #expect(UserAction.nextSensitivity(after: nil) == presets.normal.sensitivity)
    }

    /// The keys docs/client.md's table lists, in backticks in its first column, are
    /// exactly the printable keys the keymap knows.
    @Test func theDocumentedKeysAreTheKeymap() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/client.md"), encoding: .utf8)
        let section = try #require(text.components(separatedBy: "\n## Keys\n").dropFirst().first)
        let rows = section.components(separatedBy: "\n").drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }.dropFirst(2)
        var documented: Set<Character> = []
        for row in rows {
            let first = row.components(separatedBy: "|")[1]
            for (index, piece) in first.components(separatedBy: "`").enumerated() where index % 2 == 1 {
                #expect(piece.count == 1, "one key per backtick pair: \(piece)")
                documented.formUnion(piece)
            }
        }
        let printable = (0x21...0x7E).map { Character(Unicode.Scalar(UInt8($0))) }
        let known = Set(printable.filter { UserAction(key: .character($0)) != nil && !$0.isUppercase })
        #expect(!documented.isEmpty)
        #expect(documented == known)
    }
}
