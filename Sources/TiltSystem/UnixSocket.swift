import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// Unix stream sockets: listen, accept, connect, peer credentials.
public enum UnixSocket {
    /// The longest path a sockaddr_un holds.
    public static let maxPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    static func address(_ path: String) throws(Errno) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count <= maxPathLength else { throw Errno(rawValue: ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }

    /// Runs one address-taking system call (bind, connect) through the funnel.
    static func call(_ name: String, _ path: String,
                     _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) throws(Errno) {
        var address = try address(path)
        _ = try Syscall.call(name) {
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
        }
    }

    static func makeSocket(nonBlocking: Bool) throws(Errno) -> FileDescriptor {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
        return FileDescriptor(rawValue: try Syscall.call("socket") { socket(AF_UNIX, type, 0) })
    }

    /// A non-blocking listening socket at `path`, made with `mode` permissions.
    /// A stale socket left by a crashed daemon is replaced; a live one is an error,
    /// and so is any other kind of file (it is never deleted).
    public static func listen(path: String, mode: mode_t = 0o660, backlog: Int32 = 128) throws(Errno) -> FileDescriptor {
        var existing = stat()
        if lstat(path, &existing) == 0 {
            guard existing.st_mode & S_IFMT == S_IFSOCK else { throw Errno(rawValue: EEXIST) }
            if (try? connect(path: path)).map({ try? $0.close(); return true }) == true {
                throw Errno.addressInUse
            }
            _ = try Syscall.call("unlink") { unlink(path) }
        }
        let fd = try makeSocket(nonBlocking: true)
        do throws(Errno) {
            let previous = umask(~mode & 0o777)
            defer { umask(previous) }
            try call("bind", path) { address, length in bind(fd.rawValue, address, length) }
            _ = try Syscall.call("listen") { Glibc.listen(fd.rawValue, backlog) }
        } catch {
            try? fd.close()
            throw error
        }
        return fd
    }

    /// Accepts one pending connection as a non-blocking descriptor; nil when none is pending.
    public static func accept(_ listener: FileDescriptor) throws(Errno) -> FileDescriptor? {
        do throws(Errno) {
            let flags = Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            return FileDescriptor(rawValue: try Syscall.call("accept") { accept4(listener.rawValue, nil, nil, flags) })
        } catch where error == .wouldBlock || error == Errno(rawValue: ECONNABORTED) {
            return nil
        }
    }

    /// A blocking connection to `path`.
    public static func connect(path: String) throws(Errno) -> FileDescriptor {
        let fd = try makeSocket(nonBlocking: false)
        do throws(Errno) {
            try call("connect", path) { address, length in Glibc.connect(fd.rawValue, address, length) }
        } catch {
            try? fd.close()
            throw error
        }
        return fd
    }

    /// A datagram socket bound at `path` (what systemd's notification socket is).
    public static func bindDatagram(path: String) throws(Errno) -> FileDescriptor {
        let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = FileDescriptor(rawValue: try Syscall.call("socket") { socket(AF_UNIX, type, 0) })
        do throws(Errno) {
            try call("bind", path) { address, length in bind(fd.rawValue, address, length) }
        } catch {
            try? fd.close()
            throw error
        }
        return fd
    }

    public struct Credentials: Equatable, Sendable, CustomStringConvertible {
        public var pid: Int32
        public var uid: UInt32
        public var gid: UInt32

        public init(pid: Int32, uid: UInt32, gid: UInt32) {
            self.pid = pid
            self.uid = uid
            self.gid = gid
        }

        public var description: String { describe(in: .current) }

        /// `pid=… uid=… gid=…`, leaving out an id the namespace cannot name: the
        /// kernel reports those as the overflow id (see `UserNamespace`).
        public func describe(in namespace: UserNamespace) -> String {
            var text = "pid=\(pid)"
            var hidden: [String] = []
            if namespace.mapsUser(uid) { text += " uid=\(uid)" } else { hidden.append("uid") }
            if namespace.mapsGroup(gid) { text += " gid=\(gid)" } else { hidden.append("gid") }
            if !hidden.isEmpty {
                text += " (\(hidden.joined(separator: " and ")) not visible in the service's user namespace)"
            }
            return text
        }
    }

    /// The connected peer's process and user (SO_PEERCRED).
    public static func peerCredentials(_ fd: FileDescriptor) -> Credentials? {
        var credentials = clinux_ucred()
        var length = socklen_t(MemoryLayout<clinux_ucred>.size)
        guard getsockopt(fd.rawValue, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        return Credentials(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid)
    }

    /// Whether `fd` is a listening Unix stream socket (for socket activation).
    public static func isListeningStream(_ fd: FileDescriptor) -> Bool {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd.rawValue, SOL_SOCKET, SO_ACCEPTCONN, &value, &length) == 0 else { return false }
        return value == 1
    }

    /// Sends without raising SIGPIPE; 0 when the socket buffer is full.
    public static func send(_ fd: FileDescriptor, _ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
        do throws(Errno) {
            return try Syscall.call("send") { Glibc.send(fd.rawValue, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL)) }
        } catch where error == .wouldBlock {
            return 0
        }
    }
}
