import TiltCore
import TiltSystem

/// Takes samples at fixed deadlines on a thread of its own, for a sensor that
/// is read rather than waited on (IIO's `in_accel_*_raw`): such a read may block.
/// On the HID sensor hub each raw attribute is a HID round trip, about a
/// millisecond, seconds when the hub is slow, and must not hold up the event loop.
///
/// The thread sleeps until the next deadline on a CLOCK_MONOTONIC timer armed at
/// an absolute time, so reads do not drift, and on a stop descriptor, so `stop`
/// wakes it at once. Each outcome goes into a queue behind a mutex and makes
/// `ready` (an eventfd) readable; the loop waits on that and `take`s the queue.
///
/// Threads: `read` runs on the reader thread only, from `init` until `stop` has
/// returned; whatever it touches belongs to that thread meanwhile. The queue is
/// shared under its mutex; the descriptors are the owner's (the thread only
/// signals `ready`, waits on the timer and the stop descriptor, and reads the timer).
final class PolledReader: @unchecked Sendable {
    // @unchecked: `read` is not Sendable; it is called on the reader thread only,
    // and dropped by `stop` after the thread has ended.

    enum Outcome: Equatable, Sendable {
        case sample(Sample)
        /// This read failed; the next deadline is kept.
        case readFailed(Errno)
        /// The thread could not wait for a deadline and has ended.
        case stopped(Errno)
    }

    /// Outcomes kept for a loop that does not take them, the oldest dropped first.
    static let queueLimit = 256

    /// Readable while outcomes wait in the queue.
    let ready: WakeupDescriptor
    private let stopping: WakeupDescriptor
    private let timer: DeadlineTimer
    private let queue = Locked<[Outcome]>([])
    /// Seconds spent in `read` so far, and how many reads (what a driver that sleeps in
    /// its reads costs: IIOSource raises its data rate when they take too long).
    private let readTimes = Locked<(seconds: Double, count: Int)>((0, 0))
    private var read: (() throws(Errno) -> Sample)?
    private var thread: JoinableThread?

    /// Starts reading: the first read at `first` (monotonic seconds), then every `interval` seconds.
    init(interval: Double, first: Double, read: @escaping () throws(Errno) -> Sample) throws(Errno) {
        var made: [FileDescriptor] = []
        do throws(Errno) {
            ready = try WakeupDescriptor()
            made.append(ready.descriptor)
            stopping = try WakeupDescriptor()
            made.append(stopping.descriptor)
            timer = try DeadlineTimer()
            made.append(timer.descriptor)
            self.read = read
            thread = try JoinableThread { [self] in run(interval: interval, first: first) }
        } catch {
            for fd in made { try? fd.close() }
            throw error
        }
    }

    deinit { stop() }

    /// The outcomes so far, oldest first; `ready` is not readable after this until the next one.
    func take() -> [Outcome] {
        // Drained before the queue is emptied: an outcome added in between signals again.
        ready.drain()
        return queue.withLock { outcomes in
            defer { outcomes.removeAll(keepingCapacity: true) }
            return outcomes
        }
    }

    /// The mean duration of the reads so far and how many there were.
    var readTime: (mean: Double, count: Int) {
        readTimes.withLock { $0.count > 0 ? ($0.seconds / Double($0.count), $0.count) : (0, 0) }
    }

    /// Wakes the thread and waits for it to end (a read in progress is finished
    /// first); then closes the descriptors. Safe to call twice.
    func stop() {
        guard let thread else { return }
        self.thread = nil
        stopping.signal()
        thread.join()
        read = nil
        for fd in [ready.descriptor, stopping.descriptor, timer.descriptor] { try? fd.close() }
    }

    // MARK: the reader thread

    private func run(interval: Double, first: Double) {
        guard let read else { return }
        var next = first
        while true {
            timer.arm(at: next)
            let woken: [Poll.Events]
            do throws(Errno) {
                woken = try Poll.wait([(stopping.descriptor, .readable), (timer.descriptor, .readable)], timeout: nil)
            } catch {
                post(.stopped(error))
                return
            }
            if !woken[0].isEmpty { return }
            guard !woken[1].isEmpty else { continue }
            timer.acknowledge()
            let began = MonotonicClock.now()
            do throws(Errno) {
                let sample = try read()
                let took = MonotonicClock.now() - began
                readTimes.withLock { $0 = ($0.seconds + took, $0.count + 1) }
                post(.sample(sample))
            } catch {
                post(.readFailed(error))
            }
            next += interval
            let now = MonotonicClock.now()
            if next <= now { next = now + interval }
        }
    }

    private func post(_ outcome: Outcome) {
        queue.withLock { outcomes in
            if outcomes.count >= Self.queueLimit { outcomes.removeFirst(outcomes.count - Self.queueLimit + 1) }
            outcomes.append(outcome)
        }
        ready.signal()
    }
}
