import TiltCore
import TiltWire

/// The game in words, the same in every view and in the command line's output:
/// tile labels, the sensor, records, the sensitivity, the board on one line.
public enum GameText {
    /// A tile's number as players know it (docs/client.md, "Boards"); "" for the empty cell.
    public static func label(_ value: Int, side: Int) -> String {
        BoardNotation.label(ofValue: value, side: side).map(String.init) ?? ""
    }

    /// `sensor active: iio accel_3d (iio:device0)`, with the daemon's message after a dash.
    public static func sensorText(_ report: SensorReport) -> String {
        var text = "sensor \(report.status.rawValue)"
        if let kind = report.kind, let name = report.name { text += ": \(kind) \(name)" }
        if let device = report.device { text += " (\(device))" }
        if let message = report.message { text += " — \(message)" }
        return text
    }

    /// `4×4`: a board's size.
    public static func sizeText(_ side: Int) -> String { "\(side)×\(side)" }

    /// `12 moves, 0:34`: a solve's moves and play time (only the moves when the time is not known).
    public static func solveText(moves: Int, time: Double?) -> String {
        CountText.text(moves, "move") + (time.map { ", " + PlayTime.text($0) } ?? "")
    }

    /// `solved in 12 moves, 0:34 — new best time!`: the solve as one event.
    public static func solvedText(moves: Int, time: Double, news: RecordNews) -> String {
        "solved in " + solveText(moves: moves, time: time) + newsText(news)
    }

    /// `new best: time and moves!`; nil without a record.
    public static func newsLine(_ news: RecordNews) -> String? {
        switch (news.bestTime, news.fewestMoves) {
        case (true, true): "new best: time and moves!"
        case (true, false): "new best time!"
        case (false, true): "new best: fewest moves!"
        case (false, false): nil
        }
    }

    /// ` — new best time and fewest moves!`, or nothing without a record.
    public static func newsText(_ news: RecordNews) -> String {
        newsLine(news).map { " — " + $0 } ?? ""
    }

    /// One line per board size solved: `best 4×4: 1:02, 98 moves`, or that there are none.
    public static func recordLines(_ state: GameState) -> [String] {
        guard !state.records.isEmpty else { return ["best: no game solved yet"] }
        return state.records.map { "best \(sizeText($0.size)): " + recordText($0) }
    }

    /// `best 1:02, 98 moves` for the current size, if one was ever solved.
    public static func bestText(_ state: GameState) -> String? {
        state.best.map { "best " + recordText($0) }
    }

    /// `1:02, 98 moves`: a size's best time and fewest moves.
    private static func recordText(_ record: SizeRecord) -> String {
        "\(PlayTime.text(record.bestTime)), \(CountText.text(record.fewestMoves, "move"))"
    }

    /// A text of these that stands as a line of its own (a panel's line rather than
    /// part of one): its first letter a capital, the words the same.
    public static func ownLine(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst()
    }

    /// `tilt 20° to move, back under 10° to re-arm (normal)`.
    public static func sensitivityText(_ s: Sensitivity) -> String {
        func degrees(_ d: Double) -> String { d == d.rounded() ? "\(Int(d))°" : "\(d)°" }
        let preset = Sensitivity.Preset(s).map { " (\($0.rawValue))" } ?? ""
        return "tilt \(degrees(s.trigger)) to move, back under \(degrees(s.release)) to re-arm\(preset)"
    }

    /// `screen turned 90° counter-clockwise`: how the picture is turned, for which the daemon reads tilts.
    public static func screenText(_ rotation: ScreenRotation) -> String {
        rotation == .none ? "screen upright (0°)" : "screen turned \(rotation.degrees)° counter-clockwise"
    }

    /// The board on one line in the notation `new --board` reads: `1 2 3, 4 5 6, 7 8 _`.
    public static func boardLine(_ state: GameState) -> String {
        BoardNotation.text(side: state.size, cells: state.board)
    }
}
