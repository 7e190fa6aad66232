// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltWire

/// The daemon's game: the puzzle, the tilt detector, the revision counter and the
/// play clock, and the protocol events each change produces. No I/O: the hub
/// sends what it returns, and the store saves its snapshot.
public struct Game: Sendable {
    public private(set) var puzzle: Puzzle
    public private(set) var detector: TiltDetector
    /// +1 for every change a client can see: each tile moved, each new game.
    public private(set) var revision: Int
    /// Bumped by every change worth saving (revision changes and calibration).
    public private(set) var generation = 0
    /// The trigger and release angles the player chose (`configure`); nil: the
    /// configuration file's. Saved with the game, so a restart keeps them.
    public private(set) var sensitivity: Sensitivity?
    /// How the picture is turned, as the window showing the board last said (`screen`);
    /// nil: the configuration file's. Not saved: it describes a display now, and the
    /// window says it again on every connection (docs/protocol.md, "Screen rotation").
    public private(set) var screenOverride: ScreenRotation?
    /// The best time and fewest moves of solved games, by board side; a new game keeps them.
    public private(set) var records: [Int: SizeRecord]
    /// Whether this game may still set a record: only a game that began unsolved, and
    /// only at its first solve (docs/protocol.md, `solved`). Saved with the game.
    public private(set) var mayRecord: Bool
    /// Seconds of play before the clock's current run.
    private var playedBefore: Double
    /// When the clock's current run started (monotonic seconds); nil while paused.
    private var runningSince: Double?

    /// `mayRecord` nil: a game that is unsolved now may set a record.
    public init(puzzle: Puzzle, detector: TiltDetector, revision: Int = 0, playTime: Double = 0,
                sensitivity: Sensitivity? = nil, records: [Int: SizeRecord] = [:], mayRecord: Bool? = nil) {
        self.puzzle = puzzle
        self.mayRecord = mayRecord ?? !puzzle.isSolved
        self.detector = detector
        self.revision = revision
        self.playedBefore = playTime
        self.sensitivity = sensitivity
        self.records = records
        self.detector.reconfigure(applyingPlayerChoices(to: detector.configuration))
    }

    /// The angles in effect.
    public var currentSensitivity: Sensitivity {
        Sensitivity(trigger: detector.configuration.triggerAngle, release: detector.configuration.releaseAngle)
    }

    /// The rotation in effect.
    public var screenRotation: ScreenRotation { detector.configuration.screenRotation }

    /// The configuration file's detector with what clients chose over it.
    private func applyingPlayerChoices(to configuration: TiltDetector.Configuration) -> TiltDetector.Configuration {
        var configured = configuration
        if let sensitivity {
            configured.triggerAngle = sensitivity.trigger
            configured.releaseAngle = sensitivity.release
        }
        if let screenOverride { configured.screenRotation = screenOverride }
        return configured
    }

    /// The player's angles (already checked: `Sensitivity.problem` is nil); false when
    /// they are the ones in effect already.
    public mutating func configure(_ new: Sensitivity) -> Bool {
        guard new != currentSensitivity || sensitivity == nil else { return false }
        sensitivity = new
        detector.reconfigure(applyingPlayerChoices(to: detector.configuration))
        generation += 1
        return true
    }

    /// Reads tilts for a picture turned this way from the next sample on, the neutral
    /// pose kept (it is the device's, whatever the picture); false when it is in effect
    /// already. Nothing to save (`screenOverride`).
    public mutating func turnScreen(_ rotation: ScreenRotation) -> Bool {
        screenOverride = rotation
        guard rotation != screenRotation else { return false }
        detector.reconfigure(applyingPlayerChoices(to: detector.configuration))
        return true
    }

    // MARK: Clock

    /// Whether anyone is attached: play time counts only then, and only while unsolved.
    private var attached = false

    public func playTime(at now: Double) -> Double {
        playedBefore + (runningSince.map { max(0, now - $0) } ?? 0)
    }

    public mutating func setAttached(_ attached: Bool, at now: Double) {
        self.attached = attached
        updateClock(at: now)
    }

    private mutating func updateClock(at now: Double) {
        let running = attached && !puzzle.isSolved
        if running, runningSince == nil {
            runningSince = now
        } else if !running, runningSince != nil {
            playedBefore = playTime(at: now)
            runningSince = nil
        }
    }

    public func state(at now: Double) -> GameState {
        var state = GameState(puzzle: puzzle, revision: revision, time: playTime(at: now))
        state.records = records.values.sorted { $0.size < $1.size }
        return state
    }

    // MARK: Changes

    /// Feeds one sensor sample; a fired direction becomes a `tilt` event and, when
    /// legal, its move; a still starting pose taken as neutral becomes `calibrated`
    /// and is saved like a manual calibration.
    public mutating func process(_ sample: Sample, at now: Double) -> [ServerMessage] {
        guard let event = detector.step(sample) else { return [] }
        guard case .fired(let direction) = event else {
            generation += 1
            return [.calibrated(auto: true)]
        }
        let moves = puzzle.tilt(direction)
        return [.tilt(direction: direction, moved: !moves.isEmpty)] + announce(moves, cause: .tilt, at: now)
    }

    public enum ActionKind: Sendable {
        case tilt(Direction), move(index: Int, direction: Direction), slide(index: Int), undo, redo
    }

    /// Runs a client's action; the events to broadcast (empty when it was illegal).
    public mutating func perform(_ action: ActionKind, at now: Double) -> [ServerMessage] {
        switch action {
        case .tilt(let d): announce(puzzle.tilt(d), cause: .command, at: now)
        case .move(let index, let d): announce(puzzle.move(index: index, direction: d), cause: .command, at: now)
        case .slide(let index): announce(puzzle.slide(index: index), cause: .command, at: now)
        case .undo: announce(puzzle.undo(), cause: .undo, at: now)
        case .redo: announce(puzzle.redo(), cause: .redo, at: now)
        }
    }

    /// Starts a new game; the `state` event to broadcast.
    /// A new game: shuffled from `seed`, solved without one, or from `board` when given.
    public mutating func newGame(size: Int, seed: UInt64?, board: Board? = nil, at now: Double) -> ServerMessage {
        puzzle = board.map { Puzzle(board: $0, undoLimit: puzzle.history.limit) }
            ?? Puzzle.newGame(side: size, seed: seed, undoLimit: puzzle.history.limit)
        revision += 1
        generation += 1
        mayRecord = !puzzle.isSolved
        playedBefore = 0
        runningSince = nil
        updateClock(at: now)
        return .state(state(at: now))
    }

    /// Takes the current pose as neutral; false without a sample to take it from.
    public mutating func calibrate() -> Bool {
        guard detector.calibrate() else { return false }
        generation += 1
        return true
    }

    /// Applies new settings; when the undo bound changed the history, the `state`
    /// to broadcast (its `canUndo` may have changed).
    public mutating func reconfigure(_ configuration: TiltDetector.Configuration, undoLimit: Int,
                                     at now: Double) -> ServerMessage? {
        detector.reconfigure(applyingPlayerChoices(to: configuration))
        guard undoLimit != puzzle.history.limit else { return nil }
        let history = History(limit: undoLimit, undo: Array(puzzle.history.undoActions.suffix(undoLimit)),
                              redo: puzzle.history.redoActions)
        guard let resized = try? Puzzle(board: puzzle.board, moves: puzzle.moves, history: history) else { return nil }
        puzzle = resized
        revision += 1
        generation += 1
        return .state(state(at: now))
    }

    /// The sensor started, stopped or changed: the detector starts over.
    public mutating func restartDetector() {
        detector.restart()
    }

    private mutating func announce(_ moves: [Move], cause: MoveCause, at now: Double) -> [ServerMessage] {
        guard !moves.isEmpty else { return [] }
        // Each event carries the counter after its own tile: undo counts down.
        let step = cause == .undo ? -1 : 1
        let firstCount = puzzle.moves - step * (moves.count - 1)
        let solved = puzzle.isSolved
        var events: [ServerMessage] = []
        for (i, move) in moves.enumerated() {
            revision += 1
            let last = i == moves.count - 1
            events.append(.move(revision: revision, move: move, cause: cause, moves: firstCount + step * i,
                                solved: last && solved, canUndo: puzzle.canUndo, canRedo: puzzle.canRedo))
        }
        generation += 1
        updateClock(at: now)
        if solved {
            let time = playTime(at: now)
            var news = RecordNews()
            if mayRecord {
                // The first solve counts; undo and redo onto solved again record nothing.
                mayRecord = false
                let (earned, record) = RecordNews.solving(size: puzzle.side, time: time, moves: puzzle.moves,
                                                          records: records)
                news = earned
                records[puzzle.side] = record
            }
            events.append(.solved(revision: revision, moves: puzzle.moves, time: time, records: news))
        }
        return events
    }
}
