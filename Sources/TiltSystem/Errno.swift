// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A failed system call's error number, with the name of the call that failed (as
/// swift-nio's `IOError` keeps it) and the C library's message.
///
/// Two values are equal when their numbers are: `catch where error == .wouldBlock`
/// asks what went wrong, not where.
public struct Errno: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int32
    /// The system call that failed ("open", "epoll_ctl"), when a call reported it.
    public var call: String?

    public init(rawValue: Int32) { self.rawValue = rawValue }

    public init(rawValue: Int32, call: String?) {
        self.rawValue = rawValue
        self.call = call
    }

    /// The calling thread's current `errno`.
    public static var current: Errno { Errno(rawValue: errno) }

    /// The same error, as reported by `name`.
    public func reported(by name: String) -> Errno { Errno(rawValue: rawValue, call: name) }

    public static let interrupted = Errno(rawValue: EINTR)
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    public static let noSuchFile = Errno(rawValue: ENOENT)
    public static let noSuchDevice = Errno(rawValue: ENODEV)
    public static let permissionDenied = Errno(rawValue: EACCES)
    public static let badFileDescriptor = Errno(rawValue: EBADF)
    public static let brokenPipe = Errno(rawValue: EPIPE)
    public static let connectionRefused = Errno(rawValue: ECONNREFUSED)
    public static let inProgress = Errno(rawValue: EINPROGRESS)
    public static let busy = Errno(rawValue: EBUSY)
    public static let noSpace = Errno(rawValue: ENOSPC)
    public static let addressInUse = Errno(rawValue: EADDRINUSE)
    public static let invalidArgument = Errno(rawValue: EINVAL)
    public static let ioError = Errno(rawValue: EIO)
    public static let fileExists = Errno(rawValue: EEXIST)
    public static let fileTooLarge = Errno(rawValue: EFBIG)
    public static let nameTooLong = Errno(rawValue: ENAMETOOLONG)
    public static let connectionAborted = Errno(rawValue: ECONNABORTED)
    public static let tooManyOpenFiles = Errno(rawValue: EMFILE)
    public static let tooManyOpenFilesInSystem = Errno(rawValue: ENFILE)

    public static func == (left: Errno, right: Errno) -> Bool { left.rawValue == right.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// The C library's message, after the call's name when there is one ("open: No such file or directory").
    public var description: String {
        let message = String(cString: strerror(rawValue))
        return call.map { "\($0): \(message)" } ?? message
    }
}
