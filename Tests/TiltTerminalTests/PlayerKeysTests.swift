// SPDX-License-Identifier: GPL-3.0-or-later
import TestSupport
import Testing
import TiltClient
import TiltCore
import TiltSystem
import TiltTerminal
import TiltWire

/// A terminal's keys as the player's commands.
struct PlayerKeysTests {
    @Test func keysBecomeCommands() {
        var keys = PlayerKeys()
        let state = StatusLinesTests.solved
        #expect(keys.handle(.arrow(.left), game: state) == .send(.tilt(.left)))
        #expect(keys.handle(.character("h"), game: state) == .send(.hint), "h is the hint, as in the window")
        #expect(keys.handle(.character("k"), game: state) == .ignore, "only the arrows slide")
        #expect(keys.handle(.character("u"), game: state) == .send(.undo))
        #expect(keys.handle(.character("r"), game: state) == .send(.redo))
        #expect(keys.handle(.character("c"), game: state) == .send(.calibrate))
        #expect(keys.handle(.character("n"), game: state) == .send(.new(size: 4, seed: nil, shuffle: true)))
        #expect(keys.handle(.character("q"), game: state) == .quit)
        #expect(keys.handle(.character("x"), game: state) == .ignore)
        #expect(keys.handle(.escape, game: state) == .ignore, "a lone Escape is the start of an arrow key's code")
        #expect(keys.handle(.character("f"), game: state) == .ignore, "no full screen in a terminal")
        #expect(keys.handle(.character("g"), game: state) == .ignore, "no size question in a terminal")
        #expect(keys.handle(.character("m"), game: state) == .ignore, "no sound in a terminal")
    }

    /// The key line is one line of an 80-column terminal in every language of po/ too,
    /// and says the catalog's words, not the English ones.
    @Test(arguments: CompiledCatalog.languages)
    func theKeyLineFitsEightyColumnsIn(language: String) throws {
        let locale = CompiledCatalog.locale(of: language)
        let line = Localization.speaking(locale, catalogs: CompiledCatalog.directory) { PlayerKeys.help }
        let help = try #require(line, "no locale \(locale): scripts/setup generates it")
        #expect(!help.contains("quit"), "\(language): \(help)")
        #expect(help.count <= 80, "\(language): \(help.count) columns: \(help)")
    }

    /// s: the next sensitivity preset, as in the window.
    @Test func sensitivityCyclesThroughThePresets() {
        var keys = PlayerKeys()
        let gentle = Sensitivity.Preset.gentle.sensitivity, normal = Sensitivity.Preset.normal.sensitivity
        #expect(keys.handle(.character("s"), game: nil, settings: gentle)
                == .send(.configure(trigger: normal.trigger, release: normal.release)))
        #expect(keys.handle(.character("s"), game: nil, settings: nil)
                == .send(.configure(trigger: normal.trigger, release: normal.release)))
    }

    /// A new game throws away the one in progress: n asks first, a second n confirms, anything else keeps it.
    @Test func aNewGameInProgressAsksFirst() {
        var keys = PlayerKeys()
        let playing = StatusLinesTests.unsolved
        guard case .ask = keys.handle(.character("n"), game: playing) else {
            Issue.record("n did not ask")
            return
        }
        #expect(keys.handle(.character("n"), game: playing) == .send(.new(size: 2, seed: nil, shuffle: true)))
        _ = keys.handle(.character("n"), game: playing)
        #expect(keys.handle(.arrow(.up), game: playing) == .send(.tilt(.up)))
        #expect(keys.handle(.character("n"), game: playing) != .send(.new(size: 2, seed: nil, shuffle: true)))
    }
}
