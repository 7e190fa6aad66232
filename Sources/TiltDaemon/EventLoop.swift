// SPDX-License-Identifier: GPL-3.0-or-later
import TiltSystem

/// The daemon's one event loop, in sd-event's three steps: prepare (each timer says
/// when it is next due, and the earliest arms one timerfd), wait (epoll over every
/// descriptor source: listening sockets, clients, sensor, udev monitor, signals, the
/// workers' eventfds), dispatch (the ready descriptors' handlers, then the timers that
/// are due). Nothing in it blocks; nothing wakes it unless a descriptor is ready or a
/// deadline is due.
///
/// Every source is known by a token that is never reused (swift-nio's registration
/// IDs): epoll reports the token, not the descriptor's number, so an event already
/// waited for on a descriptor that a handler then closed never reaches the source that
/// registered the same number after it.
final class EventLoop {
    struct Token: Hashable, Comparable, Sendable {
        fileprivate let rawValue: UInt64
        static func < (left: Token, right: Token) -> Bool { left.rawValue < right.rawValue }
    }

    /// Runs with the events and the time the loop woke (monotonic seconds).
    typealias Handler = (_ events: Epoll.Events, _ now: Double) -> Void
    /// When a timer is next due (monotonic seconds), asked before every wait; nil: not due.
    typealias Deadline = () -> Double?
    /// Runs with the time the timer was found due.
    typealias TimerHandler = (_ now: Double) -> Void

    private struct DescriptorSource {
        let descriptor: FileDescriptor
        let handler: Handler
    }

    private struct TimerSource {
        let deadline: Deadline
        let handler: TimerHandler
    }

    private let epoll: Epoll
    private let timer: DeadlineTimer
    /// The timerfd's own token: 0, never handed out.
    private static let timerToken = Token(rawValue: 0)
    private var lastToken = timerToken
    private var armedDeadline: Double?
    private var descriptors: [Token: DescriptorSource] = [:]
    private var timers: [Token: TimerSource] = [:]
    private var stopped = false
    private var closed = false

    init() throws(Errno) {
        epoll = try Epoll()
        timer = try DeadlineTimer()
        try epoll.add(timer.descriptor, .readable, token: Self.timerToken.rawValue)
    }

    private func newToken() -> Token {
        lastToken = Token(rawValue: lastToken.rawValue + 1)
        return lastToken
    }

    /// Watches `fd` for `events` until `remove`; the loop never closes it.
    @discardableResult
    func watch(_ fd: FileDescriptor, _ events: Epoll.Events, handler: @escaping Handler) throws(Errno) -> Token {
        let token = newToken()
        try epoll.add(fd, events, token: token.rawValue)
        descriptors[token] = DescriptorSource(descriptor: fd, handler: handler)
        return token
    }

    /// Changes what a descriptor source is watched for.
    func change(_ token: Token, _ events: Epoll.Events) {
        guard let source = descriptors[token] else { return }
        try? epoll.modify(source.descriptor, events, token: token.rawValue)
    }

    /// Adds a timer: it runs whenever `deadline` has passed when the loop dispatches,
    /// so a handler that is done moves its deadline on (or to nil).
    @discardableResult
    func addTimer(deadline: @escaping Deadline, handler: @escaping TimerHandler) -> Token {
        let token = newToken()
        timers[token] = TimerSource(deadline: deadline, handler: handler)
        return token
    }

    /// Removes a source; its events still waiting in this round are dropped. A
    /// descriptor is removed before it is closed, while epoll can still find it.
    func remove(_ token: Token) {
        if timers.removeValue(forKey: token) != nil { return }
        guard let source = descriptors.removeValue(forKey: token) else { return }
        try? epoll.remove(source.descriptor)
    }

    /// Runs rounds until `stop`. Throws what made waiting fail (an interrupted wait is
    /// waited again, in the syscall funnel): the loop cannot go on without it.
    func run() throws(Errno) {
        stopped = false
        while !stopped { try runOnce() }
    }

    /// Ends `run` once the current round is dispatched.
    func stop() { stopped = true }

    /// One round: prepare, wait, dispatch.
    func runOnce() throws(Errno) {
        let deadline = timers.values.compactMap { $0.deadline() }.min()
        if deadline != armedDeadline {
            try timer.arm(at: deadline)
            armedDeadline = deadline
        }
        let ready = try epoll.wait(timeout: -1)
        let woke = MonotonicClock.now()
        for (token, events) in ready.map({ (Token(rawValue: $0.token), $0.events) }) {
            if token == Self.timerToken {
                timer.acknowledge()
                armedDeadline = nil
                continue
            }
            // Nil for a source a handler removed in this round.
            descriptors[token]?.handler(events, woke)
        }
        // Earliest first, as if the loop had woken for each: a late wake-up (a busy
        // machine) finds several due, and they run in the order they fell due.
        let now = MonotonicClock.now()
        let due = timers.compactMap { token, source in source.deadline().flatMap { $0 <= now ? (token, $0) : nil } }
        for (token, _) in due.sorted(by: { ($0.1, $0.0) < ($1.1, $1.0) }) {
            // Asked again: an earlier handler may have removed it or moved it on.
            guard let source = timers[token], let at = source.deadline(), at <= now else { continue }
            source.handler(now)
        }
    }

    /// Closes the loop's own descriptors once, and lets go of every source's handler
    /// (which may hold what registered it).
    func close() {
        guard !closed else { return }
        closed = true
        descriptors.removeAll()
        timers.removeAll()
        epoll.close()
        try? timer.descriptor.close()
    }
}
