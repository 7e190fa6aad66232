// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltSystem
import TiltWire

/// What a client knows about the daemon's game, whichever view shows it: the board
/// (kept by a `BoardMirror`) and its labels, the sensor, the detector's pose and
/// angles, the hint asked for, a note for the player, the play clock and the solve.
/// `play` and the window render it; it is fed the daemon's messages and told what
/// was sent. Pure: the caller passes the monotonic time a message arrived.
public struct ClientGame: Sendable {
    public private(set) var mirror = BoardMirror()
    public private(set) var sensor: SensorReport?
    public private(set) var lastTilt: TiltMark?
    public private(set) var lastEvent: String?
    /// The detector's view, for the gauge (only with a `pose` subscription).
    public private(set) var pose: PoseReport?
    /// The detector's angles, from the daemon's `settings`.
    public private(set) var settings: Sensitivity?
    /// How the daemon reads tilts for the picture (`screen`); nil from a daemon before it.
    public private(set) var screen: ScreenRotation?
    /// A note for the player: what the daemon refused, what a reply said that no
    /// event did, a question. A change of the board puts it away, and so may the view.
    public var notice: String?
    /// The hint the player asked for, while it fits the board.
    public private(set) var hints = HintTracker()
    /// The play time of the solve, while the board shown is solved.
    public private(set) var solvedTime: Double?
    /// Which records the last solve set (nil: no solve seen since the last unsolved board).
    public private(set) var solvedNews: RecordNews?
    /// Requests sent and not answered yet, by id: their replies say what happened.
    private var pending: [Int: Command] = [:]
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

    /// What one message changed, for the view to act on.
    public struct Update: Equatable, Sendable {
        /// The mirror's outcome; `.needsState`: ask the daemon for its state.
        public var outcome: BoardMirror.Outcome
        /// The event as one line of plain output, when it is an event worth a line.
        public var line: String?
        /// Nothing could slide this way (a tilt, or a move this client sent): the board bumps.
        public var bumped: Direction?
    }

    public init() {}

    public var state: GameState? { mirror.state }

    /// Applies a message that arrived at `now`.
    @discardableResult
    public mutating func apply(_ message: ServerMessage, at now: Double) -> Update {
        let outcome = mirror.apply(message)
        hintArrived(message)
        var update = Update(outcome: outcome)
        switch message {
        case .state(let state):
            clockBase = state.time
            clockSince = state.solved ? nil : now
            solvedTime = state.solved ? state.time : nil
            if !state.solved { solvedNews = nil }
            lastTilt = nil
            lastEvent = nil
            notice = nil
            let size = GameText.sizeText(state.size), time = PlayTime.text(state.time), board = GameText.boardLine(state)
            update.line = state.solved
                ? L.plural("state {1}: {2}, {0} move, {3} played, solved; board {4}",
                           "state {1}: {2}, {0} moves, {3} played, solved; board {4}", state.moves, state.revision, size, time, board)
                : L.plural("state {1}: {2}, {0} move, {3} played; board {4}",
                           "state {1}: {2}, {0} moves, {3} played; board {4}", state.moves, state.revision, size, time, board)
        case .move(let revision, let move, let cause, let moves, let solved, _, _):
            if solved {
                stopClock(at: now)
            } else if clockSince == nil {
                clockSince = now   // an undo after the solve: the daemon's clock runs again
            }
            lastTilt = TiltMark(direction: move.direction, blocked: false)
            if outcome == .updated { notice = nil }
            // Only a move the mirror applied tells which tile it was.
            let tile = outcome == .updated ? mirror.state.map { $0.board[move.to] } : nil
            let name = tile.map { L("tile {0}", label($0)) } ?? L("a tile")
            let way = GameText.directionText(move.direction), why = GameText.causeText(cause)
            lastEvent = L("{0} slid {1} ({2})", name, way, why)
            update.line = solved
                ? L.plural("move {1}: {2} {3}, cell {4}→{5} ({6}), {0} move, solved",
                           "move {1}: {2} {3}, cell {4}→{5} ({6}), {0} moves, solved", moves, revision, name, way, move.from, move.to, why)
                : L.plural("move {1}: {2} {3}, cell {4}→{5} ({6}), {0} move",
                           "move {1}: {2} {3}, cell {4}→{5} ({6}), {0} moves", moves, revision, name, way, move.from, move.to, why)
        case .tilt(let direction, let moved):
            lastTilt = TiltMark(direction: direction, blocked: !moved)
            let way = GameText.directionText(direction)
            lastEvent = moved ? L("tilt {0}", way) : L("tilt {0}: nothing can slide that way", way)
            update.line = lastEvent
            if !moved { update.bumped = direction }
        case .solved(_, let moves, let time, let news):
            clockBase = time
            clockSince = nil
            solvedTime = time
            solvedNews = news
            lastEvent = GameText.solvedText(moves: moves, time: time, news: news)
            update.line = lastEvent
        case .sensor(let report):
            sensor = report
            update.line = GameText.sensorText(report)
        case .reply(let id, _, let moved):
            if let id = id?.int, let command = pending.removeValue(forKey: id) {
                update.bumped = answered(command, moved: moved ?? 0)
            }
        case .error(let id, let code, let message):
            if let id = id?.int { pending[id] = nil }
            let text = RefusalText.text(code, message)
            notice = text
            update.line = L("error: {0} ({1})", text, code.rawValue)
        case .calibrated(let auto):
            notice = auto ? L("the pose you hold is now neutral (held still at the start)")
                          : L("calibrated: this pose is now neutral")
            update.line = notice
        case .pose(let report):
            pose = report
        case .settings(let new):
            // The greeting's settings are no news; a change is.
            if settings != nil, settings != new {
                lastEvent = L("sensitivity: {0}", GameText.sensitivityText(new))
                update.line = lastEvent
            }
            settings = new
        case .screen(let rotation):
            // A line for `watch` always (the greeting's too); news on the screen only when it turns.
            if screen != nil, screen != rotation { lastEvent = GameText.screenText(rotation) }
            update.line = GameText.screenText(rotation)
            screen = rotation
        case .hello, .sample, .hint:
            break
        }
        return update
    }

    /// A request was sent as `id`: its reply (or error) is matched to it.
    public mutating func sent(_ command: Command, id: Int) {
        pending[id] = command
        if command == .hint { hints.asked(id: id) }
    }

    /// The connection dropped: what was sent will never be answered.
    public mutating func disconnected() {
        pending.removeAll()
        hints = HintTracker()
    }

    /// What a reply tells that no event did; the direction of a bump, if it was one.
    private mutating func answered(_ command: Command, moved: Int) -> Direction? {
        switch command {
        case .tilt(let direction) where moved == 0, .move(_, let direction) where moved == 0:
            lastTilt = TiltMark(direction: direction, blocked: true)
            lastEvent = L("{0}: nothing can slide that way", GameText.directionText(direction))
            return direction
        case .undo where moved == 0: notice = L("nothing to undo")
        case .redo where moved == 0: notice = L("nothing to redo")
        case .calibrate: notice = L("calibrated: this pose is now neutral")
        default: break
        }
        return nil
    }

    private mutating func hintArrived(_ message: ServerMessage) {
        let waiting = hints.waitingFor
        hints.apply(message, mirror: mirror.state)
        if waiting != nil, hints.waitingFor == nil, case .hint = message, hints.hint == nil {
            notice = L("the board changed meanwhile: ask for the hint again")
        }
    }

    /// While the daemon works out the hint asked for.
    public var isThinking: Bool { hints.waitingFor != nil }

    /// The hint's status line, every view's: that the daemon is thinking, or the hint for the board shown.
    public var hintLine: String? {
        isThinking ? HintText.thinking : HintText.line(hints.hint, state: state)
    }

    /// The cell of the tile the hint says to slide next, on the board shown.
    public var hintedCell: Int? { hints.highlightedCell(on: state) }

    /// The tile (its value) the hint says to slide next.
    public var hintedTile: Int? { hintedCell.flatMap { cell in state?.board[cell] } }

    /// A tile's number as players know it: value v shows as v+1 (a 4×4 board before the first state).
    public func label(_ tile: Int) -> String {
        GameText.label(tile, side: state?.size ?? 4)
    }

    /// The sensitivity in effect as its preset's name ("custom" for other angles, "…" before the daemon said).
    public var sensitivityName: String {
        guard let settings else { return "…" }
        return Sensitivity.Preset(settings).map(GameText.presetText) ?? L("custom")
    }

    /// What `cycleSensitivity` asks for next.
    public var nextSensitivity: Sensitivity { UserAction.nextSensitivity(after: settings) }

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
}
