// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltClient
import TiltCore
import TiltGUI
import TiltWire

/// The Hint button and key: the tile to slide glows, the moves to go are in the status line.
@Suite struct HintSceneTests {
    /// 1 2 3 | 4 5 6 | _ 7 8 at revision 5: two tilts left; the tile labelled 7 (value 6) first.
    static let state = GameState(revision: 5, size: 3, board: [0, 1, 2, 3, 4, 5, 8, 6, 7], empty: 6, moves: 0,
                                 solved: false, canUndo: false, canRedo: false, time: 0)

    static func scene() -> BoardScene {
        var scene = BoardScene()
        scene.connection = .connected
        _ = scene.receive(.state(Self.state))
        return scene
    }

    @Test func theButtonAndTheKeysAskForAHint() {
        #expect(Control.allCases.contains(.hint))
        #expect(UserAction(control: .hint) == .send(.hint))
        #expect(UserAction(key: .character("h")) == .send(.hint))
        #expect(UserAction(key: .character("/")) == .send(.hint))
        let layout = Layout(window: Size(width: 800, height: 600), side: 3)
        #expect(layout.buttons.contains { $0.control == .hint })
    }

    /// A big board's hint is not the shortest way, and says so as the client's does.
    @Test func aHintThatIsNotTheShortestSaysSo() {
        var scene = Self.scene()
        scene.sent(.hint, id: 3)
        _ = scene.receive(.hint(id: .number("3"), hint: Hint(solution: [.left, .left], optimal: false, revision: 5)))
        #expect(scene.gameLine.hasSuffix(" — hint: slide 7 left — 2 moves to go, not the shortest"), "\(scene.gameLine)")
    }

    @Test func theHintedTileGlowsAndTheMovesToGoAreShown() {
        var scene = Self.scene()
        #expect(scene.hintedTile == nil)
        scene.sent(.hint, id: 3)
        #expect(scene.gameLine.contains("hint: thinking…"))
        _ = scene.receive(.hint(id: .number("3"), hint: Hint(solution: [.left, .left], optimal: true, revision: 5)))
        #expect(scene.hintedTile == 6)
        #expect(scene.label(scene.hintedTile!) == "7")
        // The words `play` and `tiltpuzzle hint` say.
        #expect(scene.gameLine.hasSuffix(" — hint: slide 7 left — 2 moves to go, optimal"), "\(scene.gameLine)")
        // The player follows it: the next tile glows.
        _ = scene.receive(.move(revision: 6, move: Move(from: 7, to: 6, direction: .left), cause: .tilt, moves: 1,
                                solved: false))
        #expect(scene.hintedTile == 7)
        #expect(scene.gameLine.hasSuffix(" — hint: slide 8 left — 1 move to go, optimal"), "\(scene.gameLine)")
        // Anything else puts it away.
        _ = scene.receive(.move(revision: 7, move: Move(from: 4, to: 7, direction: .down), cause: .tilt, moves: 2,
                                solved: false))
        #expect(scene.hintedTile == nil)
        #expect(!scene.gameLine.contains("to go"))
    }

    @Test func aDisconnectForgetsTheHint() {
        var scene = Self.scene()
        scene.sent(.hint, id: 1)
        _ = scene.receive(.hint(id: .number("1"), hint: Hint(solution: [.left, .left], optimal: true, revision: 5)))
        scene.disconnected(reason: "gone")
        #expect(scene.hintedTile == nil)
    }
}
