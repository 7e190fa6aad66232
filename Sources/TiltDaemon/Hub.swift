import TiltCore
import TiltWire

/// The protocol's session logic: clients attach, send requests and receive the
/// game's events. It knows nothing about sockets or files: transports carry the
/// bytes, and its delegate is asked to save, to claim the sensor, to compute hints and
/// to watch a socket. Tests drive it with in-memory transports.
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
    public private(set) var game: Game
    public private(set) var sensor = SensorReport(status: .absent)
    public let version: String

    /// Weak: the delegate owns the hub (the daemon, a test's harness).
    public weak var delegate: HubDelegate?
    public let log: Logger
    private let clock: () -> Double

    private var sessions: [Int: Session] = [:]
    /// Attach order, for a stable broadcast order.
    private var order: [Int] = []
    private var nextID = 1
    private var requestedGeneration: Int
    public private(set) var savedGeneration: Int
    private var samplesSubscribers = 0
    /// Paused sessions that may go on, in the order they became ready.
    private var resumable: [Int] = []
    private var nextHintTicket = 1
    /// The session waiting for each hint being computed.
    private var hintOwners: [Int: Int] = [:]
    /// The `pose` subscribers' pacing, by session (docs/protocol.md).
    private var poseStreams: [Int: PoseThrottle] = [:]

    public init(game: Game, version: String, limits: Limits = Limits(), log: Logger, clock: @escaping () -> Double) {
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

    /// Attaches a client: it gets `hello`, `state`, `sensor` and `settings`. Nil (and
    /// the transport closed after `hello` and an error) when the client limit is reached.
    @discardableResult
    public func attach(_ transport: ClientTransport) -> Int? {
        guard sessions.count < limits.maxClients else {
            // `hello` is every connection's first line, a refused one's too: a client
            // reads it, then the reason (docs/protocol.md, "Errors").
            let error = ServerMessage.error(id: nil, code: .tooManyClients,
                                            message: "the daemon serves at most \(limits.maxClients) clients")
            let lines = ServerMessage.hello(version: version).encoded() + error.encoded()
            _ = lines.withUnsafeBytes { transport.write($0) }
            transport.close()
            log.warning("refused client \(transport.peerDescription): \(limits.maxClients) clients attached")
            return nil
        }
        if sessions.isEmpty {
            // Claim first, so the newcomer's greeting already says whether the sensor started.
            game.setAttached(true, at: clock())
            delegate?.claimSensor(true)
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
        if session.waitingForWritable { delegate?.watchWritable(id, false) }
        session.transport.close()
        log.info("client \(id) detached: \(reason)")
        if sessions.isEmpty {
            game.setAttached(false, at: clock())
            delegate?.claimSensor(false)
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
    private func consume(_ bytes: UnsafeRawBufferPointer, from session: Session) {
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
    private func updateInputWatch(_ session: Session) {
        let wanted = !session.inputPaused && !session.closing && !session.inputClosed
        guard wanted != session.watchingInput else { return }
        session.watchingInput = wanted
        delegate?.watchReadable(session.id, wanted)
    }

    /// The client closed its side (a final unterminated line is ignored); it still
    /// gets the replies to what it sent, then the session ends.
    public func endOfInput(from id: Int) {
        guard let session = sessions[id] else { return }
        session.inputClosed = true
        if session.isDrained { return detach(id, reason: "closed by the client") }
        updateInputWatch(session)
    }

    private func handle(_ line: UnsafeBufferPointer<UInt8>, from session: Session) {
        // A blank line is no request, and gets no answer (docs/protocol.md, "Lines").
        if line.allSatisfy(JSONParser.isWhitespace) { return }
        let request: ClientRequest
        do throws(ClientRequest.Rejection) {
            request = try ClientRequest.decode(line)
        } catch {
            session.enqueueReply(.error(id: echoable(error.id), code: error.code, message: error.message), after: 0)
            return
        }
        let id = request.id
        if id != nil, echoable(id) == nil {
            session.enqueueReply(.error(id: nil, code: .badArgument,
                                        message: "\"id\" may be at most \(Self.maxIDLength) bytes of JSON"), after: 0)
            return
        }
        run(request, from: session)
    }

    /// The id as it can be echoed: nil when absent or too long to echo.
    private func echoable(_ id: JSONValue?) -> JSONValue? {
        guard let id else { return nil }
        return id.encoded.count <= Self.maxIDLength ? id : nil
    }

    private func run(_ request: ClientRequest, from session: Session) {
        let now = clock()
        let id = request.id
        let name = request.command.name
        let generationBefore = game.generation
        var moved: Int?
        func badArgument(_ message: String) {
            session.enqueueReply(.error(id: id, code: .badArgument, message: message), after: 0)
        }
        switch request.command {
        case .state:
            session.enqueue(.currentState, after: 0)
        case .sensor:
            session.enqueue(.currentSensor, after: 0)
        case .tilt(let direction):
            moved = perform(.tilt(direction), now: now)
        case .move(let index, let direction):
            guard index < game.puzzle.board.count else {
                return badArgument("index \(index) is outside the \(game.puzzle.side)×\(game.puzzle.side) board")
            }
            moved = perform(.move(index: index, direction: direction), now: now)
        case .slide(let index):
            guard index < game.puzzle.board.count else {
                return badArgument("index \(index) is outside the \(game.puzzle.side)×\(game.puzzle.side) board")
            }
            moved = perform(.slide(index: index), now: now)
        case .undo:
            moved = perform(.undo, now: now)
        case .redo:
            moved = perform(.redo, now: now)
        case .new(let size, let seed, let shuffle, let board):
            let seed = shuffle && board == nil ? (seed ?? UInt64.random(in: .min ... .max)) : nil
            broadcast(game.newGame(size: size ?? game.puzzle.side, seed: seed, board: board, at: now))
        case .calibrate:
            guard game.calibrate() else {
                session.enqueueReply(.error(id: id, code: .noSensor,
                                            message: "calibration needs a sensor sample; is a sensor attached?"), after: 0)
                return
            }
            broadcast(.calibrated(auto: false))
        case .configure(let trigger, let release):
            let current = game.currentSensitivity
            let wanted = Sensitivity(trigger: trigger ?? current.trigger, release: release ?? current.release)
            if let problem = wanted.problem { return badArgument(problem.description) }
            // Every configure is answered with the angles in effect, to every client,
            // also when it changed nothing (docs/protocol.md, `settings`).
            if game.configure(wanted) { posePending = !poseStreams.isEmpty }
            broadcast(.settings(game.currentSensitivity))
        case .subscribe(let samples, let pose):
            if let samples {
                if samples != session.wantsSamples { samplesSubscribers += samples ? 1 : -1 }
                session.wantsSamples = samples
            }
            if let pose {
                if !pose {
                    poseStreams[session.id] = nil
                } else if poseStreams[session.id] == nil {
                    // The current pose, if any, follows the reply.
                    poseStreams[session.id] = PoseThrottle()
                    posePending = true
                }
            }
        case .hint:
            let board = game.puzzle.board
            if board.isSolved {
                session.enqueueReply(.hint(id: id, hint: Hint(solution: [], optimal: true, revision: game.revision)), after: 0)
                return
            }
            // Computed off the loop on the board as it is now; the reply (and this
            // client's later ones) wait for it, nothing else does.
            let ticket = nextHintTicket
            nextHintTicket += 1
            hintOwners[ticket] = session.id
            session.enqueue(.hint(id: id, ticket: ticket), after: 0)
            delegate?.requestHint(HintJob(ticket: ticket, board: board, revision: game.revision))
            return
        }
        // A request that changed the game is answered once the change is on disk.
        let changed = game.generation != generationBefore
        session.enqueueReply(.reply(id: id, command: name, moved: moved), after: changed ? game.generation : 0)
    }

    private func perform(_ action: Game.ActionKind, now: Double) -> Int {
        let events = game.perform(action, at: now)
        events.forEach(broadcast)
        return events.reduce(0) { count, event in if case .move = event { count + 1 } else { count } }
    }

    // MARK: Sensor

    /// Samples from the sensor, in order: they may tilt the puzzle.
    public func sensorSamples(_ samples: [Sample]) {
        let now = clock()
        for sample in samples {
            if samplesSubscribers > 0 {
                let line = ServerMessage.sample(sample).encoded()
                for id in order where sessions[id]!.wantsSamples { sessions[id]!.outbox.append(line) }
            }
            game.process(sample, at: now).forEach(broadcast)
        }
        afterChanges()
        // Once per batch, and only with a subscriber: no per-sample cost for the gauge.
        if !poseStreams.isEmpty { offerPose(at: now) }
    }

    /// Set when a pose subscriber should hear the current pose without a new sample.
    private var posePending = false

    /// Offers the detector's pose to every `pose` subscriber (after the batch's events
    /// are flushed, so a backlog is a slow client's, not this batch's).
    private func offerPose(at now: Double) {
        posePending = false
        guard let pose = game.detector.poseReport else { return }
        for id in order {
            guard poseStreams[id] != nil, let session = sessions[id] else { continue }
            // What is queued already goes first; a backlog left is the client's.
            if !session.outbox.isEmpty { flush(session) }
            guard var stream = poseStreams[id], sessions[id] != nil else { continue }
            let ready = stream.offer(pose, at: now, backlogged: !session.outbox.isEmpty)
            poseStreams[id] = stream
            if let ready {
                session.outbox.append(ServerMessage.pose(ready).encoded())
                flush(session)
            }
        }
    }

    public func sensorChanged(_ report: SensorReport) {
        guard report != sensor else { return }
        // A new stream (or none): the detector starts over, waiting for neutral.
        if report.status != sensor.status || report.name != sensor.name { game.restartDetector() }
        sensor = report
        broadcast(.sensor(report))
        afterChanges()
    }

    public func reconfigure(_ configuration: TiltDetector.Configuration, undoLimit: Int) {
        let before = game.currentSensitivity
        if let trimmed = game.reconfigure(configuration, undoLimit: undoLimit, at: clock()) { broadcast(trimmed) }
        if game.currentSensitivity != before { broadcast(.settings(game.currentSensitivity)) }
        afterChanges()
    }

    // MARK: Hints

    /// Answers from the hint worker, in any order; those whose client left are dropped.
    public func hintsAnswered(_ answers: [HintAnswer]) {
        for answer in answers {
            guard let owner = hintOwners.removeValue(forKey: answer.ticket), let session = sessions[owner] else { continue }
            session.hintAnswers[answer.ticket] = Hint(solution: answer.solution.directions,
                                                      optimal: answer.solution.isOptimal, revision: answer.revision)
        }
        afterChanges()
    }

    // MARK: Saving

    /// The save of `generation` finished; replies waiting for it go out (as
    /// `save-failed` errors if it failed).
    public func saveCompleted(generation: Int, error: String?) {
        if let error {
            log.error("saving the game failed: \(error)")
        } else {
            savedGeneration = max(savedGeneration, generation)
        }
        for id in order {
            guard let session = sessions[id] else { continue }
            release(session, failedGeneration: error == nil ? nil : generation)
            flush(session)
        }
        if error != nil {
            // Allow a later change to try again.
            requestedGeneration = savedGeneration
        }
        resumeWaiting()
    }

    // MARK: Output

    private func broadcast(_ message: ServerMessage) {
        let line = message.encoded()
        for id in order { sessions[id]!.outbox.append(line) }
    }

    /// Settles the changes, then lets paused sessions that may go on run what
    /// they hold.
    private func afterChanges() {
        settle()
        resumeWaiting()
    }

    /// Asks for a save when the game changed, releases what can go out, and writes.
    private func settle() {
        if game.generation > requestedGeneration {
            requestedGeneration = game.generation
            delegate?.save(game)
        }
        for id in order {
            // A session with nothing to send or answer has nothing to flush: at 100 Hz
            // with many clients attached, most of them, most of the time.
            guard let session = sessions[id], !session.isDrained else { continue }
            release(session, failedGeneration: nil)
            flush(session)
        }
    }

    private func release(_ session: Session, failedGeneration: Int?) {
        session.releaseReplies(savedGeneration: savedGeneration, failedGeneration: failedGeneration) { body in
            switch body {
            case .message(let message): message
            case .currentState: .state(game.state(at: clock()))
            case .currentSensor: .sensor(sensor)
            case .hint: preconditionFailure("a hint is rendered from its answer")
            }
        }
    }

    /// The socket of `id` can take more bytes.
    public func writable(_ id: Int) {
        guard let session = sessions[id] else { return }
        flush(session)
        // A pose held back by the backlog goes out once the backlog is gone.
        if session.outbox.isEmpty, var stream = poseStreams[id],
           let ready = stream.due(at: clock(), backlogged: false) {
            poseStreams[id] = stream
            session.outbox.append(ServerMessage.pose(ready).encoded())
            flush(session)
        }
        resumeWaiting()
    }

    /// Resumes the paused sessions whose output went out: each runs the requests
    /// it holds until it is paused again or has none left, then its socket is read
    /// again. The work is bounded by what each held (one read), so the other
    /// clients and the sensor wait for no more than that.
    private func resumeWaiting() {
        while !resumable.isEmpty {
            let ready = resumable
            resumable.removeAll()
            for id in ready {
                guard let session = sessions[id] else { continue }
                session.resumeScheduled = false
                guard session.inputPaused, !session.closing, session.mayResume(limits) else { continue }
                session.inputPaused = false
                let held = session.takeHeldInput()
                if held.isEmpty {
                    updateInputWatch(session)
                } else {
                    held.withUnsafeBytes { consume($0, from: session) }
                }
            }
            settle()
        }
    }

    private func flush(_ session: Session) {
        guard sessions[session.id] != nil else { return }
        guard session.outbox.drain(into: session.transport) else {
            return detach(session.id, reason: "connection lost")
        }
        if session.outbox.byteCount > limits.maxQueuedBytes {
            log.warning("client \(session.id) is not reading (\(session.outbox.byteCount) bytes queued): dropped")
            return detach(session.id, reason: "dropped: not reading")
        }
        if session.isDrained && session.closing {
            return detach(session.id, reason: "closed after a protocol error")
        }
        if session.isDrained && session.inputClosed {
            return detach(session.id, reason: "closed by the client")
        }
        let wants = !session.outbox.isEmpty
        if wants != session.waitingForWritable {
            session.waitingForWritable = wants
            delegate?.watchWritable(session.id, wants)
        }
        if session.inputPaused && !session.resumeScheduled && session.mayResume(limits) {
            session.resumeScheduled = true
            resumable.append(session.id)
        }
    }
}
