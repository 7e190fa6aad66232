// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltWire

/// The protocol's session logic: clients attach, send requests and receive the
/// game's events. It knows nothing about sockets or files: transports carry the
/// bytes, and its delegate is asked to save, to claim the sensor, to compute hints and
/// to watch a socket. Tests drive it with in-memory transports.
///
/// Here: sessions and their input. The commands are in `HubCommands.swift`, the
/// sensor and hints in `HubSensor.swift`, saving and flow control in `HubOutput.swift`;
/// their state is here, internal to the module so that those files reach it.
public final class Hub {
    public struct Limits: Sendable, Equatable {
        public var maxClients = 256
        /// Unsent bytes a client may have before it is dropped as not reading.
        public var maxQueuedBytes = 1 << 20
        /// Requests a client may have waiting for their replies before it is
        /// paused (its socket is not read until half of them are answered).
        public var maxPendingReplies = 1024
        /// Unsent bytes at which a client is paused: a quarter of the drop bound,
        /// so what a client's own requests produce never gets a client that reads
        /// dropped (docs/protocol.md, "Flow control").
        public var pauseQueuedBytes: Int { maxQueuedBytes / 4 }

        public init() {}
    }

    public var limits: Limits
    public internal(set) var game: Game
    public internal(set) var sensor = SensorReport(status: .absent)
    public let version: String

    /// Unowned: whoever holds the hub keeps its delegate alive (the daemon holds both
    /// the hub and its delegate; a test's harness holds the hub and is its delegate). Given at `init`, so a hub can
    /// never run with nobody answering what it asks.
    public unowned let delegate: HubDelegate
    public let log: Logger
    let clock: () -> Double

    var sessions: [Int: Session] = [:]
    /// Attach order, for a stable broadcast order.
    var order: [Int] = []
    var nextID = 1
    var requestedGeneration: Int
    public internal(set) var savedGeneration: Int
    var samplesSubscribers = 0
    /// Paused sessions that may go on, in the order they became ready.
    var resumable: [Int] = []
    var nextHintTicket = 1
    /// The session waiting for each hint being computed.
    var hintOwners: [Int: Int] = [:]
    /// The `pose` subscribers' pacing, by session (docs/protocol.md).
    var poseStreams: [Int: PoseThrottle] = [:]
    /// Set when a pose subscriber should hear the current pose without a new sample.
    var posePending = false

    public init(game: Game, version: String, limits: Limits = Limits(), log: Logger, clock: @escaping () -> Double,
                delegate: HubDelegate) {
        self.delegate = delegate
        self.game = game
        self.version = version
        self.limits = limits
        self.log = log
        self.clock = clock
        requestedGeneration = game.generation
        savedGeneration = game.generation
    }

    public var clientCount: Int { sessions.count }

    public func isAttached(_ id: Int) -> Bool { sessions[id] != nil }

    /// Whether the client's socket should be read now (not while it is paused).
    public func wantsInput(_ id: Int) -> Bool { sessions[id]?.watchingInput ?? false }

    /// Whether the client is paused: requests it sent wait, unread or held.
    public func isPaused(_ id: Int) -> Bool { sessions[id]?.inputPaused ?? false }

    /// The transport of an attached client (the daemon finds its socket this way).
    public func transport(of id: Int) -> ClientTransport? { sessions[id]?.transport }

    /// The longest request id echoed back: longer ones could make a reply exceed
    /// the line limit.
    static let maxIDLength = 1024

    // MARK: Attach and detach

    /// Attaches a client: it gets `hello`, `state`, `sensor`, `settings` and `screen`. Nil (and
    /// the transport closed after `hello` and an error) when the client limit is reached.
    @discardableResult
    public func attach(_ transport: ClientTransport) -> Int? {
        guard sessions.count < limits.maxClients else {
            // `hello` is every connection's first line, a refused one's too: a client
            // reads it, then the reason (docs/protocol.md, "Errors").
            let error = ServerMessage.error(id: nil, code: .tooManyClients,
                                            message: Refusal.tooManyClients(limits.maxClients).english)
            let lines = ServerMessage.hello(version: version).encoded() + error.encoded()
            _ = lines.withUnsafeBytes { transport.write($0) }
            transport.close()
            log.warning("refused client \(transport.peerDescription): \(limits.maxClients) clients attached")
            return nil
        }
        if sessions.isEmpty {
            // Claim first, so the newcomer's greeting already says whether the sensor started.
            let now = clock()
            game.setAttached(true, at: now)
            takeSensorReport(delegate.claimSensor(true, at: now))
        }
        let session = Session(id: nextID, transport: transport)
        nextID += 1
        sessions[session.id] = session
        order.append(session.id)
        log.info("client \(session.id) attached: \(transport.peerDescription)")
        session.outbox.append(ServerMessage.hello(version: version).encoded())
        session.outbox.append(ServerMessage.state(game.state(at: clock())).encoded())
        session.outbox.append(ServerMessage.sensor(sensor).encoded())
        session.outbox.append(ServerMessage.settings(game.currentSensitivity).encoded())
        session.outbox.append(ServerMessage.screen(game.screenRotation).encoded())
        flush(session)
        return session.id
    }

    /// Detaches a client (it closed, or it is dropped).
    public func detach(_ id: Int, reason: String) {
        guard let session = sessions.removeValue(forKey: id) else { return }
        order.removeAll { $0 == id }
        hintOwners = hintOwners.filter { $0.value != id }
        if session.wantsSamples { samplesSubscribers -= 1 }
        poseStreams[id] = nil
        if session.waitingForWritable { delegate.watchWritable(id, false) }
        session.transport.close()
        log.info("client \(id) detached: \(reason)")
        if sessions.isEmpty {
            let now = clock()
            game.setAttached(false, at: now)
            takeSensorReport(delegate.claimSensor(false, at: now))
        }
    }

    // MARK: Input

    /// Bytes from a client: every complete line is a request. The daemon reads a
    /// client only while `wantsInput`; bytes that arrive while it is paused are
    /// held, in order, like those left over when it was paused.
    public func receive(_ bytes: UnsafeRawBufferPointer, from id: Int) {
        guard let session = sessions[id], !session.closing else { return }
        if session.inputPaused {
            session.hold(bytes)
            return
        }
        consume(bytes, from: session)
        afterChanges()
    }

    /// Runs the requests in `bytes` until the session is overloaded or closing,
    /// and holds what it did not look at until the session is resumed.
    func consume(_ bytes: UnsafeRawBufferPointer, from session: Session) {
        let taken = session.splitter.feed(bytes.assumingMemoryBound(to: UInt8.self), until: { piece in
            switch piece {
            case .line(let line):
                handle(line, from: session)
                // Replies that wait for nothing go out before the next request's events.
                release(session, failedGeneration: nil)
                if posePending { offerPose(at: clock()) }
            case .tooLong:
                session.enqueueReply(.error(id: nil, code: .lineTooLong,
                                            message: "a line may hold at most \(WireProtocol.maxLineLength) bytes"),
                                     after: 0)
                session.closing = true
                log.warning("client \(session.id) sent a line over \(WireProtocol.maxLineLength) bytes: closing")
            }
            if session.closing { return false }
            if session.isOverloaded(limits) {
                session.inputPaused = true
                return false
            }
            return true
        })
        if taken < bytes.count && !session.closing {
            session.hold(UnsafeRawBufferPointer(rebasing: bytes[taken...]))
        }
        updateInputWatch(session)
    }

    /// Tells the daemon whether to read the session's socket.
    func updateInputWatch(_ session: Session) {
        let wanted = !session.inputPaused && !session.closing && !session.inputClosed
        guard wanted != session.watchingInput else { return }
        session.watchingInput = wanted
        delegate.watchReadable(session.id, wanted)
    }

    /// The client closed its side (a final unterminated line is ignored); it still
    /// gets the replies to what it sent, then the session ends.
    public func endOfInput(from id: Int) {
        guard let session = sessions[id] else { return }
        session.inputClosed = true
        if session.isDrained { return detach(id, reason: "closed by the client") }
        updateInputWatch(session)
    }
}
