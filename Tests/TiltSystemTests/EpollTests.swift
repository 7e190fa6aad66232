// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

@Suite struct EpollTests {
    /// An epoll instance and a pipe to watch, closed at the end of the test.
    final class Watched {
        let epoll: Epoll
        let ends: (read: FileDescriptor, write: FileDescriptor)
        /// Closed once only: a second close could close another test's descriptor
        /// that was given the same number meanwhile.
        private var writerOpen = true

        init() throws {
            epoll = try Epoll()
            ends = try FileDescriptor.pipe()
        }

        func closeWriter() throws {
            writerOpen = false
            try ends.write.close()
        }

        deinit {
            epoll.close()
            try? ends.read.close()
            if writerOpen { try? ends.write.close() }
        }
    }

    @Test func reportsWhatIsReadyAndStopsAfterRemoval() throws {
        let watched = try Watched()
        try watched.epoll.add(watched.ends.read, .readable, token: 7)
        #expect(try watched.epoll.wait(timeout: 0).isEmpty)
        try watched.ends.write.writeAll("x")
        let ready = try watched.epoll.wait(timeout: 0)
        #expect(ready.map(\.token) == [7])
        #expect(ready.first?.events.contains(.readable) == true)
        try watched.epoll.remove(watched.ends.read)
        #expect(try watched.epoll.wait(timeout: 0).isEmpty)
    }

    @Test func modifyChangesWhatIsWaitedFor() throws {
        let watched = try Watched()
        try watched.epoll.add(watched.ends.write, .readable, token: 3)
        #expect(try watched.epoll.wait(timeout: 0).isEmpty)
        try watched.epoll.modify(watched.ends.write, .writable, token: 4)
        #expect(try watched.epoll.wait(timeout: 0).map(\.token) == [4])
    }

    @Test func theWriterClosingIsAHangup() throws {
        let watched = try Watched()
        try watched.epoll.add(watched.ends.read, .readable, token: 1)
        try watched.closeWriter()
        #expect(try watched.epoll.wait(timeout: 0).first?.events.contains(.hangup) == true)
    }

    @Test func aDescriptorAddedTwiceIsAnErrorNamingTheCall() throws {
        let watched = try Watched()
        try watched.epoll.add(watched.ends.read, .readable, token: 1)
        do {
            try watched.epoll.add(watched.ends.read, .readable, token: 2)
            Issue.record("added twice")
        } catch {
            #expect(error == .fileExists && error.call == "epoll_ctl")
        }
    }
}
