import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// The daemon's one event loop: epoll over every descriptor (listening socket,
/// clients, sensor, udev monitor, signals, save completions), plus one deadline
/// kept by a timerfd. Nothing in it blocks; nothing wakes it unless a descriptor
/// is ready or the deadline is due.
final class EventLoop {
    typealias Handler = (Epoll.Events) -> Void

    private let epoll: Epoll
    private let timer: DeadlineTimer
    private var armedDeadline: Double?
    private var handlers: [Int32: Handler] = [:]

    init() throws(Errno) {
        epoll = try Epoll()
        timer = try DeadlineTimer()
        try epoll.add(timer.descriptor, .readable)
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
        if deadline != armedDeadline {
            timer.arm(at: deadline)
            armedDeadline = deadline
        }
        let ready: [(FileDescriptor, Epoll.Events)]
        do throws(Errno) {
            ready = try epoll.wait(timeout: -1)
        } catch {
            return
        }
        for (fd, events) in ready {
            if fd == timer.descriptor {
                timer.acknowledge()
                armedDeadline = nil
                continue
            }
            // A handler may have closed another ready descriptor.
            handlers[fd.rawValue]?(events)
        }
    }

    func close() {
        epoll.close()
        try? timer.descriptor.close()
    }
}
