import TiltClient
import TiltCore
import TiltWire

/// What a live view knows about the daemon's game: the board (kept by a
/// `BoardMirror`), the sensor, the last tilt, the last event and the play clock.
/// Pure: the caller passes the monotonic time a message arrived.
public struct LiveGame: Sendable {
    public private(set) var mirror = BoardMirror()
    public private(set) var sensor: SensorReport?
    public private(set) var lastTilt: TiltMark?
    public private(set) var lastEvent: String?
    /// The detector's view, for the gauge line (only with a `pose` subscription).
    public private(set) var pose: PoseReport?
    /// The detector's angles, from the daemon's `settings`.
    public private(set) var settings: Sensitivity?
    /// A note for the player: the daemon's error message, a question. The player clears it.
    public var notice: String?
    /// The hint the player asked for (`?`), while it fits the board.
    public private(set) var hints = HintTracker()
    /// Play seconds when `clockSince` was taken; the daemon's clock runs while a
    /// client is attached and the game is unsolved, so ours ticks on from its last word.
    private var clockBase: Double = 0
    private var clockSince: Double?

    /// The last direction something slid, or was tilted without anything able to move.
    public struct TiltMark: Equatable, Sendable {
        public var direction: Direction
        public var blocked: Bool

        public init(direction: Direction, blocked: Bool) {
            self.direction = direction
            self.blocked = blocked
        }
    }

    public init() {}

    public var state: GameState? { mirror.state }

    /// Applies a message that arrived at `now`. Returns the mirror's outcome
    /// (`.needsState`: ask the daemon for its state) and the event as one line of
    /// plain output, when it is an event worth a line.
    public mutating func apply(_ message: ServerMessage, at now: Double) -> (outcome: BoardMirror.Outcome, line: String?) {
        let outcome = mirror.apply(message)
        hintArrived(message)
        var line: String?
        switch message {
        case .state(let state):
            clockBase = state.time
            clockSince = state.solved ? nil : now
            lastTilt = nil
            lastEvent = nil
            line = "state \(state.revision): \(state.size)×\(state.size), \(CountText.text(state.moves, "move")), "
                + "\(PlayTime.text(state.time)) played\(state.solved ? ", solved" : ""); board \(Self.boardLine(state))"
        case .move(let revision, let move, let cause, let moves, let solved, _, _):
            if solved {
                stopClock(at: now)
            } else if clockSince == nil {
                clockSince = now   // an undo after the solve: the daemon's clock runs again
            }
            lastTilt = TiltMark(direction: move.direction, blocked: false)
            // Only a move the mirror applied tells which tile it was.
            let tile = outcome == .updated ? mirror.state.map { $0.board[move.to] } : nil
            let name = tile.map { "tile \(BoardText.label($0, side: mirror.state?.size ?? 0))" } ?? "a tile"
            lastEvent = "\(name) slid \(move.direction) (\(cause.rawValue))"
            line = "move \(revision): \(name) \(move.direction), cell \(move.from)→\(move.to) (\(cause.rawValue)), "
                + "\(CountText.text(moves, "move"))\(solved ? ", solved" : "")"
        case .tilt(let direction, let moved):
            lastTilt = TiltMark(direction: direction, blocked: !moved)
            lastEvent = moved ? "tilt \(direction)" : "tilt \(direction): nothing can slide that way"
            line = lastEvent
        case .solved(_, let moves, let time, let news):
            clockBase = time
            clockSince = nil
            lastEvent = "solved in \(CountText.text(moves, "move")), \(PlayTime.text(time))" + Self.newsText(news)
            line = lastEvent
        case .sensor(let report):
            sensor = report
            line = BoardText.sensorText(report)
        case .error(_, let code, let message):
            notice = message
            line = "error: \(message) (\(code.rawValue))"
        case .calibrated(let auto):
            lastEvent = auto ? "the pose you hold is now neutral (held still at the start)"
                             : "calibrated: this pose is now neutral"
            line = lastEvent
        case .pose(let report):
            pose = report
        case .settings(let new):
            // The greeting's settings are no news; a change is.
            if settings != nil, settings != new {
                lastEvent = "sensitivity: " + Self.sensitivityText(new)
                line = lastEvent
            }
            settings = new
        case .hello, .sample, .reply, .hint:
            break
        }
        return (outcome, line)
    }

    /// A hint was asked for as request `id`.
    public mutating func askedForHint(id: Int) {
        hints.asked(id: id)
        notice = "thinking…"
    }

    private mutating func hintArrived(_ message: ServerMessage) {
        let waiting = hints.waitingFor
        hints.apply(message, mirror: mirror.state)
        if waiting != nil, hints.waitingFor == nil, case .hint = message {
            notice = hints.hint == nil ? "the board changed meanwhile: press ? again" : nil
        }
    }

    /// The hint under the board: `hint: slide 7 down — 48 moves to go, optimal`.
    public var hintLine: String? {
        guard let hint = hints.hint, let state = mirror.state, state.revision == hint.revision else { return nil }
        return "hint: " + HintText.describe(hint, board: state.board, size: state.size)
    }

    /// A tilt from this client that the daemon answered with nothing moved: the
    /// same bump as a sensor's illegal tilt.
    public mutating func bump(_ direction: Direction) {
        lastTilt = TiltMark(direction: direction, blocked: true)
        lastEvent = "\(direction): nothing can slide that way"
    }

    /// ` — new best time and fewest moves!`, or nothing without a record.
    public static func newsText(_ news: RecordNews) -> String {
        switch (news.bestTime, news.fewestMoves) {
        case (true, true): " — new best: time and moves!"
        case (true, false): " — new best time!"
        case (false, true): " — new best: fewest moves!"
        case (false, false): ""
        }
    }

    /// One line per board size solved: `best 4×4: 1:02, 98 moves`, or that there are none.
    public static func recordLines(_ state: GameState) -> [String] {
        guard !state.records.isEmpty else { return ["best: no game solved yet"] }
        return state.records.map { "best \($0.size)×\($0.size): \(PlayTime.text($0.bestTime)), \(CountText.text($0.fewestMoves, "move"))" }
    }

    /// `best 1:02, 98 moves` for the current size, if one was ever solved.
    public static func bestText(_ state: GameState) -> String? {
        guard let best = state.best else { return nil }
        return "best \(PlayTime.text(best.bestTime)), \(CountText.text(best.fewestMoves, "move"))"
    }

    /// `tilt 20° to move, back under 10° to re-arm (normal)`.
    public static func sensitivityText(_ s: Sensitivity) -> String {
        func degrees(_ d: Double) -> String { d == d.rounded() ? "\(Int(d))°" : "\(d)°" }
        let preset = Sensitivity.Preset(s).map { " (\($0.rawValue))" } ?? ""
        return "tilt \(degrees(s.trigger)) to move, back under \(degrees(s.release)) to re-arm\(preset)"
    }

    // MARK: Clock

    public func elapsed(at now: Double) -> Double {
        clockBase + (clockSince.map { max(0, now - $0) } ?? 0)
    }

    /// Seconds until the shown clock changes; nil while it stands still (no timer needed).
    public func secondsToNextTick(at now: Double) -> Double? {
        guard clockSince != nil, mirror.state != nil else { return nil }
        let elapsed = elapsed(at: now)
        return (elapsed + 1).rounded(.down) - elapsed
    }

    private mutating func stopClock(at now: Double) {
        clockBase = elapsed(at: now)
        clockSince = nil
    }

    // MARK: Text

    /// The lines under the board: counters and clock, the last event, the sensor, a notice.
    public func statusLines(at now: Double) -> [String] {
        guard let state = mirror.state else { return [] }
        var first = "\(CountText.text(state.moves, "move"))   \(PlayTime.text(elapsed(at: now)))" + (state.solved ? "   SOLVED" : "")
        if let best = Self.bestText(state) { first += "   (\(best))" }
        var lines = [first]
        lines.append(lastEvent ?? "")
        lines.append(sensor.map(BoardText.sensorText) ?? "")
        if let pose, sensor?.status == .active { lines.append(PoseGauge.line(pose)) }
        if let hintLine { lines.append(hintLine) }
        if let notice { lines.append(notice) }
        return lines
    }

    /// The board on one line in the notation `new --board` reads: `1 2 3, 4 5 6, 7 8 _`.
    public static func boardLine(_ state: GameState) -> String {
        BoardNotation.text(side: state.size, cells: state.board)
    }
}
