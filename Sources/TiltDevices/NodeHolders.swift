// SPDX-License-Identifier: GPL-3.0-or-later
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// Which programs have a device node open, by their `comm` name: to tell a player
/// who holds the accelerometer (docs/sensors.md, "A sensor held by another program").
///
/// Reads `/proc/PID/fd/*`: the links name what each descriptor has open. Only the
/// processes whose descriptors this one may inspect (the same user, or root) are
/// seen; the others are skipped, so an empty answer means "none that we can see".
public enum NodeHolders {
    /// The names of the processes other than this one that have `node` open, sorted,
    /// each once. `procRoot` is for tests.
    public static func programs(holding node: String, procRoot: String = "/proc") -> [String] {
        let device = rdev(node)
        let me = getpid()
        var names = Set<String>()
        for pid in SysfsFile.entries(procRoot) {
            guard let number = Int32(pid), number != me else { continue }
            let fds = procRoot + "/" + pid + "/fd"
            let held = SysfsFile.entries(fds).contains { fd in
                let link = fds + "/" + fd
                if readLink(link) == node { return true }
                guard let device, let opened = rdev(link) else { return false }
                return opened == device
            }
            guard held else { continue }
            let comm = SysfsFile.read(procRoot + "/" + pid + "/comm") ?? ""
            names.insert(comm.isEmpty ? "process \(pid)" : comm)
        }
        return names.sorted()
    }

    private static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard let count = try? Syscall.call("readlink", { readlink(path, &buffer, buffer.count - 1) }) else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The device number of a character device (following links), nil for anything else.
    private static func rdev(_ path: String) -> UInt? {
        var info = stat()
        guard (try? Syscall.call("stat", { stat(path, &info) })) != nil,
              info.st_mode & S_IFMT == S_IFCHR else { return nil }
        return UInt(info.st_rdev)
    }
}
