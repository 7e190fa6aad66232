// SPDX-License-Identifier: GPL-3.0-or-later
import TiltClient
import TiltSystem
import TiltWire

/// The detector's view as one line of text (docs/client.md): the tilt's way and size,
/// a bar with the release (`:`) and trigger (`|`) marks, and whether the next tilt fires.
public enum PoseGauge {
    /// Cells of the bar; it spans 0° to 1.5 × the trigger angle.
    public static let barWidth = 24

    public static func line(_ pose: PoseReport) -> String {
        let magnitude = pose.magnitude
        let way: String
        if magnitude < 0.5 {
            way = L("level")
        } else if abs(pose.x) >= abs(pose.y) {
            way = GameText.directionText(pose.x > 0 ? .right : .left)
        } else {
            way = GameText.directionText(pose.y > 0 ? .up : .down)
        }
        let span = max(1, pose.trigger * 1.5)
        func cell(_ degrees: Double) -> Int { min(barWidth - 1, Int((degrees / span * Double(barWidth)).rounded(.down))) }
        let filled = magnitude <= 0 ? 0 : min(barWidth, cell(magnitude) + 1)
        var bar = Array(repeating: Character("."), count: barWidth)
        for i in 0..<filled { bar[i] = "#" }
        bar[cell(pose.release)] = ":"
        bar[cell(pose.trigger)] = "|"
        let degrees = Int(magnitude.rounded())
        let state = pose.armed ? L("armed") : L("return to level to re-arm")
        return L("tilt {0} {1}°", way, degrees).padding(toWidth: 16) + "[\(String(bar))]  \(state)"
    }
}

extension String {
    fileprivate func padding(toWidth width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
