// SPDX-License-Identifier: GPL-3.0-or-later
import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// Unix sockets: listen, accept, connect, peer credentials; datagrams for systemd's notifications.
public enum UnixSocket {
    /// The longest path a sockaddr_un holds.
    public static let maxPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    static func address(_ path: String) throws(Errno) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count <= maxPathLength else { throw Errno.nameTooLong }
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
            guard existing.st_mode & S_IFMT == S_IFSOCK else { throw Errno.fileExists }
            if (try? connect(path: path)).map({ try? $0.close(); return true }) == true {
                throw Errno.addressInUse
            }
            _ = try Syscall.call("unlink") { unlink(path) }
        }
        let fd = try makeSocket(nonBlocking: true)
        var bound = false
        do throws(Errno) {
            try call("bind", path) { address, length in bind(fd.rawValue, address, length) }
            bound = true
            // The mode is set on the path, not through the umask, which every thread of
            // the process shares; nobody can connect before `listen` anyway.
            _ = try Syscall.call("chmod") { chmod(path, mode) }
            _ = try Syscall.call("listen") { Glibc.listen(fd.rawValue, backlog) }
        } catch {
            try? fd.close()
            if bound { unlink(path) }
            throw error
        }
        return fd
    }

    /// Accepts one pending connection as a non-blocking descriptor; nil when none is pending.
    public static func accept(_ listener: FileDescriptor) throws(Errno) -> FileDescriptor? {
        do throws(Errno) {
            let flags = Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            return FileDescriptor(rawValue: try Syscall.call("accept") { accept4(listener.rawValue, nil, nil, flags) })
        } catch where error == .wouldBlock || error == .connectionAborted {
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

    /// A datagram socket bound at `name` (what systemd's notification socket is): a
    /// path, or "@name" in the abstract namespace (`datagramAddress`).
    public static func bindDatagram(path name: String) throws(Errno) -> FileDescriptor {
        let fd = try makeDatagramSocket()
        do throws(Errno) {
            try withDatagramAddress(name) { (address, length) throws(Errno) in
                _ = try Syscall.call("bind") { bind(fd.rawValue, address, length) }
            }
        } catch {
            try? fd.close()
            throw error
        }
        return fd
    }

    /// Sends `message` as one datagram to the socket `name` names, as `sd_notify` does:
    /// from a fresh unbound socket, without blocking (EAGAIN when the receiver's queue
    /// is full) and without SIGPIPE.
    public static func sendDatagram(_ message: [UInt8], to name: String) throws(Errno) {
        let fd = try makeDatagramSocket()
        defer { try? fd.close() }
        try withDatagramAddress(name) { (address, length) throws(Errno) in
            _ = try Syscall.call("sendto") {
                message.withUnsafeBytes { bytes in
                    sendto(fd.rawValue, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT), address, length)
                }
            }
        }
    }

    static func makeDatagramSocket() throws(Errno) -> FileDescriptor {
        let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        return FileDescriptor(rawValue: try Syscall.call("socket") { socket(AF_UNIX, type, 0) })
    }

    /// The address `name` stands for, in the form systemd's NOTIFY_SOCKET uses: a path,
    /// or with a leading "@" a name in Linux's abstract namespace, whose first byte is
    /// NUL and whose length is exact (no terminating NUL: the address is all of it).
    static func withDatagramAddress(_ name: String,
                                    _ body: (UnsafePointer<sockaddr>, socklen_t) throws(Errno) -> Void) throws(Errno) {
        var bytes = Array(name.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count <= (abstract ? capacity : capacity - 1) else {
            throw Errno.nameTooLong
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (abstract ? 0 : 1))
        try withUnsafePointer(to: &address) { (pointer) throws(Errno) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (address) throws(Errno) in
                try body(address, length)
            }
        }
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
