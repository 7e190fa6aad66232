// SPDX-License-Identifier: GPL-3.0-or-later
import CLinux
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file descriptor: a typed wrapper over an `Int32`, with the operations we use.
///
/// It does not close itself: ownership stays explicit, as with swift-system.
public struct FileDescriptor: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let standardInput = FileDescriptor(rawValue: 0)
    public static let standardOutput = FileDescriptor(rawValue: 1)
    public static let standardError = FileDescriptor(rawValue: 2)

    public struct OpenOptions: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        public static let readOnly = OpenOptions([])
        public static let writeOnly = OpenOptions(rawValue: O_WRONLY)
        public static let readWrite = OpenOptions(rawValue: O_RDWR)
        public static let create = OpenOptions(rawValue: O_CREAT)
        public static let truncate = OpenOptions(rawValue: O_TRUNC)
        public static let exclusive = OpenOptions(rawValue: O_EXCL)
        public static let append = OpenOptions(rawValue: O_APPEND)
        public static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
        public static let directory = OpenOptions(rawValue: O_DIRECTORY)
    }

    /// Opens `path`; always close-on-exec, so no descriptor leaks into children.
    public static func open(_ path: String, _ options: OpenOptions = .readOnly,
                            permissions: mode_t = 0o644) throws(Errno) -> FileDescriptor {
        let fd = try Syscall.call("open") { Glibc.open(path, options.rawValue | O_CLOEXEC, permissions) }
        return FileDescriptor(rawValue: fd)
    }

    /// Reads up to `buffer.count` bytes; 0 at the end of the file.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try Syscall.call("read") { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Reads into an array's existing storage; returns how many bytes arrived.
    public func read(into bytes: inout [UInt8]) throws(Errno) -> Int {
        let result = bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(Errno) in try read(into: buffer) }
        }
        return try result.get()
    }

    /// A whole (small) file as UTF-8 text.
    public static func readText(_ path: String, limit: Int = 1 << 20) throws(Errno) -> String {
        String(decoding: try readAll(path, limit: limit), as: UTF8.self)
    }

    /// A whole file's bytes; EFBIG once it passes `limit` (a file that large is not ours).
    public static func readAll(_ path: String, limit: Int) throws(Errno) -> [UInt8] {
        let fd = try open(path)
        defer { try? fd.close() }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = try fd.read(into: &chunk)
            if count == 0 { return bytes }
            bytes += chunk[..<count]
            if bytes.count > limit { throw Errno.fileTooLarge }
        }
    }

    /// Replaces the file at `path` with `bytes` so that a crash at any point leaves the
    /// old file or the new one, whole: a temporary file, fsync, rename over the old
    /// one, fsync the folder.
    public static func replaceAtomically(_ path: String, with bytes: [UInt8], permissions: mode_t = 0o600) throws(Errno) {
        let temporary = path + ".tmp"
        let fd = try open(temporary, [.writeOnly, .create, .truncate], permissions: permissions)
        do throws(Errno) {
            // Exactly these permissions: open's mode is narrowed by the process's umask,
            // which a service may have set (systemd's `UMask=`).
            _ = try Syscall.call("fchmod") { fchmod(fd.rawValue, permissions) }
            try fd.writeAll(bytes)
            try fd.sync()
            try fd.close()
        } catch {
            try? fd.close()
            _ = try? Syscall.call("unlink") { unlink(temporary) }
            throw error
        }
        do throws(Errno) {
            _ = try Syscall.call("rename") { rename(temporary, path) }
        } catch {
            _ = try? Syscall.call("unlink") { unlink(temporary) }
            throw error
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let directory = try open(folder, [.directory])
        defer { try? directory.close() }
        try directory.sync()
    }

    /// Writes some of `buffer`; returns how much.
    public func write(_ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try Syscall.call("write") { Glibc.write(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Writes all of `buffer` (for blocking descriptors).
    public func writeAll(_ buffer: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < buffer.count {
            offset += try write(UnsafeRawBufferPointer(rebasing: buffer[offset...]))
        }
    }

    public func writeAll(_ bytes: [UInt8]) throws(Errno) {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(Errno) in try writeAll(buffer) }
        }
        try result.get()
    }

    public func writeAll(_ text: String) throws(Errno) {
        var text = text
        let result = text.withUTF8 { bytes in
            Result { () throws(Errno) in try writeAll(UnsafeRawBufferPointer(bytes)) }
        }
        try result.get()
    }

    public func close() throws(Errno) {
        // Linux closes the descriptor even when close reports EINTR: never retry, and
        // an interrupted close is a closed descriptor, not an error.
        if let fault = Syscall.faultCheck("close"), fault != .interrupted { throw fault }
        if Glibc.close(rawValue) == -1, errno != EINTR { throw Errno.current.reported(by: "close") }
    }

    public func sync() throws(Errno) {
        _ = try Syscall.call("fsync") { fsync(rawValue) }
    }

    /// Cuts (or extends) the file to `length` bytes.
    public func truncate(to length: Int) throws(Errno) {
        _ = try Syscall.call("ftruncate") { ftruncate(rawValue, off_t(length)) }
    }

    public func setNonBlocking(_ on: Bool = true) throws(Errno) {
        let flags = try Syscall.call("fcntl") { fcntl(rawValue, F_GETFL) }
        _ = try Syscall.call("fcntl") { fcntl(rawValue, F_SETFL, on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK) }
    }

    public var isTerminal: Bool { isatty(rawValue) == 1 }

    /// A pipe (read end, write end), both closed on exec: a child gets only the copy
    /// it is handed.
    public static func pipe() throws(Errno) -> (read: FileDescriptor, write: FileDescriptor) {
        var ends: [Int32] = [-1, -1]
        _ = try Syscall.call("pipe2") { pipe2(&ends, O_CLOEXEC) }
        return (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
    }
}
