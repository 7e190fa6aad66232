// SPDX-License-Identifier: GPL-3.0-or-later
/// A board as players write it (docs/client.md, "Boards"): the tiles' labels row by
/// row, 1 … size²−1 as on screen, `0` or `_` for the empty cell, separated by commas
/// and/or spaces (`1 2 3 4 5 6 7 8 0` is the solved 3×3). `new --board` reads it,
/// `status` and `watch` print it, so a printed board can be pasted back. The protocol
/// numbers tiles from 0 with size²−1 the empty cell; this is the one place that
/// translates.
public enum BoardNotation {
    /// The label players know a tile by (value v is tile v+1); nil for the empty cell.
    public static func label(ofValue value: Int, side: Int) -> Int? {
        value == side * side - 1 ? nil : value + 1
    }

    /// The cell holding the tile labelled `label`, nil when the board has no such tile.
    public static func cell(ofTile label: Int, cells: [Int], side: Int) -> Int? {
        guard (1 ..< side * side).contains(label) else { return nil }
        return cells.firstIndex(of: label - 1)
    }

    /// `1 2 3, 4 5 6, 7 8 _`: rows split by commas, the empty cell `_`. Rows are cut
    /// from the cells as given, so a board that does not fit its side is printed, not trusted.
    public static func text(side: Int, cells: [Int]) -> String {
        let width = max(1, side)
        return stride(from: 0, to: cells.count, by: width).map { start in
            cells[start ..< min(start + width, cells.count)].map { value in
                label(ofValue: value, side: side).map(String.init) ?? "_"
            }.joined(separator: " ")
        }.joined(separator: ", ")
    }

    public static func text(_ board: Board) -> String { text(side: board.side, cells: board.values) }

    /// What is wrong with a written board, said in the players' numbering.
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        /// A word that is neither a whole number nor `_`.
        case notALabel(String)
        /// The count is not side² for a side in `Board.sides`.
        case wrongCount(Int)
        /// A number that is no tile of a board of this side.
        case noSuchTile(Int, side: Int)
        case repeatedTile(Int)
        case repeatedEmpty
        /// A permutation no sequence of moves can solve (docs/puzzle.md).
        case unsolvable

        /// In English here and in the daemon; a client says it in the player's language.
        public var text: TranslatableText {
            switch self {
            case .notALabel(let word):
                TranslatableText("'{0}' is not a tile: write the tiles' numbers and 0 or _ for the empty cell", word)
            case .wrongCount(let count):
                TranslatableText("a board has {0} cells (a side from {1} to {2}), not {3}",
                                 Board.sides.map { String($0 * $0) }.joined(separator: ", "),
                                 Board.sides.lowerBound, Board.sides.upperBound, count)
            case .noSuchTile(let label, let side):
                TranslatableText("there is no tile {0} on a {1}×{1} board: its tiles are 1 to {2}, and 0 or _ the empty cell",
                                 label, side, side * side - 1)
            case .repeatedTile(let label):
                TranslatableText("tile {0} is written twice: each tile once, and one empty cell (0 or _)", label)
            case .repeatedEmpty:
                TranslatableText("the empty cell (0 or _) is written twice: each tile once, and one empty cell")
            case .unsolvable:
                TranslatableText("this board cannot be solved: swapping two tiles (not the empty cell) makes it solvable")
            }
        }

        public var description: String { text.english }
    }

    /// Between labels: commas and any white space (a board pasted over several lines reads too).
    public static func isSeparator(_ character: Character) -> Bool {
        character == "," || character.isWhitespace
    }

    /// Reads a written board; the side follows from the count.
    public static func board(_ text: String) throws(Problem) -> Board {
        let words = text.split(whereSeparator: isSeparator)
        var labels: [Int?] = []
        for word in words {
            if word == "_" {
                labels.append(nil)
            } else if let label = Int(word), label >= 0 {
                labels.append(label == 0 ? nil : label)
            } else {
                throw .notALabel(String(word))
            }
        }
        let side = Board.sides.first { $0 * $0 == labels.count }
        guard let side else { throw .wrongCount(labels.count) }
        let empty = side * side - 1
        var seen = [Bool](repeating: false, count: side * side)
        var cells: [Int] = []
        for label in labels {
            guard let label else {
                if seen[empty] { throw .repeatedEmpty }
                seen[empty] = true
                cells.append(empty)
                continue
            }
            guard label <= empty else { throw .noSuchTile(label, side: side) }
            guard !seen[label - 1] else { throw .repeatedTile(label) }
            seen[label - 1] = true
            cells.append(label - 1)
        }
        guard let board = Board(side: side, cells: cells) else { throw .unsolvable }
        return board
    }
}
