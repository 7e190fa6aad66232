// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#endif

/// Finding the project's other programs: the one next to this program (as built, or
/// as installed together) first, then PATH.
public enum Executable {
    public static func find(_ name: String) -> String? {
        nextToThisProgram(name) ?? onPath(name)
    }

    public static func nextToThisProgram(_ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let own = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let sibling = String(own[..<(own.lastIndex(of: "/") ?? own.startIndex)]) + "/" + name
        return access(sibling, X_OK) == 0 ? sibling : nil
    }

    public static func onPath(_ name: String) -> String? {
        let path = ProcessEnvironment.current["PATH"] ?? ""
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }
}
