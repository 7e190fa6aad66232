// SPDX-License-Identifier: GPL-3.0-or-later
import TiltClient
import TiltCore
import TiltSystem
import TiltWire

/// The game as `watch` and `play` write it under the board.
extension ClientGame {
    /// The lines under the board: counters and clock, the last event, the sensor, the
    /// gauge, the hint (or that it is being worked out), a notice.
    public func statusLines(at now: Double) -> [String] {
        guard let state else { return [] }
        var first = GameText.movesText(state.moves) + "   " + PlayTime.text(elapsed(at: now)) + (state.solved ? "   " + L("SOLVED") : "")
        if let best = GameText.bestText(state) { first += "   (\(best))" }
        var lines = [first]
        lines.append(lastEvent ?? "")
        // A turned picture is why tilts go where they go: said beside the sensor.
        let turned = screen.flatMap { $0 == .upright ? nil : "   " + GameText.screenText($0) } ?? ""
        lines.append((sensor.map(GameText.sensorText) ?? "") + turned)
        if let pose, sensor?.status == .active { lines.append(PoseGauge.line(pose)) }
        if let hintLine { lines.append(hintLine) }
        if let notice { lines.append(notice) }
        return lines
    }
}
