// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// A team's parts run at the same time, once each, on threads of their own (the
/// caller's the first), piece after piece; a team that cannot start all its helpers
/// is none; its helpers are scheduled as the thread that made it.
@Suite struct ThreadTeamTests {
    @Test func everyPartRunsOnceAtTheSameTimeOnAThreadOfItsOwn() throws {
        let team = try ThreadTeam(size: 3)
        let caller = pthread_self()
        for piece in 0..<40 {
            let parts = Locked<[(k: Int, thread: pthread_t)]>([])
            let together = Locked(true)
            team.run { k in
                parts.withLock { $0.append((k, pthread_self())) }
                // Each part waits for the others to have started: only parts that run
                // at once all get past this (a part alone gives up after 10 s).
                let limit = MonotonicClock.now() + 10
                while parts.withLock({ $0.count }) < 3 {
                    if MonotonicClock.now() > limit {
                        together.withLock { $0 = false }
                        break
                    }
                    sched_yield()
                }
            }
            let seen = parts.withLock { $0 }
            #expect(seen.map(\.k).sorted() == [0, 1, 2], "piece \(piece)")
            #expect(together.withLock { $0 }, "piece \(piece)")
            #expect(Set(seen.map { UInt(bitPattern: Int(bitPattern: $0.thread)) }).count == 3, "piece \(piece)")
            #expect(seen.first(where: { $0.k == 0 }).map { pthread_equal($0.thread, caller) != 0 } == true)
        }
    }

    @Test func aTeamOfOneIsTheCallerAlone() throws {
        let team = try ThreadTeam(size: 1)
        let caller = pthread_self()
        var parts: [Int] = []
        team.run { k in
            #expect(pthread_equal(pthread_self(), caller) != 0)
            parts.append(k)
        }
        #expect(parts == [0])
    }

    /// The third helper's thread cannot be made: the team is not made, and the helpers
    /// already started are stopped (the team's init returns only after joining them).
    @Test func aHelperThatCannotStartFailsTheTeam() {
        let created = Locked(0)
        do {
            try Syscall.withFaults({ name in
                guard name == "pthread_create" else { return nil }
                return created.withLock { count in
                    count += 1
                    return count == 3 ? .wouldBlock : nil
                }
            }) { _ = try ThreadTeam(size: 4) }
            Issue.record("a team was made without its third helper")
        } catch let error as Errno {
            #expect(error == .wouldBlock)
            #expect(error.call == "pthread_create")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func theHelpersAreScheduledAsTheirMaker() throws {
        let policies = Locked<[Bool]>([])
        let maker = try JoinableThread {
            do throws(Errno) {
                try CurrentThread.runOnlyWhenIdle()
                let team = try ThreadTeam(size: 3)
                team.run { _ in
                    let idle = CurrentThread.runsOnlyWhenIdle
                    policies.withLock { $0.append(idle) }
                }
            } catch {
                Issue.record("\(error)")
            }
        }
        maker.join()
        #expect(policies.withLock { $0 } == [true, true, true])
        #expect(!CurrentThread.runsOnlyWhenIdle, "the test's own thread is as it was")
    }

    @Test func theHelpersInheritTheirMakersNiceValue() throws {
        let nices = Locked<[Int32]>([])
        let maker = try JoinableThread {
            do throws(Errno) {
                try CurrentThread.setNice(7)
                let team = try ThreadTeam(size: 3)
                team.run { _ in
                    let nice = CurrentThread.nice
                    nices.withLock { $0.append(nice) }
                }
            } catch {
                Issue.record("\(error)")
            }
        }
        maker.join()
        #expect(nices.withLock { $0 } == [7, 7, 7])
        #expect(CurrentThread.nice != 7, "a thread's nice value is its own, not its process's")
    }

    @Test func theCoresAreThoseThisThreadMayRunOn() throws {
        let cores = try CurrentThread.cores()
        #expect(cores >= 1)
        #expect(cores <= Int(sysconf(Int32(_SC_NPROCESSORS_CONF))))
    }
}
