// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A path with its symbolic links resolved, as the kernel would follow them: a
/// `/dev/input/by-id/...` link names the node it points to now.
public enum RealPath {
    public static func of(_ path: String) throws(Errno) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        _ = try Syscall.call("realpath") { realpath(path, &buffer) == nil ? Int32(-1) : 0 }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
