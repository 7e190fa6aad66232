// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import TiltGUISDL
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// The thread that wakes the window's loop when the daemon's socket has something to
/// read: one wake per readable socket until the loop acknowledges, none once stopped,
/// and the socket left open for its owner. A pipe stands in for the socket.
@Suite struct SocketWatcherTests {
    /// Counts the wakes; each also posts to `woken`, which the test waits on.
    final class Wakes: Sendable {
        let woken: HandOff<Int>
        private let total = Locked(0)
        init() throws { woken = try HandOff() }
        deinit { woken.close() }
        var count: Int { total.withLock { $0 } }
        func wake() {
            total.withLock { $0 += 1 }
            woken.post(1)
        }
        /// Waits for the next wake (a bound, not a measurement: the wake comes at once).
        func next() throws {
            let ready = try Poll.wait([(woken.ready.descriptor, .readable)], timeout: 60)
            try #require(ready[0].contains(.readable), "no wake")
            _ = woken.take()
        }
    }

    /// A watcher on a pipe's reading end, its wakes counted; the pipe closed after `body`.
    static func watching(_ body: (_ pipe: (read: FileDescriptor, write: FileDescriptor), _ watcher: SocketWatcher,
                                  _ wakes: Wakes) throws -> Void) throws {
        let pipe = try FileDescriptor.pipe()
        defer {
            try? pipe.read.close()
            try? pipe.write.close()
        }
        let wakes = try Wakes()
        let watcher = try SocketWatcher(socket: pipe.read) { wakes.wake() }
        defer { watcher.stop() }
        try body(pipe, watcher, wakes)
    }

    @Test func aReadableSocketWakesOnceUntilAcknowledged() throws {
        try Self.watching { pipe, watcher, wakes in
            try pipe.write.writeAll([1])
            try wakes.next()
            // Acknowledged with the byte still unread: watched again, so woken again.
            watcher.acknowledge()
            try wakes.next()
            // Read, then acknowledged: nothing to wake for.
            var byte = [UInt8](repeating: 0, count: 1)
            #expect(try pipe.read.read(into: &byte) == 1)
            watcher.acknowledge()
            watcher.stop()
            // Between the wakes the socket stayed readable, yet woke nothing: two in all.
            #expect(wakes.count == 2)
        }
    }

    @Test func stoppedItWakesForNothingAndLeavesTheSocketOpen() throws {
        try Self.watching { pipe, watcher, wakes in
            watcher.stop()
            try pipe.write.writeAll([1])
            watcher.acknowledge()
            watcher.stop()
            #expect(wakes.count == 0)
            // The socket is the caller's: still open, its byte still there to read.
            var byte = [UInt8](repeating: 0, count: 1)
            #expect(try pipe.read.read(into: &byte) == 1 && byte == [1])
        }
    }
}
