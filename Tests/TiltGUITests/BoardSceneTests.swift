// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCore
import TiltGUI
import TiltWire

@Suite struct BoardSceneTests {
    static func state(_ puzzle: Puzzle, revision: Int = 1) -> ServerMessage {
        .state(GameState(puzzle: puzzle, revision: revision, time: 12))
    }

    /// Tile 14 sliding right into the gap of a solved 4×4 board: the first move from it.
    static func rightFromSolved(revision: Int = 2) -> ServerMessage {
        .move(revision: revision, move: Move(from: 14, to: 15, direction: .right), cause: .tilt, moves: 1, solved: false)
    }

    /// A scene showing a solved 4×4 board at revision 1.
    static func connectedScene() -> BoardScene {
        var scene = BoardScene()
        scene.connection = .connected
        let needsState = scene.receive(state(Puzzle(side: 4)))
        #expect(!needsState)
        return scene
    }

    @Test func aStateShowsItsBoardAtOnce() {
        let scene = Self.connectedScene()
        #expect(scene.animator?.board == Board(side: 4).values)
        #expect(!scene.isAnimating)
        #expect(scene.gameLine == "4×4   0 moves")
    }

    @Test func aMoveSlidesTheTile() {
        var scene = Self.connectedScene()
        let needsState = scene.receive(Self.rightFromSolved())
        #expect(!needsState)
        #expect(scene.isAnimating)
        #expect(scene.animator?.current?.tile == 14)
        #expect(scene.state?.empty == 14)
        #expect(scene.gameLine == "4×4   1 move")
    }

    @Test func aMissedRevisionAsksForTheState() {
        var scene = Self.connectedScene()
        let needsState = scene.receive(Self.rightFromSolved(revision: 3))
        #expect(needsState)
        #expect(!scene.isAnimating)
    }

    @Test func anIllegalTiltBumps() {
        var scene = Self.connectedScene()
        let needsState = scene.receive(.tilt(direction: .up, moved: false))
        #expect(!needsState)
        #expect(scene.isAnimating)
        #expect(scene.animator!.boardOffset == (0, 0))   // it starts from rest
        scene.advance(by: Animator.bumpDuration / 2)
        #expect(scene.animator!.boardOffset.y < 0)
    }

    @Test func aSwipeThatMovedNothingBumpsThatWay() {
        var scene = Self.connectedScene()
        scene.sent(.move(index: 0, direction: .left), id: 7)
        scene.sent(.undo, id: 8)
        _ = scene.receive(.reply(id: .number("8"), command: "undo", moved: 0))
        #expect(!scene.isAnimating)
        _ = scene.receive(.reply(id: .number("7"), command: "move", moved: 0))
        scene.advance(by: Animator.bumpDuration / 2)
        #expect(scene.animator!.boardOffset.x < 0)
    }

    @Test func anArrowKeyTiltThatMovedNothingBumpsThatWay() {
        var scene = Self.connectedScene()
        scene.sent(.tilt(.down), id: 9)
        _ = scene.receive(.reply(id: .number("9"), command: "tilt", moved: 0))
        scene.advance(by: Animator.bumpDuration / 2)
        #expect(scene.animator!.boardOffset.y > 0)
    }

    @Test func aRefusalIsShownUntilTheBoardChanges() {
        var scene = Self.connectedScene()
        _ = scene.receive(.error(id: .number("3"), code: .noSensor, message: "calibration needs a sensor sample"))
        #expect(scene.gameLine.hasSuffix("calibration needs a sensor sample"))
        _ = scene.receive(Self.rightFromSolved())
        #expect(!scene.gameLine.contains("calibration"))
    }

    @Test func solvedIsAnnouncedOnceTheLastTileHasLanded() {
        var puzzle = Puzzle(side: 4)
        _ = puzzle.tilt(.right)
        var scene = BoardScene()
        scene.connection = .connected
        _ = scene.receive(Self.state(puzzle, revision: 5))
        #expect(scene.solvedBanner == nil)
        _ = scene.receive(.move(revision: 6, move: Move(from: 15, to: 14, direction: .left), cause: .tilt, moves: 2, solved: true))
        _ = scene.receive(.solved(revision: 6, moves: 2, time: 83))
        #expect(scene.solvedBanner == nil)
        scene.advance(by: Animator.slideDuration)
        #expect(scene.solvedBanner == "Solved! 2 moves, 1:23")
    }

    @Test func aFreshUnshuffledBoardIsNotAnnounced() {
        #expect(Self.connectedScene().solvedBanner == nil)
    }

    @Test func theSensorIsAlwaysAccountedFor() {
        var scene = Self.connectedScene()
        #expect(scene.sensorLine == "")
        _ = scene.receive(.sensor(SensorReport(status: .absent)))
        #expect(scene.sensorLine.hasPrefix("no sensor"))
        _ = scene.receive(.sensor(SensorReport(status: .active, kind: "iio", name: "accel_3d")))
        #expect(scene.sensorLine == "sensor on: accel_3d")
        _ = scene.receive(.sensor(SensorReport(status: .error, kind: "iio", message: "device removed")))
        #expect(scene.sensorLine.hasPrefix("sensor lost: device removed"))
    }

    @Test func whileConnectingItSaysWhy() {
        var scene = Self.connectedScene()
        scene.disconnected(reason: "no tiltpuzzled is running (tried /run/x.sock).")
        #expect(scene.sensorLine == "connecting… no tiltpuzzled is running (tried /run/x.sock).")
        // The board stays, to be dimmed, until the daemon is back.
        #expect(scene.animator != nil)
    }

    @Test func theGreetingAfterAReconnectKeepsAnAnimationGoing() {
        var scene = Self.connectedScene()
        _ = scene.receive(Self.rightFromSolved())
        var puzzle = Puzzle(side: 4)
        _ = puzzle.tilt(.right)
        _ = scene.receive(Self.state(puzzle, revision: 2))
        #expect(scene.isAnimating)
        // A different board (a new game) replaces it at once.
        _ = scene.receive(Self.state(Puzzle(side: 3), revision: 3))
        #expect(!scene.isAnimating)
        #expect(scene.animator?.side == 3)
    }

    @Test func tilesShowTheirNumbersFromOne() {
        let scene = Self.connectedScene()
        #expect(scene.label(0) == "1")
        #expect(scene.label(14) == "15")
        #expect(scene.label(15) == "")
    }

    /// `new --board "1 2 3, 4 5 6, 7 _ 8"`, `slide 8`, `undo`, `redo`: the second solve
    /// sets no record, and the panel shows the records the first one set, not those of
    /// the greeting (none, or an older game's).
    @Test(arguments: [[], [SizeRecord(size: 3, bestTime: 41, fewestMoves: 27)]])
    func theSolvedPanelShowsTheRecordsAsTheDaemonHoldsThem(before: [SizeRecord]) {
        var scene = BoardScene()
        scene.connection = .connected
        var state = GameState(revision: 1, size: 3, board: [0, 1, 2, 3, 4, 5, 6, 8, 7], empty: 7, moves: 0, solved: false,
                              canUndo: false, canRedo: false, time: 0)
        state.records = before
        let left = { (revision: Int, cause: MoveCause) in
            ServerMessage.move(revision: revision, move: Move(from: 8, to: 7, direction: .left), cause: cause, moves: 1, solved: true)
        }
        let messages: [ServerMessage] = [
            .state(state), left(2, .command), .solved(revision: 2, moves: 1, time: 0.4, records: RecordNews(bestTime: true, fewestMoves: true)),
            .move(revision: 3, move: Move(from: 7, to: 8, direction: .right), cause: .undo, moves: 0, solved: false),
            left(4, .redo), .solved(revision: 4, moves: 1, time: 0.9),
        ]
        for message in messages { _ = scene.receive(message) }
        scene.advance(by: 10)
        #expect(scene.celebration?.lines == ["1 move, \(PlayTime.text(0.9))", "Best \(PlayTime.text(0.4)), 1 move",
                                             "New game: n or the New button"])
    }
}
