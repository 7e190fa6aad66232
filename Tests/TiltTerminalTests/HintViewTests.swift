// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltClient
import TiltCore
import TiltTerminal
import TiltWire

/// `?` in play: the hint's tile in reverse video, its text under the board.
struct HintViewTests {
    /// 1 2 3 | 4 5 6 | _ 7 8: two tilts left; the tile to slide is labelled 7 (value 6), in cell 7.
    static let state = GameState(revision: 5, size: 3, board: [0, 1, 2, 3, 4, 5, 8, 6, 7], empty: 6, moves: 0,
                                 solved: false, canUndo: false, canRedo: false, time: 0)

    @Test func theQuestionMarkAsksForAHint() {
        var keys = PlayerKeys()
        #expect(keys.handle(.character("?"), game: Self.state) == .send(.hint))
        #expect(PlayerKeys.help.count <= 80)
        #expect(PlayerKeys.help.contains("?: hint"))
    }

    @Test func theHintedTileIsDrawnInReverseVideoWithItsLabel() {
        var content = BoardView.Content(title: "t", state: Self.state, mark: nil, lines: [])
        content.hintCell = 7
        let rows = BoardView.render(content, width: 80, height: 24)
        let marked = rows.filter { !$0.highlights.isEmpty }
        #expect(!marked.isEmpty)
        // Every highlighted stretch is the same tile-wide span, and one of them holds the label 7.
        let spans = Set(marked.flatMap(\.highlights))
        #expect(spans.count == 1)
        let span = spans.first!
        let texts = marked.map { row in
            String(Array(row.text)[span])
        }
        #expect(texts.contains { $0.trimmingCharacters(in: .whitespaces) == "7" })
        #expect(texts.allSatisfy { !$0.contains("|") && !$0.contains("+") })
        // No hint: nothing highlighted.
        content.hintCell = nil
        #expect(BoardView.render(content, width: 80, height: 24).allSatisfy { $0.highlights.isEmpty })
    }

    @Test func theHintLineShowsTheTileAndTheMovesToGo() {
        var game = ClientGame()
        _ = game.apply(.state(Self.state), at: 0)
        game.sent(.hint, id: 4)
        #expect(game.statusLines(at: 0).contains("hint: thinking…"))
        _ = game.apply(.hint(id: .number("4"), hint: Hint(solution: [.left, .left], optimal: true, revision: 5)), at: 0)
        #expect(game.notice == nil)
        #expect(!game.statusLines(at: 0).contains("hint: thinking…"))
        #expect(game.hintLine == "hint: slide 7 left — 2 moves to go, optimal")
        #expect(game.statusLines(at: 0).contains("hint: slide 7 left — 2 moves to go, optimal"))
        #expect(game.hintedCell == 7)
        _ = game.apply(.move(revision: 6, move: Move(from: 7, to: 6, direction: .left), cause: .tilt, moves: 1,
                             solved: false), at: 0)
        #expect(game.hintLine == "hint: slide 8 left — 1 move to go, optimal")
    }
}
