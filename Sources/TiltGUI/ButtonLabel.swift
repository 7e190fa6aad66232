// SPDX-License-Identifier: GPL-3.0-or-later
/// A button's label fitted to its button (docs/gui.md, Text): the whole label on one
/// line, else without its key, else wrapped at words onto the lines the button's
/// height holds; only when none of that fits, the same at a smaller size, never below
/// the legible one. What still does not fit ends with "…" (a window too small for the panel).
public struct ButtonLabel: Equatable, Sendable {
    public var lines: [String]
    /// The pixel size the lines are drawn at.
    public var size: Double

    /// `full` ("Tilt: normal (s)") or `short` (the same without its key) in `width` ×
    /// `height`, from `size` down to `minimum` pixels; `measure` is a text's width at a size.
    public static func fit(full: String, short: String, width: Double, height: Double, size: Double, minimum: Double,
                           measure: (String, Double) -> Double) -> ButtonLabel {
        var candidate = size
        while true {
            let at = candidate
            if measure(full, at) <= width { return ButtonLabel(lines: [full], size: at) }
            if measure(short, at) <= width { return ButtonLabel(lines: [short], size: at) }
            let lines = TextWrap.lines(short, width: width, maxLines: linesHeld(height, size: at)) { measure($0, at) }
            let cut = lines.last?.hasSuffix("…") == true
            if !cut, lines.allSatisfy({ measure($0, at) <= width }) { return ButtonLabel(lines: lines, size: at) }
            guard candidate > minimum else { return ButtonLabel(lines: lines, size: at) }
            candidate = max(minimum, candidate - 1)
        }
    }

    /// Lines of text at `size` a button `height` high holds (at least one).
    public static func linesHeld(_ height: Double, size: Double) -> Int {
        max(1, Int(height / (Layout.lineHeight * size)))
    }
}
