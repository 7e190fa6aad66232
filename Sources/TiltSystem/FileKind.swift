// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#endif

/// What kind of file a path names, following symbolic links as `connect` and `open`
/// do: so a message can say why a path is not what it should be ("a directory, not a
/// socket").
public enum FileKind: Equatable, Sendable, CustomStringConvertible {
    case socket, directory, regular, other

    public init(path: String) throws(Errno) {
        var status = stat()
        _ = try Syscall.call("stat", { stat(path, &status) })
        switch status.st_mode & S_IFMT {
        case S_IFSOCK: self = .socket
        case S_IFDIR: self = .directory
        case S_IFREG: self = .regular
        default: self = .other
        }
    }

    public var description: String {
        switch self {
        case .socket: "a socket"
        case .directory: "a directory"
        case .regular: "a regular file"
        case .other: "a special file"
        }
    }
}
