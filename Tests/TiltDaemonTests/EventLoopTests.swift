// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import TiltDaemon
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// The loop's sources: timers, descriptors known by token, and how waiting fails.
@Suite struct EventLoopTests {
    /// A loop and the pipes a test watches, all closed at the end of the test.
    final class Fixture {
        let loop: EventLoop
        private(set) var pipes: [(read: FileDescriptor, write: FileDescriptor)] = []

        init() throws {
            loop = try EventLoop()
        }

        func pipe() throws -> (read: FileDescriptor, write: FileDescriptor) {
            let ends = try FileDescriptor.pipe()
            pipes.append(ends)
            return ends
        }

        deinit {
            loop.close()
            for ends in pipes {
                try? ends.read.close()
                try? ends.write.close()
            }
        }
    }

    @Test func aTimerFiresOnceItsDeadlineHasPassed() throws {
        let fixture = try Fixture()
        let loop = fixture.loop
        let deadline = MonotonicClock.now() + 0.005
        var due: Double? = deadline
        var firedAt: [Double] = []
        loop.addTimer(deadline: { due }) { now in
            firedAt.append(now)
            due = nil
            loop.stop()
        }
        try loop.run()
        #expect(firedAt.count == 1)
        #expect(firedAt.allSatisfy { $0 >= deadline })
    }

    /// Each timer says only its own deadline; the loop wakes for each in turn.
    @Test func twoTimersFireEachAtItsOwnDeadlineInOrder() throws {
        let fixture = try Fixture()
        let loop = fixture.loop
        let start = MonotonicClock.now()
        let deadlines = [start + 0.008, start + 0.002]
        var due: [Double?] = deadlines
        var fired: [(timer: Int, at: Double)] = []
        for index in deadlines.indices {
            loop.addTimer(deadline: { due[index] }) { now in
                fired.append((index, now))
                due[index] = nil
                if due.allSatisfy({ $0 == nil }) { loop.stop() }
            }
        }
        try loop.run()
        #expect(fired.map(\.timer) == [1, 0])
        #expect(fired.allSatisfy { $0.at >= deadlines[$0.timer] })
    }

    @Test func aRemovedTimerNeverFires() throws {
        let fixture = try Fixture()
        let loop = fixture.loop
        let now = MonotonicClock.now()
        var removedFired = false
        let removed = loop.addTimer(deadline: { now }) { _ in removedFired = true }
        loop.addTimer(deadline: { now }) { _ in loop.stop() }
        loop.remove(removed)
        try loop.run()
        #expect(!removedFired)
    }

    /// A descriptor's handler is handed the time the loop woke, as a timer's is.
    @Test func aDescriptorsHandlerIsHandedTheTime() throws {
        let fixture = try Fixture()
        let ends = try fixture.pipe()
        var handed: [Double] = []
        try fixture.loop.watch(ends.read, .readable) { _, now in handed.append(now) }
        try ends.write.writeAll("x")
        let before = MonotonicClock.now()
        try fixture.loop.runOnce()
        let after = MonotonicClock.now()
        #expect(handed.count == 1)
        #expect(handed.allSatisfy { before <= $0 && $0 <= after })
    }

    /// A handler closes a ready descriptor and its number goes to a new registration
    /// in the same round: the event waited for on the old one is not the new owner's.
    @Test func aReusedDescriptorNumberDoesNotGetItsOldOwnersEvent() throws {
        let fixture = try Fixture()
        let loop = fixture.loop
        let first = try fixture.pipe(), old = try fixture.pipe(), replacement = try fixture.pipe()
        let number = old.read.rawValue
        var oldEvents = 0, newEvents = 0
        var oldToken: EventLoop.Token?
        oldToken = try loop.watch(old.read, .readable) { _, _ in oldEvents += 1 }
        var firstToken: EventLoop.Token?
        firstToken = try loop.watch(first.read, .readable) { _, _ in
            loop.remove(firstToken!)
            loop.remove(oldToken!)
            // Closes the old pipe's end and gives its number to the replacement, at once,
            // so no other test's descriptor can take the number in between.
            #expect(dup2(replacement.read.rawValue, number) == number)
            #expect(throws: Never.self) {
                try loop.watch(FileDescriptor(rawValue: number), .readable) { _, _ in newEvents += 1 }
            }
        }
        // Ready in this order, so the first pipe's handler runs first in the round.
        try first.write.writeAll("x")
        try old.write.writeAll("x")
        try loop.runOnce()
        #expect(oldEvents == 0)
        #expect(newEvents == 0)
        // The new owner does hear its own descriptor.
        try replacement.write.writeAll("y")
        try loop.runOnce()
        #expect(newEvents >= 1)
    }

    @Test func aFailingWaitEndsTheLoopWithItsError() throws {
        let fixture = try Fixture()
        let loop = fixture.loop
        var rounds = 0
        loop.addTimer(deadline: { 0 }) { _ in rounds += 1 }
        let failure = Syscall.withFaults({ $0 == "epoll_wait" ? .invalidArgument : nil }) { () -> Errno? in
            do throws(Errno) {
                try loop.run()
                return nil
            } catch {
                return error
            }
        }
        #expect(failure == .invalidArgument)
        #expect(failure?.call == "epoll_wait")
        #expect(rounds == 0)
    }

    @Test func anInterruptedWaitIsWaitedAgain() throws {
        let fixture = try Fixture()
        let loop = fixture.loop
        let interruptions = Locked(0)
        var fired = false
        loop.addTimer(deadline: { fired ? nil : 0 }) { _ in
            fired = true
            loop.stop()
        }
        try Syscall.withFaults({ name in
            guard name == "epoll_wait" else { return nil }
            return interruptions.withLock { count in
                count += 1
                return count <= 3 ? .interrupted : nil
            }
        }) {
            try loop.run()
        }
        #expect(fired)
        #expect(interruptions.withLock { $0 } > 3)
    }
}
