// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// Items from one thread to another that waits on a descriptor.
@Suite struct HandOffTests {
    @Test func itemsComeOutInTheOrderTheyWentInAndReadyFollowsTheQueue() throws {
        let handOff = try HandOff<Int>()
        defer { handOff.close() }
        #expect(try Poll.wait([(handOff.ready.descriptor, .readable)], timeout: 0) == [[]])
        handOff.post(1)
        handOff.post(2)
        #expect(try Poll.wait([(handOff.ready.descriptor, .readable)], timeout: 0) == [.readable])
        #expect(handOff.take() == [1, 2])
        #expect(try Poll.wait([(handOff.ready.descriptor, .readable)], timeout: 0) == [[]])
        #expect(handOff.take() == [])
    }

    @Test func beyondItsLimitTheOldestItemsAreDropped() throws {
        let handOff = try HandOff<Int>(limit: 3)
        defer { handOff.close() }
        for item in 1...5 { handOff.post(item) }
        #expect(handOff.take() == [3, 4, 5])
    }

    /// A taker that wakes for each item and takes whatever is there ends up with
    /// every item another thread posted, none twice.
    @Test func everyItemPostedFromAnotherThreadArrivesOnce() throws {
        let handOff = try HandOff<Int>()
        defer { handOff.close() }
        let count = 2_000
        let poster = try JoinableThread { for item in 0..<count { handOff.post(item) } }
        var received: [Int] = []
        while received.count < count {
            let woken = try Poll.wait([(handOff.ready.descriptor, .readable)], timeout: 5)
            try #require(woken == [.readable], "woken with \(received.count) of \(count) items taken")
            received += handOff.take()
        }
        poster.join()
        #expect(received == Array(0..<count))
    }
}

/// A thread its owner stops: the body sees the request on its descriptor.
@Suite struct WorkerThreadTests {
    @Test func stopWakesABodyWaitingOnItsDescriptorAndWaitsForItToReturn() throws {
        let sawRequest = Locked<Bool?>(nil)
        let worker = try WorkerThread { stop in
            _ = try? Poll.wait([(stop.descriptor, .readable)], timeout: nil)
            sawRequest.withLock { $0 = stop.isRequested }
        }
        worker.stop()
        #expect(sawRequest.withLock { $0 } == true)
        worker.stop()
    }

    @Test func aBodyBetweenPiecesOfWorkSeesTheRequest() throws {
        let rounds = Locked(0)
        let ended = Locked<Bool?>(nil)
        let started = try HandOff<Bool>()
        defer { started.close() }
        let worker = try WorkerThread { stop in
            // Told only after a first round, so that the stop comes between rounds.
            repeat {
                let count = rounds.withLock { $0 += 1; return $0 }
                if count == 1 { started.post(true) }
            } while !stop.isRequested
            ended.withLock { $0 = stop.isRequested }
        }
        _ = try Poll.wait([(started.ready.descriptor, .readable)], timeout: 5)
        worker.stop()
        #expect(rounds.withLock { $0 } > 0)
        #expect(ended.withLock { $0 } == true)
    }

    @Test func aThreadThatCannotStartFailsNamingTheCall() {
        #expect(throws: Errno.wouldBlock) {
            try Syscall.withFaults({ $0 == "pthread_create" ? .wouldBlock : nil }) { _ = try WorkerThread { _ in } }
        }
    }
}

extension WorkerThreadTests {
    /// Signals are the loop's: a worker blocks them all, so the kernel never picks it
    /// for a signal sent to the process.
    @Test func aWorkerBlocksEverySignal() throws {
        let blocked = Locked<Bool?>(nil)
        let worker = try WorkerThread { _ in
            var mask = sigset_t()
            pthread_sigmask(SIG_BLOCK, nil, &mask)
            blocked.withLock { $0 = sigismember(&mask, SIGTERM) == 1 && sigismember(&mask, SIGINT) == 1 }
        }
        worker.stop()
        #expect(blocked.withLock { $0 } == true)
    }
}
