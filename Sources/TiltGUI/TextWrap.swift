// SPDX-License-Identifier: GPL-3.0-or-later
/// Breaks text into lines at spaces so it fits a width at a fixed size: text is
/// never shrunk below the legible size (docs/gui.md, Text), it wraps, and what does
/// not fit in the lines there are is cut at a word and ends with "…".
public enum TextWrap {
    /// At most `maxLines` lines of `text`, each no wider than `width` by `measure`
    /// (a word longer than the width on its own gets a line of its own, cut by the painter).
    public static func lines(_ text: String, width: Double, maxLines: Int, measure: (String) -> Double) -> [String] {
        guard maxLines > 0, !text.isEmpty else { return [] }
        var lines: [String] = []
        var line = ""
        // Runs of spaces inside a line are kept (the status line spaces its parts so).
        var started = false
        for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            let candidate = started ? line + " " + word : word
            if !started || measure(candidate) <= width {
                line = candidate
                started = !line.isEmpty
            } else if !word.isEmpty {
                lines.append(line)
                line = word
            }
        }
        if !line.isEmpty { lines.append(line) }
        guard lines.count > maxLines else { return lines }
        // The last line that fits carries "…", dropping words until it fits with it.
        var last = lines[maxLines - 1].split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        while last.count > 1, measure(last.joined(separator: " ") + " …") > width { last.removeLast() }
        return Array(lines.prefix(maxLines - 1)) + [last.joined(separator: " ") + " …"]
    }
}
