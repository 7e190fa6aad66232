// SPDX-License-Identifier: GPL-3.0-or-later
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// Direct sysfs access: an IIO device's attributes (`IIOAttributes`), the files libiio
/// writes for a buffer (`scan_elements/*_en`, `buffer/enable`), and whether a device is
/// still there.
enum SysfsFile {
    /// The value, trimmed; nil if it cannot be read.
    static func read(_ path: String) -> String? { try? value(path) }

    /// The value, trimmed, or why it cannot be read (EBUSY from a driver whose buffer
    /// runs, ENODEV from one that has gone). Sysfs hands out at most a page.
    static func value(_ path: String) throws(Errno) -> String {
        let fd = try FileDescriptor.open(path)
        defer { try? fd.close() }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = try fd.read(into: &bytes)
        return String(decoding: bytes.prefix(count), as: UTF8.self).trimmingWhitespace
    }

    /// The names in a directory, without `.` and `..`; none if it cannot be read.
    static func entries(_ path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Writes `value` and a newline, truncating as `echo VALUE > FILE` does: sysfs
    /// ignores that, and a plain file (umockdev's, the tests' fixtures) then holds the
    /// value alone, not the end of a longer one after it.
    static func write(_ path: String, _ value: String) throws(Errno) {
        let fd = try FileDescriptor.open(path, [.writeOnly, .truncate])
        defer { try? fd.close() }
        try fd.writeAll(value + "\n")
    }

    static func exists(_ path: String) -> Bool {
        (try? Syscall.call("access") { access(path, F_OK) }) != nil
    }
}
