// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing
import TiltCore
import TiltSystem
@testable import TiltDevices

/// The polled IIO path's reader thread, with a read that needs no device.
@Suite struct PolledReaderTests {
    /// A read that counts its calls; the calls listed in `failing` fail with EIO.
    final class CountingRead: Sendable {
        let calls = Mutex(0)
        let failing: Set<Int>

        init(failing: Set<Int> = []) { self.failing = failing }

        func read() throws(Errno) -> Sample {
            let call = calls.withLock { count in
                count += 1
                return count
            }
            if failing.contains(call) { throw Errno.ioError }
            return Sample(time: MonotonicClock.now(), acceleration: Vector3(Double(call), 0, 9.8))
        }
    }

    /// Waits on `ready` and takes outcomes until `count` of them came, or 5 s passed.
    static func collect(_ reader: PolledReader, count: Int) throws -> [PolledReader.Outcome] {
        var outcomes: [PolledReader.Outcome] = []
        let limit = MonotonicClock.now() + 5
        while outcomes.count < count, MonotonicClock.now() < limit {
            let ready = try Poll.wait([(reader.ready.descriptor, .readable)], timeout: limit - MonotonicClock.now())
            if !ready[0].isEmpty { outcomes += reader.take() }
        }
        return outcomes
    }

    @Test func samplesComeInOrderThroughTheDescriptor() throws {
        let counter = CountingRead()
        let start = MonotonicClock.now()
        let reader = try PolledReader(interval: 0.01, first: start) { () throws(Errno) in try counter.read() }
        defer { reader.stop() }
        let outcomes = try Self.collect(reader, count: 3)
        let samples = outcomes.compactMap { if case .sample(let sample) = $0 { sample } else { nil } }
        #expect(samples.count == outcomes.count)
        #expect(samples.prefix(3).map(\.acceleration.x) == [1, 2, 3])
        #expect(samples.first.map { $0.time >= start } == true)
        #expect(zip(samples, samples.dropFirst()).allSatisfy { $0.time < $1.time })
    }

    /// What a driver that sleeps in its reads costs is measured (IIOSource speeds it up),
    /// on the clock the reader is handed: here one that each read moves on by 20 ms.
    @Test func readsAreTimedOnTheClockHanded() throws {
        let clock = Locked(100.0)
        let reader = try PolledReader(interval: 0.005, first: MonotonicClock.now(), readClock: { clock.withLock { $0 } }) {
            () throws(Errno) in
            clock.withLock { $0 += 0.02 }
            return Sample(time: MonotonicClock.now(), x: 0, y: 0, z: 9.8)
        }
        _ = try Self.collect(reader, count: 3)
        reader.stop()
        let (mean, count) = reader.readTime
        #expect(count >= 3)
        #expect(abs(mean - 0.02) < 1e-9)
        #expect(abs(clock.withLock { $0 } - (100 + 0.02 * Double(count))) < 1e-9)
    }

    @Test func aFailedReadIsReportedAndTheNextDeadlineKept() throws {
        let counter = CountingRead(failing: [2])
        let reader = try PolledReader(interval: 0.01, first: MonotonicClock.now()) { () throws(Errno) in try counter.read() }
        defer { reader.stop() }
        let outcomes = try Self.collect(reader, count: 3)
        #expect(outcomes.count >= 3)
        guard outcomes.count >= 3 else { return }
        #expect(outcomes[1] == .readFailed(.ioError))
        if case .sample(let third) = outcomes[2] {
            #expect(third.acceleration.x == 3)
        } else {
            Issue.record("after a failed read, the next one: \(outcomes[2])")
        }
    }

    /// A reader asleep until a far deadline wakes at stop; its read is never called.
    @Test func stopWakesASleepingReader() throws {
        let counter = CountingRead()
        let reader = try PolledReader(interval: 3600, first: MonotonicClock.now() + 3600) { () throws(Errno) in
            try counter.read()
        }
        #expect(try Poll.wait([(reader.ready.descriptor, .readable)], timeout: 0.05) == [[]])
        // Stopped from a thread of its own, so a reader that sleeps through stop (an
        // hour) fails the test instead of hanging it; the limit only catches that.
        let stopped = try WakeupDescriptor()
        defer { try? stopped.descriptor.close() }
        let stopper = try WorkerThread { _ in
            reader.stop()
            stopped.signal()
        }
        let woken = try Poll.wait([(stopped.descriptor, .readable)], timeout: 60) == [.readable]
        #expect(woken)
        guard woken else { return }
        stopper.stop()
        #expect(counter.calls.withLock { $0 } == 0)
        reader.stop()
    }

    /// After one read it sleeps for an hour: taking empties the queue and clears the descriptor.
    @Test func takingClearsTheDescriptor() throws {
        let counter = CountingRead()
        let reader = try PolledReader(interval: 3600, first: MonotonicClock.now()) { () throws(Errno) in try counter.read() }
        defer { reader.stop() }
        #expect(try Self.collect(reader, count: 1).count == 1)
        #expect(try Poll.wait([(reader.ready.descriptor, .readable)], timeout: 0) == [[]])
        #expect(reader.take() == [])
    }
}
