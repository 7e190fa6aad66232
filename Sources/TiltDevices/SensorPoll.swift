// SPDX-License-Identifier: GPL-3.0-or-later
import TiltSystem

/// Waits for a source with poll(2), for loops that have little else to do (the
/// recorder, the benchmark, tests); the daemon has its own event loop.
public enum SensorPoll {
    public struct Readiness: Equatable, Sendable {
        /// The source's descriptor is readable or its deadline has come: service it.
        public var sourceDue: Bool
        /// Which of the other descriptors are readable (or hung up).
        public var readable: [FileDescriptor]
    }

    /// Waits until `wait` is satisfied, one of `others` is readable, or the monotonic
    /// clock reaches `limit`, whichever is first.
    public static func wait(_ wait: SensorWait, others: [FileDescriptor] = [], until limit: Double) throws(Errno) -> Readiness {
        var requests = others.map { ($0, Poll.Events.readable) }
        var end = limit
        var sourceDeadline: Double?
        switch wait {
        case .readable(let fd): requests.append((fd, .readable))
        case .deadline(let time):
            sourceDeadline = time
            end = min(end, time)
        case .readableUntil(let fd, let time):
            requests.append((fd, .readable))
            sourceDeadline = time
            end = min(end, time)
        case .idle: break
        }
        let results = try Poll.wait(requests, timeout: max(0, end - MonotonicClock.now()))
        let ready: (Poll.Events) -> Bool = { !$0.isDisjoint(with: [.readable, .hangUp, .error]) }
        var due = false
        switch wait {
        case .readable, .readableUntil: due = ready(results[others.count])
        default: break
        }
        if let sourceDeadline, MonotonicClock.now() >= sourceDeadline { due = true }
        return Readiness(sourceDue: due, readable: zip(others, results).filter { ready($0.1) }.map(\.0))
    }
}
