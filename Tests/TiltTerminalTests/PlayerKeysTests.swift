// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltClient
import TiltCore
import TiltTerminal
import TiltWire

/// The lines `watch` and `play` write under the board, from the client's game.
struct StatusLinesTests {
    /// The 4×4 board solved, as the daemon's greeting sends it.
    static let solved = GameState(revision: 7, size: 4, board: Array(0..<16), empty: 15, moves: 0, solved: true,
                                  canUndo: false, canRedo: false, time: 0)
    static let unsolved = GameState(revision: 3, size: 2, board: [0, 1, 3, 2], empty: 2, moves: 5, solved: false,
                                    canUndo: true, canRedo: false, time: 61.5)

    @Test func theFirstLineIsTheCountersAndTheTickingClock() {
        var game = ClientGame()
        game.apply(.state(Self.unsolved), at: 200)
        #expect(game.statusLines(at: 203.25).first == "5 moves   1:04")
        game.apply(.move(revision: 4, move: Move(from: 3, to: 2, direction: .left), cause: .command,
                         moves: 6, solved: true), at: 210)
        game.apply(.solved(revision: 4, moves: 6, time: 71), at: 210)
        #expect(game.statusLines(at: 500).first == "6 moves   1:11   SOLVED")
    }

    @Test func statusLinesShowTheSensorAndTheNotice() {
        var game = ClientGame()
        #expect(game.statusLines(at: 0).isEmpty)
        game.apply(.state(Self.solved), at: 0)
        game.apply(.sensor(SensorReport(status: .active, kind: "iio", name: "accel_3d", device: "iio:device0")), at: 0)
        game.apply(.error(id: .number("4"), code: .noSensor, message: "calibration needs a sensor sample"), at: 0)
        #expect(game.statusLines(at: 0) == ["0 moves   0:00   SOLVED", "", "sensor active: iio accel_3d (iio:device0)",
                                            "calibration needs a sensor sample"])
    }
}


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

struct ScreenFrameTests {
    @Test func drawsEachRowInPlaceWithReverseVideo() {
        let frame = ScreenFrame.draw([ScreenRow("ab"), ScreenRow("x<|y", highlights: [2 ..< 3, 1 ..< 2])])
        #expect(frame == "\u{1B}[1;1Hab\u{1B}[K\u{1B}[2;1Hx\u{1B}[7m<\u{1B}[27m\u{1B}[7m|\u{1B}[27my\u{1B}[K")
    }

    @Test func entersAndLeavesTheAlternateScreen() {
        #expect(ScreenFrame.enter.contains("\u{1B}[?1049h") && ScreenFrame.enter.contains("\u{1B}[?25l"))
        #expect(ScreenFrame.leave.description.contains("\u{1B}[?1049l") && ScreenFrame.leave.description.contains("\u{1B}[?25h"))
    }
}
