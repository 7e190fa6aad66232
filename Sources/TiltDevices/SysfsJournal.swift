// SPDX-License-Identifier: GPL-3.0-or-later
/// What a source changed in sysfs, to put back when it stops (docs/sensors.md, IIO,
/// "Stop"): every setting a source writes for its own capture is journalled first
/// (the trigger, scan elements, buffer settings, timestamp clock, data rate; not the
/// enable of a stopped program's buffer taken back, which stop leaves disabled).
/// Entries are undone most recent first, so a setting changed twice ends as found.
///
/// Not thread-safe: the source's thread uses it (a polled source's reader never writes).
final class SysfsJournal {
    private var undos: [() -> Void] = []

    /// Where the journal stands now, to `rollBack(to:)` a step that failed half-way.
    var mark: Int { undos.count }
    var isEmpty: Bool { undos.isEmpty }

    /// Records how to undo a change made (or about to be made) other than by path:
    /// a libiio attribute, the trigger.
    func record(_ undo: @escaping () -> Void) {
        undos.append(undo)
    }

    /// Records these files as they are now, to be written back if they differ at the
    /// end (a file that cannot be read is skipped: there is nothing to put back).
    func keep(_ paths: [String]) {
        let saved = paths.compactMap { path in SysfsFile.read(path).map { (path, $0) } }
        record {
            for (path, value) in saved where SysfsFile.read(path) != value {
                try? SysfsFile.write(path, value)
            }
        }
    }

    /// Undoes what was recorded since `mark`, most recent first.
    func rollBack(to mark: Int) {
        guard mark < undos.count else { return }
        let later = undos[mark...]
        undos.removeSubrange(mark...)
        for undo in later.reversed() { undo() }
    }

    /// Undoes everything, most recent first; the journal is empty after.
    func restoreAll() {
        rollBack(to: 0)
    }
}
