// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltSystem
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
        var text = L("sensor {0}", statusText(report.status))
        if let kind = report.kind, let name = report.name { text += ": \(kind) \(name)" }
        if let device = report.device { text += " (\(device))" }
        if let message = report.message { text += " — \(message)" }
        return text
    }

    /// `active`: the sensor's state in words (the protocol's word in English).
    public static func statusText(_ status: SensorStatus) -> String {
        switch status {
        // TRANSLATORS: the sensor's state, after "sensor" ("sensor {0}"): reading samples,
        // present but stopped, not found, none wanted (--source none), a replay's end,
        // failed, held by another program.
        case .active: L("active")
        case .idle: L("idle")
        case .absent: L("absent")
        case .disabled: L("disabled")
        case .ended: L("ended")
        case .error: L("error")
        case .busy: L("busy")
        }
    }

    /// `right`: a direction in words, for reading (what is typed stays `right`).
    public static func directionText(_ direction: Direction) -> String {
        switch direction {
        // TRANSLATORS: the way a tile slides: "15 right", "slide 7 down".
        case .up: L("up")
        case .down: L("down")
        case .left: L("left")
        case .right: L("right")
        }
    }

    /// `tilt`: what moved a tile, in a `watch` line.
    public static func causeText(_ cause: MoveCause) -> String {
        switch cause {
        // TRANSLATORS: what moved a tile, in brackets after the move: a tilt of the
        // tablet, a command (a key, a tap, the command line), an undo, a redo.
        case .tilt: L("tilt")
        case .command: L("command")
        case .undo: L("undo")
        case .redo: L("redo")
        }
    }

    /// `12 tilts`: a count of tilts (the demo's).
    public static func tiltsText(_ count: Int) -> String { L.plural("{0} tilt", "{0} tilts", count) }

    /// `12 moves`: a count of moves, as every view says it.
    public static func movesText(_ count: Int) -> String { L.plural("{0} move", "{0} moves", count) }

    /// `4×4`: a board's size.
    public static func sizeText(_ side: Int) -> String { "\(side)×\(side)" }

    /// `12 moves, 0:34`: a solve's moves and play time (only the moves when the time is not known).
    public static func solveText(moves: Int, time: Double?) -> String {
        time.map { L.plural("{0} move, {1}", "{0} moves, {1}", moves, PlayTime.text($0)) } ?? movesText(moves)
    }

    /// `solved in 12 moves, 0:34 — new best time!`: the solve as one event.
    public static func solvedText(moves: Int, time: Double, news: RecordNews) -> String {
        L.plural("solved in {0} move, {1}", "solved in {0} moves, {1}", moves, PlayTime.text(time)) + newsText(news)
    }

    /// `new best: time and moves!`; nil without a record.
    public static func newsLine(_ news: RecordNews) -> String? {
        switch (news.bestTime, news.fewestMoves) {
        case (true, true): L("new best: time and moves!")
        case (true, false): L("new best time!")
        case (false, true): L("new best: fewest moves!")
        case (false, false): nil
        }
    }

    /// ` — new best time and fewest moves!`, or nothing without a record.
    public static func newsText(_ news: RecordNews) -> String {
        newsLine(news).map { " — " + $0 } ?? ""
    }

    /// One line per board size solved: `best 4×4: 1:02, 98 moves`, or that there are none.
    public static func recordLines(_ state: GameState) -> [String] {
        guard !state.records.isEmpty else { return [L("best: no game solved yet")] }
        return state.records.map { L("best {0}: {1}", sizeText($0.size), recordText($0)) }
    }

    /// `best 1:02, 98 moves` for the current size, if one was ever solved.
    public static func bestText(_ state: GameState) -> String? {
        state.best.map { L("best {0}", recordText($0)) }
    }

    /// `1:02, 98 moves`: a size's best time and fewest moves.
    private static func recordText(_ record: SizeRecord) -> String {
        L.plural("{1}, {0} move", "{1}, {0} moves", record.fewestMoves, PlayTime.text(record.bestTime))
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
        let text = L("tilt {0} to move, back under {1} to re-arm", degrees(s.trigger), degrees(s.release))
        return Sensitivity.Preset(s).map { text + " (" + presetText($0) + ")" } ?? text
    }

    /// `normal`: a sensitivity preset's name.
    public static func presetText(_ preset: Sensitivity.Preset) -> String {
        switch preset {
        // TRANSLATORS: the sensitivity presets, from a small tilt to a large one.
        case .gentle: L("gentle")
        case .normal: L("normal")
        case .firm: L("firm")
        }
    }

    /// `screen turned 90° counter-clockwise`: how the picture is turned, for which the daemon reads tilts.
    public static func screenText(_ rotation: ScreenRotation) -> String {
        rotation == .upright ? L("screen upright (0°)") : L("screen turned {0}° counter-clockwise", rotation.degrees)
    }

    /// The board on one line in the notation `new --board` reads: `1 2 3, 4 5 6, 7 8 _`.
    public static func boardLine(_ state: GameState) -> String {
        BoardNotation.text(side: state.size, cells: state.board)
    }
}
