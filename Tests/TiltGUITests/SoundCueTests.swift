// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCore
import TiltGUI
import TiltWire

/// Which sounds the scene's events call for (docs/gui.md, "Sound"), and the mute toggle's text.
@Suite struct SoundCueTests {
    @Test func eachKindPlaysOncePerTurnInTheGamesOrder() {
        var cues = SoundCues()
        #expect(cues.isEmpty)
        cues.add(.solved)
        cues.add(.slide)
        cues.add(.slide)
        cues.add(.slide)
        #expect(cues.take() == [.slide, .solved])
        #expect(cues.isEmpty)
        #expect(cues.take() == [])
    }

    @Test func aSlideWaitsForNoEarlierSoundButBumpAndChimeAlwaysPlay() {
        #expect(SoundCues.plays(.slide, behind: 0))
        #expect(SoundCues.plays(.slide, behind: SoundCues.slideLag))
        #expect(!SoundCues.plays(.slide, behind: 0.06))
        #expect(SoundCues.plays(.bump, behind: 0.5))
        #expect(SoundCues.plays(.solved, behind: 0.5))
    }

    @Test func theToggleSaysWhetherSoundIsOn() {
        #expect(SoundCues.toggleLabel(muted: false) == "Sound: on (m)")
        #expect(SoundCues.toggleLabel(muted: true) == "Sound: off (m)")
    }

    @Test func aMoveWhoeverMadeItSlides() {
        var scene = BoardSceneTests.connectedScene()
        #expect(scene.takeSounds() == [], "a state plays nothing")
        _ = scene.receive(BoardSceneTests.rightFromSolved())
        #expect(scene.takeSounds() == [.slide])
        let other = ServerMessage.move(revision: 3, move: Move(from: 10, to: 14, direction: .down), cause: .command,
                                       moves: 2, solved: false)
        _ = scene.receive(other)
        #expect(scene.takeSounds() == [.slide])
    }

    @Test func aMoveThatDoesNotFollowIsNotHeard() {
        var scene = BoardSceneTests.connectedScene()
        // Revision 5 after 1: a gap; the client asks for the state instead.
        let needsState = scene.receive(BoardSceneTests.rightFromSolved(revision: 5))
        #expect(needsState)
        #expect(scene.takeSounds() == [])
    }

    @Test func aBlockedTiltBumpsAndASolveChimes() {
        var scene = BoardSceneTests.connectedScene()
        _ = scene.receive(.tilt(direction: .left, moved: false))
        #expect(scene.takeSounds() == [.bump])
        _ = scene.receive(.tilt(direction: .right, moved: true))
        #expect(scene.takeSounds() == [], "a tilt that moved is heard by its move")
        _ = scene.receive(BoardSceneTests.rightFromSolved())
        _ = scene.receive(.solved(revision: 2, moves: 1, time: 3))
        #expect(scene.takeSounds() == [.slide, .solved])
    }

    @Test func aTapThatCannotMoveShakesTheTileAndBumps() throws {
        var scene = BoardSceneTests.connectedScene()
        scene.nudge(at: 0)
        #expect(scene.takeSounds() == [.bump])
        #expect(scene.isAnimating)
        let shake = try #require(scene.animator?.nudgeOffset)
        #expect(shake.index == 0)
        scene.nudge(at: 15)
        #expect(scene.takeSounds() == [], "the gap has no tile to shake")
    }
}
