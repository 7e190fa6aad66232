// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltWire

/// What the sensor and the hint worker bring: samples, the pose stream, the sensor's
/// status, hints (docs/protocol.md).
extension Hub {
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

    /// Offers the detector's pose to every `pose` subscriber (after the batch's events
    /// are flushed, so a backlog is a slow client's, not this batch's).
    func offerPose(at now: Double) {
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

    /// The sensor's report changed on its own account (not in answer to a claim).
    public func sensorChanged(_ report: SensorReport) {
        guard takeSensorReport(report) else { return }
        broadcast(.sensor(report))
        afterChanges()
    }

    /// Keeps the sensor's report; false when it is the one kept already.
    @discardableResult
    func takeSensorReport(_ report: SensorReport) -> Bool {
        guard report != sensor else { return false }
        // A new stream (or none): the detector starts over, waiting for neutral.
        if report.status != sensor.status || report.name != sensor.name { game.restartDetector() }
        sensor = report
        return true
    }

    public func reconfigure(_ configuration: TiltDetector.Configuration, undoLimit: Int) {
        let (before, screenBefore) = (game.currentSensitivity, game.screenRotation)
        if let trimmed = game.reconfigure(configuration, undoLimit: undoLimit, at: clock()) { broadcast(trimmed) }
        if game.currentSensitivity != before { broadcast(.settings(game.currentSensitivity)) }
        // A rotation a client set outlives a reload; the file's is the default until one does.
        if game.screenRotation != screenBefore { broadcast(.screen(game.screenRotation)) }
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
}
