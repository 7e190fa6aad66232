import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// A built program run as `nobody` when the tests run as root, where root would
/// write anywhere and open any socket.
public enum Unprivileged {
    public static var isAvailable: Bool { getuid() == 0 && access(setpriv, X_OK) == 0 }

    static let setpriv = "/usr/bin/setpriv"

    /// The command line that runs `program` (a built product's name) as nobody: a copy
    /// of it in `directory`, since the build folder may be out of that user's reach,
    /// and the folder opened to others for search (mkdtemp made it 0700, and a kernel
    /// refuses to execute a file below a folder the user may not search).
    /// Not root: the built program itself, run as this user.
    public static func command(_ program: String, in directory: TemporaryDirectory) throws -> [String] {
        let built = BuiltProducts.url(program).path
        guard getuid() == 0 else { return [built] }
        guard chmod(directory.path, 0o711) == 0 else { throw TestFailure("chmod \(directory.path): \(String(cString: strerror(errno)))") }
        let copy = directory.path + "/" + program
        // Written through a close-on-exec descriptor: a copy whose write end a program
        // started meanwhile inherited could not be executed (ETXTBSY).
        try FileDescriptor.replaceAtomically(copy, with: FileDescriptor.readAll(built, limit: 1 << 30), permissions: 0o755)
        return [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--", copy]
    }

    /// The modes and owners of `path` and the folders above it, and the mount options
    /// of its file system: what decides whether nobody may execute it.
    public static func describe(_ path: String) -> String {
        var lines: [String] = []
        var current = path
        while !current.isEmpty {
            var info = stat()
            let mode = stat(current, &info) == 0 ? String(info.st_mode & 0o7777, radix: 8) + " uid \(info.st_uid)" : "unreadable"
            lines.append("\(current): \(mode)")
            guard let slash = current.lastIndex(of: "/") else { break }
            current = String(current[..<slash])
        }
        let mounts = (try? FileDescriptor.readText("/proc/self/mounts", limit: 1 << 20)) ?? ""
        let tmp = mounts.split(separator: "\n").filter { $0.split(separator: " ").dropFirst().first.map { path.hasPrefix(String($0)) } ?? false }
        return (lines + tmp.map(String.init)).joined(separator: "; ")
    }
}
