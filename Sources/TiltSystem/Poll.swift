// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// poll(2) over a few descriptors: for small loops that wait on one or two
/// descriptors and a deadline (the recorder, tests), not for the daemon's loop.
public enum Poll {
    public struct Events: OptionSet, Sendable, Hashable {
        public let rawValue: Int16
        public init(rawValue: Int16) { self.rawValue = rawValue }
        public static let readable = Events(rawValue: Int16(POLLIN))
        public static let writable = Events(rawValue: Int16(POLLOUT))
        public static let error = Events(rawValue: Int16(POLLERR))
        public static let hangUp = Events(rawValue: Int16(POLLHUP))
        public static let invalid = Events(rawValue: Int16(POLLNVAL))
    }

    /// Waits until one of `requests` is ready or `timeout` seconds pass (nil: no limit);
    /// returns each descriptor's events, in the order asked, empty where none.
    /// An interruption restarts the wait with the whole timeout.
    public static func wait(_ requests: [(FileDescriptor, Events)], timeout: Double?) throws(Errno) -> [Events] {
        var fds = requests.map { pollfd(fd: $0.0.rawValue, events: $0.1.rawValue, revents: 0) }
        let milliseconds: Int32
        if let timeout {
            // Round up, so a wait for a deadline never wakes just before it.
            milliseconds = Int32(min(max((timeout * 1000).rounded(.up), 0), Double(Int32.max)))
        } else {
            milliseconds = -1
        }
        let count = nfds_t(fds.count)
        _ = try Syscall.call("poll") {
            fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, count, milliseconds) }
        }
        return fds.map { Events(rawValue: $0.revents) }
    }
}
