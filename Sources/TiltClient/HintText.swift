// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltSystem
import TiltWire

/// A hint as people read it: the tile to slide first, by its label, and how far the
/// board is from solved (docs/client.md, "Hints").
public enum HintText {
    /// The cell of the tile the hint's first tilt slides, on the board the hint is for.
    public static func firstTile(_ hint: Hint, board: [Int], size: Int) -> Int? {
        guard let first = hint.solution.first, let cells = Board(side: size, cells: board) else { return nil }
        return cells.tileIndex(tilting: first)
    }

    /// Whether the hint's way is the shortest: boards over 4×4 are not solved optimally
    /// (docs/protocol.md, "Hints").
    public static func quality(_ hint: Hint) -> String { hint.optimal ? L("optimal") : L("not the shortest") }

    /// The status line while the daemon works the hint out.
    public static var thinking: String { L("hint: thinking…") }

    /// The status line of a hint for `state`'s board: `hint: slide 7 down — 48 moves to
    /// go, optimal`; nil without a hint, or with one for another board.
    public static func line(_ hint: Hint?, state: GameState?) -> String? {
        guard let hint, let state, state.revision == hint.revision else { return nil }
        return L("hint: {0}", describe(hint, board: state.board, size: state.size))
    }

    /// `slide 7 down — 48 moves to go, optimal`; `solved: no moves to go`.
    public static func describe(_ hint: Hint, board: [Int], size: Int) -> String {
        guard let first = hint.solution.first else { return L("solved: no moves to go") }
        let count = hint.solution.count
        let togo = L.plural("{0} move to go, {1}", "{0} moves to go, {1}", count, quality(hint))
        let way = GameText.directionText(first)
        guard let cell = firstTile(hint, board: board, size: size) else { return L("tilt {0} — {1}", way, togo) }
        return L("slide {0} {1} — {2}", GameText.label(board[cell], side: size), way, togo)
    }
}
