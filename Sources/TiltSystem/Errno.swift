#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A failed system call's error number, with the C library's message.
public struct Errno: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's current `errno`.
    public static var current: Errno { Errno(rawValue: errno) }

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

    public var description: String { String(cString: strerror(rawValue)) }
}
