// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import TiltDaemon
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// A client's socket as the hub's transport: what it is watched for, what a write
/// says (taken, full, gone), who the peer is, and a close that tells its owner first.
@Suite struct SocketTransportTests {
    /// The daemon's end of a connection (non-blocking, as accepted) and the client's.
    final class Connection {
        let folder: TemporaryDirectory
        let listener: FileDescriptor
        let client: FileDescriptor
        let server: FileDescriptor
        private var clientOpen = true

        init() throws {
            folder = try TemporaryDirectory(prefix: "tiltpuzzle-transport")
            listener = try UnixSocket.listen(path: folder.path + "/socket")
            client = try UnixSocket.connect(path: folder.path + "/socket")
            server = try #require(try UnixSocket.accept(listener))
        }

        /// Once only: a second close could close a descriptor another test has since opened.
        func closeClient() throws {
            guard clientOpen else { return }
            clientOpen = false
            try client.close()
        }

        deinit {
            try? closeClient()
            try? listener.close()
            folder.remove()
        }
    }

    final class Closes {
        var seen: [ObjectIdentifier] = []
        /// Whether the descriptor was still open when the owner was told.
        var openWhenTold: [Bool] = []
    }

    @Test func watchedForReadingUnlessPausedAndForWritingWhileOutputWaits() {
        var interest = SocketTransport.Interest()
        #expect(interest.events == [.readable, .peerClosed])
        interest.writing = true
        #expect(interest.events == [.readable, .peerClosed, .writable])
        interest.reading = false
        #expect(interest.events == [.writable])
        interest.writing = false
        #expect(interest.events.isEmpty)
    }

    @Test func whatIsWrittenReachesThePeerWhoIsNamed() throws {
        let connection = try Connection()
        let transport = SocketTransport(descriptor: connection.server) { _ in }
        defer { transport.close() }
        #expect(transport.peerDescription.hasPrefix("pid=\(getpid()) uid=\(getuid())"))
        let line = Array("{\"event\":\"hello\"}\n".utf8)
        #expect(line.withUnsafeBytes { transport.write($0) } == line.count)
        var received = [UInt8](repeating: 0, count: 64)
        let count = try connection.client.read(into: &received)
        #expect(Array(received[..<count]) == line)
    }

    @Test func aFullSocketTakesNothingNowAndAGoneOneSaysSo() throws {
        let connection = try Connection()
        let transport = SocketTransport(descriptor: connection.server) { _ in }
        defer { transport.close() }
        let chunk = [UInt8](repeating: 0x61, count: 1 << 16)
        var taken: Int?
        for _ in 0..<10_000 {
            taken = chunk.withUnsafeBytes { transport.write($0) }
            if taken == 0 { break }
        }
        // The client reads nothing: the socket's buffer fills, and a write then takes nothing.
        #expect(taken == 0)
        try connection.closeClient()
        // The peer gone: no SIGPIPE, a nil.
        #expect(chunk.withUnsafeBytes { transport.write($0) } == nil)
    }

    @Test func closingTellsTheOwnerFirstThenClosesOnce() throws {
        let connection = try Connection()
        let closes = Closes()
        let transport = SocketTransport(descriptor: connection.server) { closed in
            closes.seen.append(ObjectIdentifier(closed))
            closes.openWhenTold.append(fcntl(closed.descriptor.rawValue, F_GETFD) != -1)
        }
        transport.close()
        #expect(closes.seen == [ObjectIdentifier(transport)])
        #expect(closes.openWhenTold == [true])
        // The client sees the end of the stream, and the transport writes no more.
        var received = [UInt8](repeating: 0, count: 8)
        #expect(try connection.client.read(into: &received) == 0)
        #expect([UInt8(1)].withUnsafeBytes { transport.write($0) } == nil)
        transport.close()
        #expect(closes.seen.count == 1)
    }
}
