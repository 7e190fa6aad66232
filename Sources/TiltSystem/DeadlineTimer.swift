// SPDX-License-Identifier: GPL-3.0-or-later
import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// A one-shot timer on CLOCK_MONOTONIC that becomes readable at a deadline
/// (timerfd): the event loop's only clock, with nanosecond precision and no
/// wake-ups when nothing is due.
public struct DeadlineTimer: Sendable {
    public let descriptor: FileDescriptor

    public init() throws(Errno) {
        descriptor = FileDescriptor(rawValue: try Syscall.call("timerfd_create") {
            timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        })
    }

    /// Fires once at `deadline` (monotonic seconds); nil disarms it.
    public func arm(at deadline: Double?) throws(Errno) {
        var spec = itimerspec()
        if let deadline {
            // A zero value would disarm: a deadline already past fires at the next nanosecond.
            let when = max(deadline, 1e-9)
            spec.it_value.tv_sec = Int(when)
            spec.it_value.tv_nsec = max(1, Int((when - Double(Int(when))) * 1e9))
        }
        _ = try Syscall.call("timerfd_settime") { timerfd_settime(descriptor.rawValue, Int32(TFD_TIMER_ABSTIME), &spec, nil) }
    }

    /// Clears the expiry so the descriptor is no longer readable. EAGAIN here means
    /// it had not expired (re-armed meanwhile): nothing to clear.
    public func acknowledge() {
        var expirations: UInt64 = 0
        _ = try? Syscall.call("read") { Glibc.read(descriptor.rawValue, &expirations, 8) }
    }
}
