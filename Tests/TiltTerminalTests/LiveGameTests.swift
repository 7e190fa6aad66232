import Testing
import TiltCore
import TiltTerminal
import TiltWire

struct LiveGameTests {
    /// The 4×4 board solved, as the daemon's greeting sends it.
    static let solved = GameState(revision: 7, size: 4, board: Array(0..<16), empty: 15, moves: 0, solved: true,
                                  canUndo: false, canRedo: false, time: 0)
    static let unsolved = GameState(revision: 3, size: 2, board: [0, 1, 3, 2], empty: 2, moves: 5, solved: false,
                                    canUndo: true, canRedo: false, time: 61.5)

    @Test func eachEventIsOneLineAndUpdatesTheBoard() {
        var game = LiveGame()
        #expect(game.apply(.hello(version: "1"), at: 0).line == nil)
        #expect(game.apply(.state(Self.solved), at: 0).line
                == "state 7: 4×4, 0 moves, 0:00 played, solved; board 1 2 3 4, 5 6 7 8, 9 10 11 12, 13 14 15 _")
        #expect(game.apply(.tilt(direction: .right, moved: true), at: 1).line == "tilt right")
        let move = game.apply(.move(revision: 8, move: Move(from: 14, to: 15, direction: .right), cause: .tilt,
                                    moves: 1, solved: false), at: 1)
        #expect(move.outcome == .updated)
        #expect(move.line == "move 8: tile 15 right, cell 14→15 (tilt), 1 move")
        #expect(game.state?.board[15] == 14 && game.state?.empty == 14)
        #expect(game.lastTilt == .init(direction: .right, blocked: false))
        #expect(game.lastEvent == "tile 15 slid right (tilt)")
        #expect(game.apply(.sensor(SensorReport(status: .absent)), at: 1).line == "sensor absent")
        #expect(game.apply(.reply(id: .number("1"), command: "tilt", moved: 1), at: 1).line == nil)
    }

    @Test func anIllegalTiltIsABump() {
        var game = LiveGame()
        _ = game.apply(.state(Self.solved), at: 0)
        let tilt = game.apply(.tilt(direction: .left, moved: false), at: 0)
        #expect(tilt.line == "tilt left: nothing can slide that way")
        #expect(game.lastTilt == .init(direction: .left, blocked: true))
        #expect(game.state == Self.solved)
        game.bump(.up)
        #expect(game.lastTilt == .init(direction: .up, blocked: true))
    }

    @Test func aGapInTheRevisionsAsksForTheState() {
        var game = LiveGame()
        _ = game.apply(.state(Self.solved), at: 0)
        let skipped = game.apply(.move(revision: 9, move: Move(from: 14, to: 15, direction: .right), cause: .tilt,
                                       moves: 1, solved: false), at: 0)
        #expect(skipped.outcome == .needsState)
        #expect(skipped.line == "move 9: a tile right, cell 14→15 (tilt), 1 move", "no tile number read from a stale board")
        #expect(game.state == Self.solved)
    }

    /// The clock goes on from the daemon's last word while the game is unsolved, and stops on solved.
    @Test func theClockTicksOnlyWhileTheGameIsInPlay() {
        var game = LiveGame()
        _ = game.apply(.state(Self.solved), at: 100)
        #expect(game.secondsToNextTick(at: 105) == nil, "a solved game's clock stands")
        #expect(game.elapsed(at: 105) == 0)

        _ = game.apply(.state(Self.unsolved), at: 200)
        #expect(game.elapsed(at: 203.25) == 64.75)
        #expect(game.secondsToNextTick(at: 203.25) == 0.25)
        #expect(game.statusLines(at: 203.25).first == "5 moves   1:04")

        _ = game.apply(.move(revision: 4, move: Move(from: 3, to: 2, direction: .left), cause: .command,
                             moves: 6, solved: true), at: 210)
        #expect(game.secondsToNextTick(at: 210) == nil)
        _ = game.apply(.solved(revision: 4, moves: 6, time: 71), at: 210)
        #expect(game.elapsed(at: 500) == 71)
        #expect(game.statusLines(at: 500).first == "6 moves   1:11   SOLVED")
        #expect(game.lastEvent == "solved in 6 moves, 1:11")

        // Undo after the solve: the daemon's clock runs again, so does ours.
        _ = game.apply(.move(revision: 5, move: Move(from: 2, to: 3, direction: .right), cause: .undo,
                             moves: 5, solved: false), at: 600)
        #expect(game.elapsed(at: 602) == 73)
        #expect(game.secondsToNextTick(at: 602) == 1)
    }

    @Test func statusLinesShowTheSensorAndTheNotice() {
        var game = LiveGame()
        #expect(game.statusLines(at: 0).isEmpty)
        _ = game.apply(.state(Self.solved), at: 0)
        _ = game.apply(.sensor(SensorReport(status: .active, kind: "iio", name: "accel_3d", device: "iio:device0")), at: 0)
        _ = game.apply(.error(id: .number("4"), code: .noSensor, message: "calibration needs a sensor sample"), at: 0)
        #expect(game.statusLines(at: 0) == ["0 moves   0:00   SOLVED", "", "sensor active: iio accel_3d (iio:device0)",
                                            "calibration needs a sensor sample"])
    }
}

struct PlayerKeysTests {
    @Test func keysBecomeCommands() {
        var keys = PlayerKeys()
        let state = LiveGameTests.solved
        #expect(keys.handle(.arrow(.left), game: state) == .send(.tilt(.left)))
        #expect(keys.handle(.character("k"), game: state) == .send(.tilt(.up)))
        #expect(keys.handle(.character("u"), game: state) == .send(.undo))
        #expect(keys.handle(.character("r"), game: state) == .send(.redo))
        #expect(keys.handle(.character("c"), game: state) == .send(.calibrate))
        #expect(keys.handle(.character("n"), game: state) == .send(.new(size: 4, seed: nil, shuffle: true)))
        #expect(keys.handle(.character("q"), game: state) == .quit)
        #expect(keys.handle(.character("x"), game: state) == .ignore)
        #expect(keys.handle(.escape, game: state) == .ignore)
    }

    /// A new game throws away the one in progress: n asks first, a second n confirms, anything else keeps it.
    @Test func aNewGameInProgressAsksFirst() {
        var keys = PlayerKeys()
        let playing = LiveGameTests.unsolved
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
