// SPDX-License-Identifier: GPL-3.0-or-later
import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// Signals delivered as readable events (signalfd), so the event loop handles
/// SIGTERM, SIGINT and SIGHUP in order with everything else, not in a handler.
public struct SignalDescriptor: Sendable {
    public let descriptor: FileDescriptor

    /// Blocks `signals` for the process and opens a non-blocking signalfd for them.
    public init(_ signals: [Int32]) throws(Errno) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        descriptor = FileDescriptor(rawValue: try Syscall.call("signalfd") {
            signalfd(-1, &set, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
        })
    }

    /// The pending signals, oldest first.
    public func read() -> [Int32] {
        var signals: [Int32] = []
        var info = signalfd_siginfo()
        while Glibc.read(descriptor.rawValue, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            signals.append(Int32(info.ssi_signo))
        }
        return signals
    }
}
