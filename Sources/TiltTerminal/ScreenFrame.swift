// SPDX-License-Identifier: GPL-3.0-or-later
/// The escape sequences of a full-screen view: plain VT100/ANSI (cursor position,
/// erase in line, reverse video), which every terminal and SSH session has, so
/// no terminfo is needed.
public enum ScreenFrame {
    static let escape = "\u{1B}["

    /// Draws `rows` from the top line down; each row is written over its old
    /// content and the rest of the line erased, so nothing flickers.
    public static func draw(_ rows: [ScreenRow]) -> String {
        var out = ""
        for (index, row) in rows.enumerated() {
            out += "\(escape)\(index + 1);1H"
            var column = 0
            for range in row.highlights.sorted(by: { $0.lowerBound < $1.lowerBound }) where range.lowerBound >= column {
                out += slice(row.text, column ..< range.lowerBound)
                out += "\(escape)7m" + slice(row.text, range) + "\(escape)27m"
                column = range.upperBound
            }
            out += slice(row.text, column ..< row.text.count) + "\(escape)K"
        }
        return out
    }

    /// The alternate screen, cleared, with the cursor hidden.
    public static let enter = "\(escape)?1049h\(escape)?25l\(escape)2J"
    /// Back to the normal screen, attributes reset, cursor shown. Static text, so a
    /// crash handler can write it without allocating.
    public static let leave: StaticString = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    private static func slice(_ text: String, _ range: Range<Int>) -> Substring {
        let clamped = range.clamped(to: 0 ..< text.count)
        let start = text.index(text.startIndex, offsetBy: clamped.lowerBound)
        return text[start ..< text.index(start, offsetBy: clamped.count)]
    }
}
