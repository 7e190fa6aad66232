// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltClient
import TiltCore
import TiltGUI
import TiltWire

/// New asks before a game in progress is lost, and lets a finger choose the size.
@Suite struct NewGameDialogTests {
    static func state(size: Int = 4, moves: Int, solved: Bool = false) -> GameState {
        GameState(revision: 3, size: size, board: Array(0..<size * size), empty: size * size - 1, moves: moves,
                  solved: solved, canUndo: moves > 0, canRedo: false, time: 0)
    }

    @Test func aGameInProgressIsNeverLostWithoutAsking() {
        guard case .ask(let dialog) = NewGameDialog.request(state: Self.state(moves: 12)) else {
            Issue.record("New during a game started one at once")
            return
        }
        #expect(dialog.lostMoves == 12)
        #expect(dialog.message.contains("12 moves") && dialog.message.contains("4×4"))
        #expect(dialog.cancelLabel == "Keep playing")
    }

    @Test func anUntouchedOrSolvedGameStartsOverAtOnceAtItsSize() {
        #expect(NewGameDialog.request(state: Self.state(size: 5, moves: 0)) == .start(size: 5))
        #expect(NewGameDialog.request(state: Self.state(size: 3, moves: 40, solved: true)) == .start(size: 3))
    }

    @Test func noKeepsTheGameAndYesStartsTheChosenSize() {
        var dialog = NewGameDialog(current: 4, lostMoves: 3)
        #expect(dialog.selected == 4, "the current size is chosen to begin with")
        #expect(dialog.choose(.size(6)) == (nil, true))
        #expect(dialog.startLabel == "Start 6×6")
        var kept = dialog
        #expect(kept.choose(.cancel) == (nil, false))
        #expect(dialog.choose(.start) == (.new(size: 6, seed: nil, shuffle: true), false))
    }

    /// A move another client played, as the daemon announces it.
    static func move(revision: Int, moves: Int, solved: Bool = false) -> ServerMessage {
        .move(revision: revision, move: Move(from: 14, to: 15, direction: .right), cause: .command, moves: moves,
              solved: solved, canUndo: true, canRedo: false)
    }

    @Test func theOpenQuestionFollowsMovesElsewhereAndKeepsTheChosenSize() {
        guard case .ask(var dialog) = NewGameDialog.request(state: Self.state(size: 3, moves: 1)) else {
            Issue.record("New during a game started one at once")
            return
        }
        _ = dialog.choose(.size(5))
        var later = Self.state(size: 3, moves: 2)
        later.revision = 4
        let afterMove = dialog.follow(Self.move(revision: 4, moves: 2), state: later)
        #expect(afterMove)
        #expect(dialog.message == "This 3×3 game (2 moves) will be lost.")
        #expect(dialog.selected == 5, "the size the player chose stays chosen")
        // The greeting after a reconnection repeats the same board: the question stays.
        let afterGreeting = dialog.follow(.state(later), state: later)
        #expect(afterGreeting)
        #expect(dialog.lostMoves == 2)
    }

    @Test func aSolveElsewhereTakesTheWarningAwayAndAnUndoBringsItBack() {
        var dialog = NewGameDialog.chooseSize(state: Self.state(size: 4, moves: 7))
        var solved = Self.state(size: 4, moves: 8, solved: true)
        solved.revision = 4
        let afterSolve = dialog.follow(Self.move(revision: 4, moves: 8, solved: true), state: solved)
        #expect(afterSolve)
        #expect(dialog.lostMoves == nil && dialog.title == "New game" && dialog.cancelLabel == "Cancel")
        var undone = Self.state(size: 4, moves: 7)
        undone.revision = 5
        let afterUndo = dialog.follow(Self.move(revision: 5, moves: 7), state: undone)
        #expect(afterUndo)
        #expect(dialog.message == "This 4×4 game (7 moves) will be lost.")
    }

    @Test func aNewGameStartedElsewhereClosesTheQuestion() {
        guard case .ask(var dialog) = NewGameDialog.request(state: Self.state(size: 3, moves: 1)) else {
            Issue.record("New during a game started one at once")
            return
        }
        var other = Self.state(size: 4, moves: 0)
        other.revision = 4
        let afterOther = dialog.follow(.state(other), state: other)
        #expect(!afterOther, "another client's new 4×4 game")
        var sameSize = NewGameDialog.chooseSize(state: Self.state(size: 3, moves: 0))
        var fresh = Self.state(size: 3, moves: 0)
        fresh.revision = 4
        let afterFresh = sameSize.follow(.state(fresh), state: fresh)
        #expect(!afterFresh, "a new game of the same size replaces the board too")
    }

    @Test func aQuestionAskedBeforeAnyGameTakesTheFirstOneShown() {
        var dialog = NewGameDialog.chooseSize(state: nil)
        let first = Self.state(size: 5, moves: 3)
        let stays = dialog.follow(.state(first), state: first)
        #expect(stays)
        #expect(dialog.current == 5 && dialog.lostMoves == 3 && dialog.selected == 5, "nothing chosen yet: the board's size")
    }

    @Test func keysAnswerToo() {
        #expect(NewGameDialog.choice(for: .character("y")) == .start)
        #expect(NewGameDialog.choice(for: .enter) == .start)
        #expect(NewGameDialog.choice(for: .character("n")) == .cancel)
        #expect(NewGameDialog.choice(for: .escape) == .cancel)
        #expect(NewGameDialog.choice(for: .character("5")) == .size(5))
        #expect(NewGameDialog.choice(for: .character("9")) == nil)
        #expect(NewGameDialog.choice(for: .arrow(.up)) == nil)
    }

    @Test(arguments: [Size(width: 480, height: 600), Size(width: 1280, height: 800), Size(width: 800, height: 1280)])
    func everyAnswerIsAFingerSizedButtonInTheWindow(window: Size) {
        let layout = Layout(window: window, side: 4)
        let frames = NewGameDialog.frames(in: layout)
        let answers = frames.sizes.map { (NewGameDialog.Choice.size($0.size), $0.frame) }
            + [(.cancel, frames.cancel), (.start, frames.start)]
        #expect(frames.sizes.map(\.size) == [3, 4, 5, 6])
        for (choice, frame) in answers {
            #expect(frame.width >= layout.minimumTarget && frame.height >= layout.minimumTarget, "\(choice): \(frame)")
            #expect(frame.x >= 0 && frame.maxX <= window.width && frame.y >= 0 && frame.maxY <= window.height)
            #expect(frames.choice(at: frame.center) == choice)
        }
    }
}

@Suite struct TextWrapTests {
    /// Ten pixels a character.
    static func measure(_ text: String) -> Double { Double(text.count * 10) }

    @Test func wrapsAtSpacesWithinTheWidth() {
        let lines = TextWrap.lines("slide 15 down: 54 to go, optimal", width: 150, maxLines: 3, measure: Self.measure)
        #expect(lines == ["slide 15 down:", "54 to go,", "optimal"])
        #expect(lines.allSatisfy { Self.measure($0) <= 150 })
    }

    @Test func whatDoesNotFitEndsWithAnEllipsisAtAWord() {
        let lines = TextWrap.lines("connecting… no tiltpuzzled is running (tried /run/a, /run/b)", width: 120, maxLines: 2,
                                   measure: Self.measure)
        #expect(lines.count == 2)
        #expect(lines[1].hasSuffix(" …") && Self.measure(lines[1]) <= 120, "\(lines)")
    }

    @Test func keepsRunsOfSpacesInsideALine() {
        #expect(TextWrap.lines("4×4   3 moves", width: 500, maxLines: 1, measure: Self.measure) == ["4×4   3 moves"])
    }
}
