// SPDX-License-Identifier: GPL-3.0-or-later
import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// An epoll instance: the one place the event loop waits.
public final class Epoll {
    public struct Events: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let readable = Events(rawValue: EPOLLIN.rawValue)
        public static let writable = Events(rawValue: EPOLLOUT.rawValue)
        public static let hangup = Events(rawValue: EPOLLHUP.rawValue)
        public static let error = Events(rawValue: EPOLLERR.rawValue)
        public static let peerClosed = Events(rawValue: EPOLLRDHUP.rawValue)
    }

    public let descriptor: FileDescriptor
    private var buffer = [epoll_event](repeating: epoll_event(), count: 256)

    public init() throws(Errno) {
        descriptor = FileDescriptor(rawValue: try Syscall.call("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) })
    }

    private func control(_ op: Int32, _ fd: FileDescriptor, _ events: Events, token: UInt64) throws(Errno) {
        var event = epoll_event()
        event.events = events.rawValue
        event.data.u64 = token
        _ = try Syscall.call("epoll_ctl") { epoll_ctl(descriptor.rawValue, op, fd.rawValue, &event) }
    }

    /// Watches `fd`; its events are reported with `token`, which the caller chooses so
    /// that a stale event for a closed descriptor is told from its number's next owner.
    public func add(_ fd: FileDescriptor, _ events: Events, token: UInt64) throws(Errno) {
        try control(EPOLL_CTL_ADD, fd, events, token: token)
    }
    public func modify(_ fd: FileDescriptor, _ events: Events, token: UInt64) throws(Errno) {
        try control(EPOLL_CTL_MOD, fd, events, token: token)
    }
    public func remove(_ fd: FileDescriptor) throws(Errno) { try control(EPOLL_CTL_DEL, fd, [], token: 0) }

    /// Waits up to `timeout` milliseconds (−1: forever); returns the ready registrations' tokens.
    public func wait(timeout: Int32) throws(Errno) -> [(token: UInt64, events: Events)] {
        let capacity = Int32(buffer.count)
        let count = try Syscall.call("epoll_wait") {
            buffer.withUnsafeMutableBufferPointer { epoll_wait(descriptor.rawValue, $0.baseAddress, capacity, timeout) }
        }
        return (0..<Int(count)).map { (buffer[$0].data.u64, Events(rawValue: buffer[$0].events)) }
    }

    public func close() { try? descriptor.close() }
}
