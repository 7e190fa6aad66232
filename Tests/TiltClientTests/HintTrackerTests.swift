// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltClient
import TiltCore
import TiltWire

@Suite struct HintTrackerTests {
    /// 1 2 3 | 4 5 6 | _ 7 8 at revision 5: two tilts left solve it.
    static let state = GameState(revision: 5, size: 3, board: [0, 1, 2, 3, 4, 5, 8, 6, 7], empty: 6, moves: 0,
                                 solved: false, canUndo: false, canRedo: false, time: 0)

    static func move(_ revision: Int, from: Int, to: Int, _ direction: Direction) -> ServerMessage {
        .move(revision: revision, move: Move(from: from, to: to, direction: direction), cause: .tilt, moves: 1, solved: false)
    }

    func answered() -> (HintTracker, BoardMirror) {
        var mirror = BoardMirror()
        _ = mirror.apply(.state(Self.state))
        var tracker = HintTracker()
        tracker.asked(id: 3)
        tracker.apply(.hint(id: .number("3"), hint: Hint(solution: [.left, .left], optimal: true, revision: 5)),
                      mirror: mirror.state)
        return (tracker, mirror)
    }

    @Test func theHintShowsTheTileToSlideAndFollowsThePlayer() {
        var (tracker, mirror) = answered()
        #expect(tracker.waitingFor == nil)
        #expect(tracker.highlightedCell(on: mirror.state) == 7)
        let step = Self.move(6, from: 7, to: 6, .left)
        _ = mirror.apply(step)
        tracker.apply(step, mirror: mirror.state)
        #expect(tracker.hint?.solution == [.left])
        #expect(tracker.highlightedCell(on: mirror.state) == 8)
    }

    @Test func anotherMovePutsTheHintAway() {
        var (tracker, mirror) = answered()
        let step = Self.move(6, from: 3, to: 6, .down)
        _ = mirror.apply(step)
        tracker.apply(step, mirror: mirror.state)
        #expect(tracker.hint == nil)
        #expect(tracker.highlightedCell(on: mirror.state) == nil)
    }

    @Test func aHintForAnOlderBoardIsNotShown() {
        var mirror = BoardMirror()
        _ = mirror.apply(.state(Self.state))
        _ = mirror.apply(Self.move(6, from: 7, to: 6, .left))
        var tracker = HintTracker()
        tracker.asked(id: 1)
        tracker.apply(.hint(id: .number("1"), hint: Hint(solution: [.left, .left], optimal: true, revision: 5)),
                      mirror: mirror.state)
        #expect(tracker.hint == nil)
        #expect(tracker.highlightedCell(on: mirror.state) == nil)
    }

    @Test func anotherRequestsReplyIsNotTheHint() {
        var tracker = HintTracker()
        tracker.asked(id: 2)
        tracker.apply(.hint(id: .number("9"), hint: Hint(solution: [.up], optimal: true, revision: 5)),
                      mirror: Self.state)
        #expect(tracker.hint == nil && tracker.waitingFor == 2)
    }
}
