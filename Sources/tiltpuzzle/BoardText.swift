import TiltCore

/// Draws a board as text: tiles numbered 1…N²−1 as in the classic 15 puzzle
/// (value v shows as v+1), the empty cell blank, one board row per line.
enum BoardText {
    static func lines(_ board: Board) -> [String] {
        let side = board.side
        let width = String(board.count - 1).count
        let rule = "+" + String(repeating: String(repeating: "-", count: width + 2) + "+", count: side)
        var lines = [rule]
        for row in 0..<side {
            var line = "|"
            for column in 0..<side {
                let value = board[row * side + column]
                let label = value == board.emptyValue ? "" : String(value + 1)
                line += " " + String(repeating: " ", count: width - label.count) + label + " |"
            }
            lines.append(line)
            lines.append(rule)
        }
        return lines
    }
}
