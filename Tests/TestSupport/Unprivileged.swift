// SPDX-License-Identifier: GPL-3.0-or-later
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// A built program run as `nobody` when the tests run as root, where root would
/// write anywhere and open any socket.
public enum Unprivileged {
    public static var isAvailable: Bool { getuid() == 0 && access(setpriv, X_OK) == 0 }

    static let setpriv = "/usr/bin/setpriv"

    /// How to run `program` (a built product's name) as nobody: setpriv as the launcher
    /// and a copy of the program in `directory`, since the build folder may be out of
    /// that user's reach; the folder is opened to others for search (mkdtemp made it
    /// 0700, and a kernel refuses to execute a file below a folder the user may not
    /// search). Not root: no launcher, and the built program itself.
    public static func command(_ program: String, in directory: TemporaryDirectory) throws
        -> (launcher: [String], executable: String) {
        let built = BuiltProducts.url(program).path
        guard getuid() == 0 else { return ([], built) }
        guard chmod(directory.path, 0o711) == 0 else { throw TestFailure("chmod \(directory.path): \(String(cString: strerror(errno)))") }
        let copy = directory.path + "/" + program
        // Written through a close-on-exec descriptor: a copy whose write end a program
        // started meanwhile inherited could not be executed (ETXTBSY).
        try FileDescriptor.replaceAtomically(copy, with: FileDescriptor.readAll(built, limit: 1 << 30), permissions: 0o755)
        return ([setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--"], copy)
    }
}
