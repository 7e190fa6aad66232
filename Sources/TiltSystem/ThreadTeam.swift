// SPDX-License-Identifier: GPL-3.0-or-later
/// Threads that take on one piece of work together: the caller's and `size − 1`
/// helpers, started once and waiting between pieces. The helpers are scheduled as
/// the thread that makes the team (they inherit its policy and nice value). The hint
/// worker splits a 4×4 search over them (docs/solver.md, "Two cores").
public final class ThreadTeam: @unchecked Sendable {
    /// The threads `run` uses, the caller's included.
    public let size: Int
    private var helpers: [WorkerThread] = []
    /// One per helper: readable when a piece of work is there for it.
    private var starts: [WakeupDescriptor] = []
    /// Readable once the last helper has finished its part.
    private let finished: WakeupDescriptor
    private let work = Locked(Work())

    /// The piece under way, shared by the caller and the helpers.
    private struct Work {
        /// Valid only during `run`.
        var body: ((Int) -> Void)?
        /// Counts the pieces, so that a helper woken twice does its part once.
        var number = 0
        /// Helpers still on it.
        var running = 0
    }

    /// Starts `size − 1` helpers; on a failure, stops those already started.
    public init(size: Int) throws(Errno) {
        precondition(size >= 1, "a team has at least the caller's thread")
        self.size = size
        finished = try WakeupDescriptor()
        do throws(Errno) {
            for k in 1..<size {
                let start = try WakeupDescriptor()
                starts.append(start)
                let (work, finished) = (work, finished)
                helpers.append(try WorkerThread { stop in Self.help(k, start: start, work: work, finished: finished, stop: stop) })
            }
        } catch {
            close()
            throw error
        }
    }

    /// Calls `body(k)` for each k in 0..<size at once, k = 0 on the calling thread and
    /// the others on the helpers, and returns once all have returned. One caller at a time.
    public func run(_ body: (Int) -> Void) {
        guard size > 1 else { return body(0) }
        withoutActuallyEscaping(body) { body in
            work.withLock { work in
                work.body = body
                work.number += 1
                work.running = size - 1
            }
            for start in starts { start.signal() }
            body(0)
            // A helper's signal before this wait leaves `finished` readable: none is missed.
            while work.withLock({ $0.running }) > 0 {
                _ = try? Poll.wait([(finished.descriptor, .readable)], timeout: nil)
                finished.drain()
            }
            work.withLock { $0.body = nil }
        }
    }

    /// A helper's life: wait for work (or the stop), do its part, tell the caller.
    private static func help(_ k: Int, start: WakeupDescriptor, work: Locked<Work>, finished: WakeupDescriptor,
                             stop: WorkerThread.Stop) {
        var done = 0
        while !stop.isRequested {
            _ = try? Poll.wait([(stop.descriptor, .readable), (start.descriptor, .readable)], timeout: nil)
            start.drain()
            guard doPart(k, of: work, after: &done) else { continue }
            if work.withLock({ state in state.running -= 1; return state.running == 0 }) { finished.signal() }
        }
    }

    /// Runs the helper's part of a piece it has not done yet; false if there is none.
    /// Its hold on the body ends with this call, before the caller is told: the body
    /// must not outlive `run`.
    private static func doPart(_ k: Int, of work: Locked<Work>, after done: inout Int) -> Bool {
        let (body, number) = work.withLock { work in work.number != done ? (work.body, work.number) : (nil, done) }
        guard let body else { return false }
        done = number
        body(k)
        return true
    }

    private func close() {
        for helper in helpers { helper.stop() }
        helpers = []
        for start in starts { try? start.descriptor.close() }
        starts = []
        try? finished.descriptor.close()
    }

    deinit { close() }
}
