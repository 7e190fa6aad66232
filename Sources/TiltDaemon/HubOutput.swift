// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltWire

/// Saving and flow control: replies wait for the save they depend on, paused clients
/// resume, outboxes are flushed (docs/protocol.md, "Flow control").
extension Hub {
    // MARK: Saving

    /// The save of `generation` finished; replies waiting for it go out (as
    /// `save-failed` errors if it failed).
    public func saveCompleted(generation: Int, failure: SaveFailure?) {
        if let failure {
            log.error("saving the game failed: \(failure)")
        } else {
            savedGeneration = max(savedGeneration, generation)
        }
        for id in order {
            guard let session = sessions[id] else { continue }
            release(session, failedGeneration: failure == nil ? nil : generation)
            flush(session)
        }
        if failure != nil {
            // Allow a later change to try again.
            requestedGeneration = savedGeneration
        }
        resumeWaiting()
    }

    // MARK: Output

    func broadcast(_ message: ServerMessage) {
        let line = message.encoded()
        for id in order { sessions[id]!.outbox.append(line) }
    }

    /// Settles the changes, then lets paused sessions that may go on run what
    /// they hold.
    func afterChanges() {
        settle()
        resumeWaiting()
    }

    /// Asks for a save when the game changed, releases what can go out, and writes.
    func settle() {
        if game.generation > requestedGeneration {
            requestedGeneration = game.generation
            delegate.save(game)
        }
        for id in order {
            // A session with nothing to send or answer has nothing to flush: at 100 Hz
            // with many clients attached, most of them, most of the time.
            guard let session = sessions[id], !session.isDrained else { continue }
            release(session, failedGeneration: nil)
            flush(session)
        }
    }

    func release(_ session: Session, failedGeneration: Int?) {
        session.releaseReplies(savedGeneration: savedGeneration, failedGeneration: failedGeneration) { body in
            switch body {
            case .message(let message): message
            case .currentState: .state(game.state(at: clock()))
            case .currentSensor: .sensor(sensor)
            case .currentScreen: .screen(game.screenRotation)
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
    func resumeWaiting() {
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

    func flush(_ session: Session) {
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
            delegate.watchWritable(session.id, wants)
        }
        if session.inputPaused && !session.resumeScheduled && session.mayResume(limits) {
            session.resumeScheduled = true
            resumable.append(session.id)
        }
    }
}
