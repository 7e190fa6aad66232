// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltClient
import TiltCore
import TiltWire

/// The words every view takes from the client (`GameText`, `HintText`), so `play`, the
/// command line and the window say a solve, a record and a hint alike.
struct SharedTextTests {
    @Test func aSolveItsRecordsAndTheBest() {
        #expect(GameText.sizeText(4) == "4×4")
        #expect(GameText.solveText(moves: 12, time: 34) == "12 moves, 0:34")
        #expect(GameText.solveText(moves: 1, time: nil) == "1 move")
        #expect(GameText.solvedText(moves: 6, time: 71, news: RecordNews(bestTime: true, fewestMoves: true))
                == "solved in 6 moves, 1:11 — new best: time and moves!")
        #expect(GameText.newsLine(RecordNews(bestTime: true, fewestMoves: false)) == "new best time!")
        #expect(GameText.newsLine(RecordNews(bestTime: false, fewestMoves: true)) == "new best: fewest moves!")
        #expect(GameText.newsLine(RecordNews()) == nil)
        #expect(GameText.newsText(RecordNews()) == "")
        var state = GameState(revision: 1, size: 4, board: Array(0..<16), empty: 15, moves: 0, solved: true,
                              canUndo: false, canRedo: false, time: 0)
        #expect(GameText.bestText(state) == nil)
        state.records = [SizeRecord(size: 4, bestTime: 62, fewestMoves: 98), SizeRecord(size: 3, bestTime: 9, fewestMoves: 1)]
        #expect(GameText.bestText(state) == "best 1:02, 98 moves")
        #expect(GameText.recordLines(state) == ["best 4×4: 1:02, 98 moves", "best 3×3: 0:09, 1 move"])
    }

    @Test func aLineOfItsOwnStartsWithACapitalAndKeepsTheWords() {
        #expect(GameText.ownLine("new best: fewest moves!") == "New best: fewest moves!")
        #expect(GameText.ownLine("best 1:02, 98 moves") == "Best 1:02, 98 moves")
        #expect(GameText.ownLine("") == "")
    }

    /// 1 2 3 | 4 5 6 | _ 7 8: two tilts left, the tile labelled 7 first.
    static let hintable = GameState(revision: 5, size: 3, board: [0, 1, 2, 3, 4, 5, 8, 6, 7], empty: 6, moves: 0,
                                    solved: false, canUndo: false, canRedo: false, time: 0)

    @Test func theHintLineIsForTheBoardItWasWorkedOutFor() {
        let hint = Hint(solution: [.left, .left], optimal: false, revision: 5)
        #expect(HintText.line(hint, state: Self.hintable) == "hint: slide 7 left — 2 moves to go, not the shortest")
        var moved = Self.hintable
        moved.revision = 6
        #expect(HintText.line(hint, state: moved) == nil, "a hint for another board is not shown")
        #expect(HintText.line(nil, state: Self.hintable) == nil)
    }

    @Test func theGamesHintLineSaysThinkingThenTheHint() {
        var game = ClientGame()
        game.apply(.state(Self.hintable), at: 0)
        #expect(game.hintLine == nil)
        game.sent(.hint, id: 4)
        #expect(game.hintLine == HintText.thinking && HintText.thinking == "hint: thinking…")
        game.apply(.hint(id: .number("4"), hint: Hint(solution: [.left, .left], optimal: true, revision: 5)), at: 0)
        #expect(game.hintLine == "hint: slide 7 left — 2 moves to go, optimal")
    }
}
