// SPDX-License-Identifier: GPL-3.0-or-later
extension StringProtocol {
    /// Without leading and trailing spaces, tabs and line ends (config lines, sysfs values).
    public var trimmingWhitespace: String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
