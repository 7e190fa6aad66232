// SPDX-License-Identifier: GPL-3.0-or-later
/// The lines a source has for the log, gathered by the parts it is made of and handed
/// to the loop as `warning` events at its next `service`.
final class SourceNotes {
    private var lines: [String] = []

    func add(_ line: String) { lines.append(line) }

    /// The lines so far, oldest first; none are left.
    func take() -> [String] {
        defer { lines = [] }
        return lines
    }
}
