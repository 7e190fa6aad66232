import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// The daemon's one event loop: epoll over every descriptor (listening socket,
/// clients, sensor, udev monitor, signals, save completions), plus one deadline.
/// Nothing in it blocks; nothing runs on a timer unless a deadline asks for it.
final class EventLoop {
    typealias Handler = (Epoll.Events) -> Void

    private let epoll: Epoll
    private var handlers: [Int32: Handler] = [:]

    init() throws(Errno) {
        epoll = try Epoll()
    }

    func watch(_ fd: FileDescriptor, _ events: Epoll.Events, handler: @escaping Handler) throws(Errno) {
        try epoll.add(fd, events)
        handlers[fd.rawValue] = handler
    }

    func change(_ fd: FileDescriptor, _ events: Epoll.Events) {
        try? epoll.modify(fd, events)
    }

    func unwatch(_ fd: FileDescriptor) {
        guard handlers.removeValue(forKey: fd.rawValue) != nil else { return }
        try? epoll.remove(fd)
    }

    /// Waits until a descriptor is ready or `deadline` (monotonic seconds) passes,
    /// then runs the handlers of the ready descriptors.
    func runOnce(until deadline: Double?) {
        var timeout: Int32 = -1
        if let deadline {
            let milliseconds = (deadline - MonotonicClock.now()) * 1000
            // Round up: waking a little early would spin until the deadline.
            timeout = milliseconds <= 0 ? 0 : Int32(min(milliseconds.rounded(.up), 3_600_000))
        }
        let ready: [(FileDescriptor, Epoll.Events)]
        do throws(Errno) {
            ready = try epoll.wait(timeout: timeout)
        } catch {
            return
        }
        for (fd, events) in ready {
            // A handler may have closed another ready descriptor.
            handlers[fd.rawValue]?(events)
        }
    }

    func close() { epoll.close() }
}
