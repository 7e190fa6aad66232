// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCore
@testable import TiltDaemon
import TiltSystem
import TiltWire
#if canImport(Glibc)
import Glibc
#endif

/// The daemon's listening and client sockets on a real loop: accepting, reading for
/// the hub, writing what it says, and the back-off when out of descriptors.
@Suite struct ClientSocketsTests {
    /// A loop, a hub and the sockets between them, on a socket in a folder of its own.
    final class Fixture: HubDelegate {
        let folder: TemporaryDirectory
        let path: String
        let loop: EventLoop
        private let listener: FileDescriptor
        private var peers: [FileDescriptor] = []
        /// What each peer has been sent so far, by descriptor number.
        private var received: [Int32: [UInt8]] = [:]
        /// Made on first use: the hub needs its delegate, this fixture, from the start.
        private(set) lazy var hub = Hub(game: Game(puzzle: Puzzle(side: 4), detector: TiltDetector()), version: "test",
                                        log: Logger(level: .error) { _ in }, clock: MonotonicClock.now, delegate: self)
        private(set) lazy var clients = ClientSockets(listeners: [listener], loop: loop, hub: hub,
                                                      log: Logger(level: .error) { _ in })

        init() throws {
            folder = try TemporaryDirectory(prefix: "tp")
            path = folder.path + "/d.sock"
            loop = try EventLoop()
            listener = try UnixSocket.listen(path: path)
            try clients.start()
        }

        deinit {
            clients.close()
            loop.close()
            for peer in peers { try? peer.close() }
            folder.remove()
        }

        /// A client's end of a new connection.
        func connect() throws -> FileDescriptor {
            let peer = try UnixSocket.connect(path: path)
            peers.append(peer)
            return peer
        }

        func hangUp(_ peer: FileDescriptor) throws {
            peers.removeAll { $0 == peer }
            try peer.close()
        }

        /// Runs rounds of the loop until `done` (asked before each round, and not again
        /// once true), each bounded by a short timer so that a round with nothing to
        /// dispatch still ends.
        func run(rounds: Int = 500, until done: () throws -> Bool) throws {
            var due: Double? = nil
            let tick = loop.addTimer(deadline: { due }) { _ in due = nil }
            defer { loop.remove(tick) }
            for _ in 0..<rounds {
                if try done() { return }
                due = MonotonicClock.now() + 0.02
                try loop.runOnce()
            }
        }

        /// The whole lines that have arrived on `peer` so far. The loop runs on this
        /// thread, so whatever the hub wrote in a round is in the socket when the round
        /// ends: nothing is waited for.
        func lines(on peer: FileDescriptor) throws -> [String] {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while try Poll.wait([(peer, .readable)], timeout: 0) == [.readable] {
                let count = try peer.read(into: &buffer)
                if count == 0 { break }
                received[peer.rawValue, default: []] += buffer[..<count]
            }
            let text = String(decoding: received[peer.rawValue] ?? [], as: UTF8.self)
            return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }

        /// Runs the loop until a line containing `text` has arrived on `peer`; the lines
        /// so far. Only a hang reaches the rounds' limit.
        func awaitLine(on peer: FileDescriptor, containing text: String) throws -> [String] {
            var lines: [String] = []
            try run {
                lines = try self.lines(on: peer)
                return lines.contains { $0.contains(text) }
            }
            return lines
        }

        func save(_ game: Game) { hub.saveCompleted(generation: game.generation, failure: nil) }
        func claimSensor(_ claimed: Bool, at now: Double) -> SensorReport { hub.sensor }
        func requestHint(_ job: HintJob) {}
        func watchWritable(_ id: Int, _ on: Bool) { clients.setInterest(id, writing: on) }
        func watchReadable(_ id: Int, _ on: Bool) { clients.setInterest(id, reading: on) }
    }

    @Test func aClientIsAcceptedGreetedAndAnswered() throws {
        let fixture = try Fixture()
        let peer = try fixture.connect()
        let greeting = try fixture.awaitLine(on: peer, containing: #""type":"hello""#)
        #expect(fixture.hub.clientCount == 1)
        #expect(greeting.first?.contains(#""type":"hello""#) == true)
        try peer.writeAll(#"{"cmd":"undo","id":7}"# + "\n")
        let reply = try fixture.awaitLine(on: peer, containing: #""id":7"#)
        #expect(reply.contains { $0.contains(#""id":7"#) })
    }

    @Test func aClientThatHangsUpIsForgotten() throws {
        let fixture = try Fixture()
        let peer = try fixture.connect()
        try fixture.run { fixture.hub.clientCount == 1 }
        try fixture.hangUp(peer)
        try fixture.run { fixture.hub.clientCount == 0 }
        #expect(fixture.hub.clientCount == 0)
    }

    /// Out of descriptors, the listener is no longer watched (it would wake the loop for
    /// the same connection forever); a client leaving lets accepting start again.
    @Test func outOfDescriptorsAcceptingWaitsUntilAClientLeaves() throws {
        let fixture = try Fixture()
        let first = try fixture.connect()
        try fixture.run { fixture.hub.clientCount == 1 }
        let second = try fixture.connect()
        try Syscall.withFaults({ $0 == "accept" ? .tooManyOpenFiles : nil }) {
            try fixture.run(rounds: 1) { false }
        }
        // The fault is gone, but nobody asks the listener again until a client leaves.
        try fixture.run(rounds: 3) { false }
        #expect(fixture.hub.clientCount == 1)
        #expect(try fixture.lines(on: second).isEmpty)
        try fixture.hangUp(first)
        let greeting = try fixture.awaitLine(on: second, containing: #""type":"hello""#)
        #expect(greeting.first?.contains(#""type":"hello""#) == true)
        #expect(fixture.hub.clientCount == 1)
    }
}
