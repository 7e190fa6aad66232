// SPDX-License-Identifier: GPL-3.0-or-later
import TiltClient
import TiltCore
import TiltWire

/// Draws a board as text: tiles numbered 1…N²−1 as in the classic 15 puzzle
/// (value v shows as v+1), the empty cell blank, one board row per line.
public enum BoardText {
    public static func lines(side: Int, cells: [Int]) -> [String] {
        let width = labelWidth(side: side)
        let rule = "+" + String(repeating: String(repeating: "-", count: width + 2) + "+", count: side)
        var lines = [rule]
        for row in 0..<side {
            var line = "|"
            for column in 0..<side {
                line += " " + padded(GameText.label(cells[row * side + column], side: side), to: width) + " |"
            }
            lines.append(line)
            lines.append(rule)
        }
        return lines
    }

    public static func lines(_ board: Board) -> [String] { lines(side: board.side, cells: board.values) }
    public static func lines(_ state: GameState) -> [String] { lines(side: state.size, cells: state.board) }

    /// The widest label on a board of this side.
    public static func labelWidth(side: Int) -> Int { String(side * side - 1).count }

    /// `text` right-aligned in `width` columns.
    public static func padded(_ text: String, to width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
