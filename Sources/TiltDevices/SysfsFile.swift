// SPDX-License-Identifier: GPL-3.0-or-later
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// Direct sysfs access, for the few files libiio does not expose
/// (`scan_elements/*_en`, `buffer/enable`) and for checking that a device is still there.
enum SysfsFile {
    /// The value, trimmed; nil if it cannot be read.
    static func read(_ path: String) -> String? {
        guard let fd = try? FileDescriptor.open(path) else { return nil }
        defer { try? fd.close() }
        var bytes = [UInt8](repeating: 0, count: 4096)
        guard let count = try? fd.read(into: &bytes) else { return nil }
        return String(decoding: bytes.prefix(count), as: UTF8.self).trimmingWhitespace
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
