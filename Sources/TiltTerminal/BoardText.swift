import TiltCore
import TiltWire

/// Draws a board as text: tiles numbered 1…N²−1 as in the classic 15 puzzle
/// (value v shows as v+1), the empty cell blank, one board row per line.
enum BoardText {
    static func lines(side: Int, cells: [Int]) -> [String] {
        let empty = side * side - 1
        let width = String(empty).count
        let rule = "+" + String(repeating: String(repeating: "-", count: width + 2) + "+", count: side)
        var lines = [rule]
        for row in 0..<side {
            var line = "|"
            for column in 0..<side {
                let value = cells[row * side + column]
                let label = value == empty ? "" : String(value + 1)
                line += " " + String(repeating: " ", count: width - label.count) + label + " |"
            }
            lines.append(line)
            lines.append(rule)
        }
        return lines
    }

    static func lines(_ board: Board) -> [String] { lines(side: board.side, cells: board.values) }
    static func lines(_ state: GameState) -> [String] { lines(side: state.size, cells: state.board) }

    /// `1:23` or `12.4 s`.
    static func duration(_ seconds: Double) -> String {
        guard seconds >= 60 else { return "\(Double(Int(seconds * 10)) / 10) s" }
        let total = Int(seconds)
        let secs = total % 60
        return "\(total / 60):\(secs < 10 ? "0" : "")\(secs)"
    }

    static func sensorText(_ report: SensorReport) -> String {
        var text = "sensor \(report.status.rawValue)"
        if let kind = report.kind, let name = report.name { text += ": \(kind) \(name)" }
        if let device = report.device { text += " (\(device))" }
        if let message = report.message { text += " — \(message)" }
        return text
    }
}
