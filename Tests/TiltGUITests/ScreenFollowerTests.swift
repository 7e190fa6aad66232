// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltClient
import TiltCommandLine
import TiltCore
import TiltGUI
import TiltWire

/// What the window tells the daemon of its display's rotation (docs/gui.md, "Rotation").
@Suite struct ScreenFollowerTests {
    @Test func theDisplaysRotationIsToldOnceAndAgainOnEachConnection() {
        var follower = ScreenFollower()
        #expect(follower.due() == nil, "nothing said: the daemon's own stays")
        follower.displayTurned(.quarter)
        #expect(follower.due() == .screen(.quarter))
        #expect(follower.due() == nil)
        follower.displayTurned(.quarter)
        #expect(follower.due() == nil, "the same again is no news")
        follower.connected()
        #expect(follower.due() == .screen(.quarter), "a new connection hears it again")
        follower.displayTurned(ScreenRotation.upright)
        #expect(follower.due() == .screen(ScreenRotation.upright))
    }

    @Test func aRotationChosenByHandIsNeverReplacedByTheDisplays() {
        var follower = ScreenFollower(chosen: .half)
        follower.displayTurned(.quarter)
        #expect(follower.wanted == .half)
        #expect(follower.due() == .screen(.half))
        follower.displayTurned(.threeQuarters)
        #expect(follower.due() == nil)
    }

    @Test func theButtonTurnsAQuarterFromTheDaemonsRotation() {
        var follower = ScreenFollower()
        follower.chooseNext(after: .threeQuarters)
        #expect(follower.due() == .screen(ScreenRotation.upright))
        follower.chooseNext(after: ScreenRotation.upright)
        #expect(follower.due() == .screen(.quarter))
        var fresh = ScreenFollower()
        fresh.chooseNext(after: nil)
        #expect(fresh.wanted == .quarter, "from upright when the daemon has not said")
    }

    /// sway's `transform 90` turns the picture a quarter clockwise: its top on the panel's
    /// right edge, as on a tablet turned with its right edge up, `screen-rotation` 90. The
    /// output says 270 (Wayland counts the other way), and SDL names it portrait flipped.
    @Test(arguments: [(0, ScreenRotation.upright), (1, .threeQuarters), (2, .half), (3, .quarter),
                      (4, ScreenRotation.upright), (7, .quarter)])
    func waylandTransformsReadAsRotations(transform: Int, rotation: ScreenRotation) {
        #expect(ScreenFollower.rotation(waylandTransform: transform) == rotation)
    }

    @Test func sdlsOrientationsReadAsRotations() {
        #expect(ScreenFollower.rotation(.unknown) == nil)
        #expect(ScreenFollower.rotation(.landscape) == ScreenRotation.upright)
        #expect(ScreenFollower.rotation(.portraitFlipped) == .quarter)
        #expect(ScreenFollower.rotation(.landscapeFlipped) == .half)
        #expect(ScreenFollower.rotation(.portrait) == .threeQuarters)
    }

    @Test func theOptionChoosesAndIsHandedOn() throws {
        let options = try OptionsTests().parse(["--screen-rotation", "270"])
        #expect(options.screenRotation == .threeQuarters)
        #expect(try OptionsTests().parse(options.arguments) == options)
        for bad in ["45", "-90", "360", "ninety", ""] {
            #expect(throws: UsageError.self) { try OptionsTests().parse(["--screen-rotation", bad]) }
        }
    }

    @Test func oTurnsTheScreenInTheOneKeymap() {
        #expect(UserAction(key: .character("o")) == .turnScreen)
        #expect(UserAction.nextScreen(after: .half) == .threeQuarters)
    }
}
