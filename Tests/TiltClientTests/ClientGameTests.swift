// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltClient
import TiltCore
import TiltWire

/// The model both views render, fed the daemon's messages: what `play` and the window
/// would show, without a terminal or a window.
struct ClientGameTests {
    /// The 4×4 board solved, as the daemon's greeting sends it.
    static let solved = GameState(revision: 7, size: 4, board: Array(0..<16), empty: 15, moves: 0, solved: true,
                                  canUndo: false, canRedo: false, time: 0)
    static let unsolved = GameState(revision: 3, size: 2, board: [0, 1, 3, 2], empty: 2, moves: 5, solved: false,
                                    canUndo: true, canRedo: false, time: 61.5)
    /// 1 2 3 | 4 5 6 | _ 7 8: two tilts left; the tile to slide is labelled 7 (value 6), in cell 7.
    static let hintable = GameState(revision: 5, size: 3, board: [0, 1, 2, 3, 4, 5, 8, 6, 7], empty: 6, moves: 0,
                                    solved: false, canUndo: false, canRedo: false, time: 0)

    static func rightFromSolved(revision: Int = 8) -> ServerMessage {
        .move(revision: revision, move: Move(from: 14, to: 15, direction: .right), cause: .tilt, moves: 1, solved: false)
    }

    @Test func eachEventIsOneLineAndUpdatesTheBoard() {
        var game = ClientGame()
        #expect(game.apply(.hello(version: "1"), at: 0).line == nil)
        #expect(game.apply(.state(Self.solved), at: 0).line
                == "state 7: 4×4, 0 moves, 0:00 played, solved; board 1 2 3 4, 5 6 7 8, 9 10 11 12, 13 14 15 _")
        #expect(game.apply(.tilt(direction: .right, moved: true), at: 1).line == "tilt right")
        let move = game.apply(Self.rightFromSolved(), at: 1)
        #expect(move.outcome == .updated)
        #expect(move.line == "move 8: tile 15 right, cell 14→15 (tilt), 1 move")
        #expect(game.state?.board[15] == 14 && game.state?.empty == 14)
        #expect(game.lastTilt == .init(direction: .right, blocked: false))
        #expect(game.lastEvent == "tile 15 slid right (tilt)")
        #expect(game.apply(.sensor(SensorReport(status: .absent)), at: 1).line == "sensor absent")
        #expect(game.apply(.reply(id: .number("1"), command: "tilt", moved: 1), at: 1).line == nil)
    }

    @Test func anIllegalTiltIsABump() {
        var game = ClientGame()
        game.apply(.state(Self.solved), at: 0)
        let tilt = game.apply(.tilt(direction: .left, moved: false), at: 0)
        #expect(tilt.line == "tilt left: nothing can slide that way")
        #expect(tilt.bumped == .left)
        #expect(game.lastTilt == .init(direction: .left, blocked: true))
        #expect(game.state == Self.solved)
    }

    /// A tilt (a key) or a move (a swipe) this client sent that moved nothing bumps too.
    @Test func aRequestThatMovedNothingIsABump() {
        var game = ClientGame()
        game.apply(.state(Self.solved), at: 0)
        game.sent(.tilt(.up), id: 1)
        game.sent(.move(index: 0, direction: .left), id: 2)
        game.sent(.tilt(.down), id: 3)
        #expect(game.apply(.reply(id: .number("1"), command: "tilt", moved: 0), at: 0).bumped == .up)
        #expect(game.lastTilt == .init(direction: .up, blocked: true))
        #expect(game.lastEvent == "up: nothing can slide that way")
        #expect(game.apply(.reply(id: .number("2"), command: "move", moved: 0), at: 0).bumped == .left)
        #expect(game.apply(.reply(id: .number("3"), command: "tilt", moved: 1), at: 0).bumped == nil)
        #expect(game.apply(.reply(id: .number("2"), command: "move", moved: 0), at: 0).bumped == nil, "answered once")
    }

    @Test func aGapInTheRevisionsAsksForTheState() {
        var game = ClientGame()
        game.apply(.state(Self.solved), at: 0)
        let skipped = game.apply(Self.rightFromSolved(revision: 9), at: 0)
        #expect(skipped.outcome == .needsState)
        #expect(skipped.line == "move 9: a tile right, cell 14→15 (tilt), 1 move", "no tile number read from a stale board")
        #expect(game.state == Self.solved)
    }

    /// The clock goes on from the daemon's last word while the game is unsolved, and stops on solved.
    @Test func theClockTicksOnlyWhileTheGameIsInPlay() {
        var game = ClientGame()
        game.apply(.state(Self.solved), at: 100)
        #expect(game.secondsToNextTick(at: 105) == nil, "a solved game's clock stands")
        #expect(game.elapsed(at: 105) == 0)

        game.apply(.state(Self.unsolved), at: 200)
        #expect(game.elapsed(at: 203.25) == 64.75)
        #expect(game.secondsToNextTick(at: 203.25) == 0.25)

        game.apply(.move(revision: 4, move: Move(from: 3, to: 2, direction: .left), cause: .command,
                         moves: 6, solved: true), at: 210)
        #expect(game.secondsToNextTick(at: 210) == nil)
        game.apply(.solved(revision: 4, moves: 6, time: 71), at: 210)
        #expect(game.elapsed(at: 500) == 71)
        #expect(game.solvedTime == 71)
        #expect(game.lastEvent == "solved in 6 moves, 1:11")

        // Undo after the solve: the daemon's clock runs again, so does ours.
        game.apply(.move(revision: 5, move: Move(from: 2, to: 3, direction: .right), cause: .undo,
                         moves: 5, solved: false), at: 600)
        #expect(game.elapsed(at: 602) == 73)
        #expect(game.secondsToNextTick(at: 602) == 1)
    }

    @Test func aSolveKeepsItsTimeAndRecordsUntilAnUnsolvedBoard() {
        var game = ClientGame()
        game.apply(.state(Self.unsolved), at: 0)
        #expect(game.solvedTime == nil && game.solvedNews == nil)
        game.apply(.solved(revision: 4, moves: 6, time: 71, records: RecordNews(bestTime: true, fewestMoves: false)), at: 1)
        #expect(game.solvedTime == 71)
        #expect(game.solvedNews == RecordNews(bestTime: true, fewestMoves: false))
        game.apply(.state(Self.unsolved), at: 2)
        #expect(game.solvedTime == nil && game.solvedNews == nil)
    }

    /// What the daemon refused, and what a reply said, show until the board changes.
    @Test func aNoticeShowsUntilTheBoardChanges() {
        var game = ClientGame()
        game.apply(.state(Self.solved), at: 0)
        game.apply(.error(id: .number("4"), code: .noSensor, message: "calibration needs a sensor sample"), at: 0)
        #expect(game.notice == "calibration needs a sensor sample")
        game.apply(Self.rightFromSolved(), at: 0)
        #expect(game.notice == nil)
        game.sent(.undo, id: 5)
        game.sent(.redo, id: 6)
        game.apply(.reply(id: .number("6"), command: "redo", moved: 0), at: 0)
        #expect(game.notice == "nothing to redo")
        game.apply(.reply(id: .number("5"), command: "undo", moved: 0), at: 0)
        #expect(game.notice == "nothing to undo")
        game.sent(.calibrate, id: 7)
        game.apply(.reply(id: .number("7"), command: "calibrate", moved: nil), at: 0)
        #expect(game.notice == "calibrated: this pose is now neutral")
        game.apply(.state(Self.solved), at: 0)
        #expect(game.notice == nil)
        #expect(game.apply(.calibrated(auto: true), at: 0).line == "the pose you hold is now neutral (held still at the start)")
        #expect(game.notice == "the pose you hold is now neutral (held still at the start)")
    }

    @Test func theHintIsTrackedAndItsTileNamed() {
        var game = ClientGame()
        game.apply(.state(Self.hintable), at: 0)
        game.sent(.hint, id: 4)
        #expect(game.isThinking)
        #expect(game.hintedTile == nil)
        game.apply(.hint(id: .number("4"), hint: Hint(solution: [.left, .left], optimal: true, revision: 5)), at: 0)
        #expect(!game.isThinking)
        #expect(game.hintedCell == 7)
        #expect(game.hintedTile == 6 && game.label(6) == "7")
        game.apply(.move(revision: 6, move: Move(from: 7, to: 6, direction: .left), cause: .tilt, moves: 1, solved: false), at: 0)
        #expect(game.hintedTile == 7)
        game.disconnected()
        #expect(game.hintedTile == nil)
    }

    /// The board moved while the daemon thought: the answer is for another board, and the player is told.
    @Test func aHintForABoardGoneIsDroppedWithANotice() {
        var game = ClientGame()
        game.apply(.state(Self.hintable), at: 0)
        game.sent(.hint, id: 4)
        game.apply(.move(revision: 6, move: Move(from: 7, to: 6, direction: .left), cause: .tilt, moves: 1, solved: false), at: 0)
        game.apply(.hint(id: .number("4"), hint: Hint(solution: [.left, .left], optimal: true, revision: 5)), at: 0)
        #expect(game.hintedTile == nil && !game.isThinking)
        #expect(game.notice == "the board changed meanwhile: ask for the hint again")
    }

    @Test func theSensitivityIsNamedAndCycled() {
        var game = ClientGame()
        #expect(game.sensitivityName == "…")
        game.apply(.settings(Sensitivity.Preset.firm.sensitivity), at: 0)
        #expect(game.sensitivityName == "firm")
        #expect(game.nextSensitivity == Sensitivity.Preset.gentle.sensitivity)
        #expect(game.apply(.settings(Sensitivity(trigger: 30, release: 5)), at: 0).line
                == "sensitivity: tilt 30° to move, back under 5° to re-arm")
        #expect(game.sensitivityName == "custom")
    }
}
