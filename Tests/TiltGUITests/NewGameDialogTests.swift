import Testing
import TiltClient
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
