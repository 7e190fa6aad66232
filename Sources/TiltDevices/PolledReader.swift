// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltSystem

/// Takes samples at fixed deadlines on a thread of its own, for a sensor that
/// is read rather than waited on (IIO's `in_accel_*_raw`): such a read may block.
/// On the HID sensor hub each raw attribute is a HID round trip, about a
/// millisecond, seconds when the hub is slow, and must not hold up the event loop.
///
/// The thread sleeps until the next deadline on a CLOCK_MONOTONIC timer armed at
/// an absolute time, so reads do not drift, and on a stop descriptor, so `stop`
/// wakes it at once. Each outcome goes to the loop through a hand-off: the loop
/// waits on `ready` and `take`s them.
///
/// Threads: `read` runs on the reader thread only, from `init` until `stop` has
/// returned; whatever it touches belongs to that thread meanwhile. The queue is
/// the hand-off's; the timer is the thread's while it runs (armed, waited on and read
/// there), closed by `stop` after it has ended.
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

    /// Outcomes for the loop, which waits on `outcomes.ready`.
    let outcomes: HandOff<Outcome>
    private let timer: DeadlineTimer
    /// Seconds spent in `read` so far, and how many reads (what a driver that sleeps in
    /// its reads costs: IIOSource raises its data rate when they take too long).
    private let readTimes = Locked<(seconds: Double, count: Int)>((0, 0))
    private var read: (() throws(Errno) -> Sample)?
    /// What a read's duration is measured on: the monotonic clock, or a test's.
    private let readClock: @Sendable () -> Double
    private var worker: WorkerThread?

    /// Starts reading: the first read at `first` (monotonic seconds), then every `interval`
    /// seconds; each read timed on `readClock`.
    init(interval: Double, first: Double, readClock: @escaping @Sendable () -> Double = { MonotonicClock.now() },
         read: @escaping () throws(Errno) -> Sample) throws(Errno) {
        self.readClock = readClock
        outcomes = try HandOff(limit: Self.queueLimit)
        do throws(Errno) {
            timer = try DeadlineTimer()
        } catch {
            outcomes.close()
            throw error
        }
        self.read = read
        do throws(Errno) {
            worker = try WorkerThread { [self] stop in run(interval: interval, first: first, stop: stop) }
        } catch {
            outcomes.close()
            try? timer.descriptor.close()
            throw error
        }
    }

    deinit { stop() }

    /// Readable while outcomes wait.
    var ready: WakeupDescriptor { outcomes.ready }

    /// The outcomes so far, oldest first; `ready` is not readable after this until the next one.
    func take() -> [Outcome] { outcomes.take() }

    /// The mean duration of the reads so far and how many there were.
    var readTime: (mean: Double, count: Int) {
        readTimes.withLock { $0.count > 0 ? ($0.seconds / Double($0.count), $0.count) : (0, 0) }
    }

    /// Wakes the thread and waits for it to end (a read in progress is finished
    /// first); then closes the descriptors. Safe to call twice.
    func stop() {
        guard let worker else { return }
        self.worker = nil
        worker.stop()
        read = nil
        outcomes.close()
        try? timer.descriptor.close()
    }

    // MARK: the reader thread

    private func run(interval: Double, first: Double, stop: WorkerThread.Stop) {
        guard let read else { return }
        var next = first
        while true {
            let woken: [Poll.Events]
            do throws(Errno) {
                try timer.arm(at: next)
                woken = try Poll.wait([(stop.descriptor, .readable), (timer.descriptor, .readable)], timeout: nil)
            } catch {
                outcomes.post(.stopped(error))
                return
            }
            if !woken[0].isEmpty { return }
            guard !woken[1].isEmpty else { continue }
            timer.acknowledge()
            let began = readClock()
            do throws(Errno) {
                let sample = try read()
                let took = readClock() - began
                readTimes.withLock { $0 = ($0.seconds + took, $0.count + 1) }
                outcomes.post(.sample(sample))
            } catch {
                outcomes.post(.readFailed(error))
            }
            next += interval
            let now = MonotonicClock.now()
            if next <= now { next = now + interval }
        }
    }
}
