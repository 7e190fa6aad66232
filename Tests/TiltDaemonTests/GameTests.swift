// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCore
@testable import TiltDaemon
import TiltWire

@Suite struct GameTests {
    @Test func theClockRunsOnlyWhileAttachedAndUnsolved() {
        var game = Game(puzzle: Puzzle.newGame(side: 2, seed: 1), detector: TiltDetector())
        #expect(game.playTime(at: 10) == 0)
        game.setAttached(true, at: 10)
        #expect(game.playTime(at: 15) == 5)
        game.setAttached(false, at: 15)
        #expect(game.playTime(at: 100) == 5)
        game.setAttached(true, at: 100)
        #expect(game.playTime(at: 101) == 6)
    }

    @Test func solvingStopsTheClockAndAnnouncesIt() {
        var game = Game(puzzle: Puzzle(side: 2), detector: TiltDetector())
        game.setAttached(true, at: 0)
        #expect(game.playTime(at: 1) == 0, "a solved board does not count time")
        _ = game.perform(.tilt(.right), at: 1)
        #expect(game.playTime(at: 2) == 1)
        let events = game.perform(.undo, at: 3)
        #expect(events.count == 2)
        guard case .solved(let revision, let moves, let time, _) = events.last else {
            Issue.record("no solved event")
            return
        }
        #expect(revision == 2 && moves == 0 && time == 2)
        #expect(game.playTime(at: 4) == 2)
        _ = game.perform(.tilt(.down), at: 4)
        #expect(game.playTime(at: 6) == 4)
    }

    @Test func newGameResetsClockAndBumpsRevision() {
        var game = Game(puzzle: Puzzle(side: 4), detector: TiltDetector(), revision: 5, playTime: 40)
        game.setAttached(true, at: 0)
        guard case .state(let state) = game.newGame(size: 3, seed: 2, at: 10) else {
            Issue.record("no state")
            return
        }
        #expect(state.revision == 6 && state.size == 3 && state.time == 0)
        #expect(game.generation == 1)
    }
}
