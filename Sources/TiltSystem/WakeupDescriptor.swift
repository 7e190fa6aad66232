import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// A counter that wakes the event loop from another thread (eventfd).
public struct WakeupDescriptor: Sendable {
    public let descriptor: FileDescriptor

    public init() throws(Errno) {
        descriptor = FileDescriptor(rawValue: try Syscall.call("eventfd") { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) })
    }

    /// Wakes the loop; safe from any thread.
    public func signal() {
        var one: UInt64 = 1
        _ = Glibc.write(descriptor.rawValue, &one, 8)
    }

    /// Clears the wakeups seen so far.
    public func drain() {
        var value: UInt64 = 0
        _ = Glibc.read(descriptor.rawValue, &value, 8)
    }
}
