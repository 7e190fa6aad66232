// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#endif

/// A folder of our own under the temporary directory, removed with what it holds.
public final class TemporaryDirectory {
    public let path: String

    /// Makes `$TMPDIR/PREFIX-XXXXXX` (mode 0700).
    public init(prefix: String, environment: [String: String] = ProcessEnvironment.current) throws(Errno) {
        let base = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/\(prefix)-XXXXXX".utf8CString)
        _ = try Syscall.call("mkdtemp") {
            template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) == nil ? -1 : 0 }
        }
        path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Removes the folder and everything below it; what cannot be removed stays.
    public func remove() {
        Self.removeTree(path)
    }

    static func removeTree(_ path: String) {
        if let directory = opendir(path) {
            var names: [String] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                if name != "." && name != ".." { names.append(name) }
            }
            closedir(directory)
            for name in names {
                let child = path + "/" + name
                if (try? Syscall.call("unlink") { unlink(child) }) == nil { removeTree(child) }
            }
        }
        _ = try? Syscall.call("rmdir") { rmdir(path) }
    }
}
