// SPDX-License-Identifier: GPL-3.0-or-later
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

    /// Wakes the loop; safe from any thread. The one failure an open eventfd gives,
    /// EAGAIN (the counter is full), means it is readable already, so nothing is lost.
    public func signal() {
        var one: UInt64 = 1
        _ = try? Syscall.call("write") { Glibc.write(descriptor.rawValue, &one, 8) }
    }

    /// Clears the wakeups seen so far. EAGAIN here means there were none.
    public func drain() {
        var value: UInt64 = 0
        _ = try? Syscall.call("read") { Glibc.read(descriptor.rawValue, &value, 8) }
    }
}
