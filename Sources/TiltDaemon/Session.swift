import TiltCore
import TiltWire

/// One attached client: its input framing, its bounded output, and the replies
/// that wait for their change to be on disk.
final class Session {
    /// A reply or error, released in request order once `generation` is saved.
    struct PendingReply {
        var generation: Int
        var message: ServerMessage
    }

    let id: Int
    let transport: ClientTransport
    var splitter = LineSplitter(maxLineLength: WireProtocol.maxLineLength)
    var outbox = OutputQueue()
    var pendingReplies: [PendingReply] = []
    var pendingHead = 0
    var wantsSamples = false
    /// Set after an abusive request: no more input is read, and the session closes
    /// once its last message (the error) is out.
    var closing = false
    /// Whether the event loop watches the socket for writability.
    var waitingForWritable = false

    init(id: Int, transport: ClientTransport) {
        self.id = id
        self.transport = transport
    }

    var pendingCount: Int { pendingReplies.count - pendingHead }

    func enqueueReply(_ message: ServerMessage, after generation: Int) {
        pendingReplies.append(PendingReply(generation: generation, message: message))
    }

    /// Moves the replies whose change is saved into the output, in order.
    func releaseReplies(savedGeneration: Int, failedGeneration: Int?) {
        while pendingHead < pendingReplies.count {
            let pending = pendingReplies[pendingHead]
            if let failed = failedGeneration, pending.generation > savedGeneration, pending.generation <= failed,
               case .reply(let id, let command, _) = pending.message {
                outbox.append(ServerMessage.error(id: id, code: .saveFailed,
                                                  message: "\(command) was done but could not be saved").encoded())
            } else if pending.generation <= savedGeneration || (failedGeneration.map { pending.generation <= $0 } ?? false) {
                outbox.append(pending.message.encoded())
            } else {
                break
            }
            pendingHead += 1
        }
        if pendingHead == pendingReplies.count {
            pendingReplies.removeAll(keepingCapacity: true)
            pendingHead = 0
        }
    }
}
