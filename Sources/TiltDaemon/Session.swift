// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltWire

/// One attached client: its input framing, its bounded output, the replies that
/// wait for their change to be on disk, and the input held while it is paused
/// (docs/protocol.md, "Flow control").
final class Session {
    /// What a pending reply will say. `state`, `sensor` and `screen` answers are rendered when
    /// they go out, so they are never older than the events sent before them.
    enum Body {
        case message(ServerMessage)
        case currentState
        case currentSensor
        case currentScreen
        /// A hint being computed off the loop: it and every reply after it wait until
        /// its answer is in `hintAnswers` (docs/protocol.md, "Hints").
        case hint(id: JSONValue?, ticket: Int)
    }

    /// A reply or error, released in request order once `generation` is saved
    /// (0: it waits for nothing but the replies before it).
    struct PendingReply {
        var generation: Int
        var body: Body
    }

    let id: Int
    let transport: ClientTransport
    var splitter = LineSplitter(maxLineLength: WireProtocol.maxLineLength)
    var outbox = OutputQueue()
    var pendingReplies: [PendingReply] = []
    var pendingHead = 0
    /// Hints answered by the worker, by ticket, until their turn to go out comes.
    var hintAnswers: [Int: Hint] = [:]
    var wantsSamples = false
    /// Set after an abusive request: further input is discarded, and the session
    /// closes once its last message (the error) is out.
    var closing = false
    /// The client closed its side: the session ends once its replies are out.
    var inputClosed = false
    /// Whether the event loop watches the socket for writability.
    var waitingForWritable = false
    /// Whether the event loop watches the socket for input.
    var watchingInput = true
    /// Too much waits to go out to this client: no request of it is run, and its
    /// socket is not read, until enough has gone out (the kernel's buffers then
    /// push back on the client).
    var inputPaused = false
    /// Set while the session is listed to be resumed.
    var resumeScheduled = false
    /// Bytes read before the pause that the splitter has not looked at yet: at
    /// most one read's worth, as the socket is not read while they wait.
    private(set) var heldInput: [UInt8] = []

    init(id: Int, transport: ClientTransport) {
        self.id = id
        self.transport = transport
    }

    var pendingCount: Int { pendingReplies.count - pendingHead }

    /// Nothing left to send, to answer or to run.
    var isDrained: Bool { outbox.isEmpty && pendingCount == 0 && heldInput.isEmpty }

    /// Enough waits for this client that it should be paused.
    func isOverloaded(_ limits: Hub.Limits) -> Bool {
        pendingCount >= limits.maxPendingReplies || outbox.byteCount >= limits.pauseQueuedBytes
    }

    /// Enough went out that a paused client may go on (half the pause thresholds,
    /// so a client on the edge is not paused and resumed on every message).
    func mayResume(_ limits: Hub.Limits) -> Bool {
        pendingCount <= limits.maxPendingReplies / 2 && outbox.byteCount <= limits.pauseQueuedBytes / 2
    }

    func hold(_ bytes: UnsafeRawBufferPointer) {
        heldInput.append(contentsOf: bytes)
    }

    /// Hands the held bytes over (the caller holds back what it does not take).
    func takeHeldInput() -> [UInt8] {
        defer { heldInput = [] }
        return heldInput
    }

    func enqueue(_ body: Body, after generation: Int) {
        pendingReplies.append(PendingReply(generation: generation, body: body))
    }

    func enqueueReply(_ message: ServerMessage, after generation: Int) {
        enqueue(.message(message), after: generation)
    }

    /// Moves the replies whose change is saved into the output, in order. A reply
    /// whose save failed becomes a `save-failed` error. A hint not answered yet
    /// holds back itself and the replies after it.
    func releaseReplies(savedGeneration: Int, failedGeneration: Int?, render: (Body) -> ServerMessage) {
        while pendingHead < pendingReplies.count {
            let pending = pendingReplies[pendingHead]
            let failed = failedGeneration.map { pending.generation > savedGeneration && pending.generation <= $0 } ?? false
            guard pending.generation <= savedGeneration || failed else { break }
            var message: ServerMessage
            if case .hint(let id, let ticket) = pending.body {
                guard let answer = hintAnswers.removeValue(forKey: ticket) else { break }
                message = .hint(id: id, hint: answer)
            } else {
                message = render(pending.body)
            }
            if failed, case .reply(let id, let command, _) = message {
                message = .error(id: id, code: .saveFailed, message: Refusal.notSaved(command).english)
            }
            outbox.append(message.encoded())
            pendingHead += 1
        }
        if pendingHead == pendingReplies.count {
            pendingReplies.removeAll(keepingCapacity: true)
            pendingHead = 0
        }
    }
}
