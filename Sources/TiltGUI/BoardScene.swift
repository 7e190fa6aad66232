// SPDX-License-Identifier: GPL-3.0-or-later
import TiltClient
import TiltCore
import TiltSystem
import TiltWire

/// What the window shows: the client's game (`ClientGame`, the same model `play`
/// renders) with the board's animation, the connection, the gauge's flash and the
/// celebration. The painter draws it; nothing here knows about SDL.
public struct BoardScene: Sendable {
    public enum Connection: Equatable, Sendable {
        /// Not connected; `reason` says why the last attempt failed.
        case connecting(reason: String?)
        case connected
    }

    public var connection: Connection = .connecting(reason: nil)
    /// The game as the daemon's messages tell it.
    public private(set) var game = ClientGame()
    public private(set) var animator: Animator?
    /// Seconds since the last fired tilt, for the gauge's flash; nil when none is showing.
    public private(set) var firedAgo: Double?
    /// Seconds the celebration has been showing; nil when not animating.
    private var celebrationAge: Double?
    /// The sounds the events since the last `takeSounds` call for.
    public private(set) var sounds = SoundCues()
    public var frameInterval = 1.0 / 60 {
        didSet { animator?.frameInterval = frameInterval }
    }
    /// How long a solved picture shows whole before the solved panel grows in over it
    /// (docs/gui.md, Solved): 0 for numbers.
    public var solvedPause = 0.0
    /// A line of the window's own (a picture it cannot show), until the next move.
    public var note: String?

    public init() {}

    public var state: GameState? { game.state }
    public var sensor: SensorReport? { game.sensor }
    /// The detector's view, for the gauge (docs/gui.md).
    public var pose: PoseReport? { game.pose }
    /// The detector's angles, from the daemon's `settings`.
    public var settings: Sensitivity? { game.settings }

    /// Takes in one message that arrived at `now`; true when the client should ask for
    /// the whole state (it missed a revision, or a move does not fit the board it knows).
    public mutating func receive(_ message: ServerMessage, at now: Double = 0) -> Bool {
        let update = game.apply(message, at: now)
        switch message {
        case .state(let state):
            if !state.solved { celebrationAge = nil }
            // The greeting after a reconnect repeats what is shown: nothing to redo.
            if animator?.side != state.size || animator?.target != state.board {
                animator = Animator(board: state.board, side: state.size, frameInterval: frameInterval)
            }
        case .move(_, let move, _, _, _, _, _) where update.outcome == .updated:
            note = nil
            if animator?.enqueue(move) != true, let state = game.state {
                animator?.reset(board: state.board, side: state.size)
            }
            // Whoever made it: the tablet, a finger, another client.
            sounds.add(.slide)
        case .tilt:
            firedAgo = 0
        case .solved:
            celebrationAge = 0
            sounds.add(.solved)
        default:
            break
        }
        if let direction = update.bumped {
            animator?.bump(direction)
            sounds.add(.bump)
        }
        return update.outcome == .needsState
    }

    /// A tap on the tile at `index`, which cannot move (it is not in the gap's row or
    /// column): the tile shakes and the bump sounds, so the tap is not met with nothing.
    public mutating func nudge(at index: Int) {
        guard let animator, animator.board.indices.contains(index), animator.board[index] != animator.emptyValue else { return }
        self.animator?.nudge(at: index)
        sounds.add(.bump)
    }

    /// The sounds called for since the last call, in the order to play them.
    public mutating func takeSounds() -> [SoundEffect] { sounds.take() }

    /// Notes a request sent as `id`, so its reply can be answered (a bump, a hint).
    public mutating func sent(_ command: Command, id: Int) {
        game.sent(command, id: id)
    }

    /// The connection dropped: what was sent will never be answered.
    public mutating func disconnected(reason: String) {
        connection = .connecting(reason: reason)
        game.disconnected()
    }

    public mutating func advance(by seconds: Double) {
        animator?.advance(by: seconds)
        if let ago = firedAgo { firedAgo = ago + seconds < Self.firedFlash ? ago + seconds : nil }
        // The celebration starts once the last tile has landed.
        if let age = celebrationAge, solvedBanner != nil {
            celebrationAge = age + seconds < solvedPause + Self.celebrationDuration ? age + seconds : nil
        }
    }

    /// How long the solved panel takes to grow in.
    public static let celebrationDuration = 0.6

    /// The solved screen (docs/gui.md): what it says and how far it has grown in.
    public struct Celebration: Equatable, Sendable {
        public var title: String
        public var lines: [String]
        /// 0 just solved … 1 fully shown.
        public var progress: Double
        public var isRecord: Bool
    }

    /// Its words are the client's (`GameText`), as `play` and the command line say them.
    public var celebration: Celebration? {
        guard let state, solvedBanner != nil, (celebrationAge ?? .infinity) >= solvedPause else { return nil }
        var lines = [GameText.solveText(moves: state.moves, time: game.solvedTime)]
        let news = game.solvedNews ?? RecordNews()
        if let record = GameText.newsLine(news) ?? GameText.bestText(state) { lines.append(GameText.ownLine(record)) }
        lines.append(L("New game: n or the New button"))
        let progress = celebrationAge.map { min(1, ($0 - solvedPause) / Self.celebrationDuration) } ?? 1
        return Celebration(title: L("Solved!"), lines: lines, progress: progress, isRecord: news.isRecord)
    }

    /// How long the gauge shows a fired tilt.
    public static let firedFlash = 0.4

    public var isAnimating: Bool {
        (animator?.isAnimating ?? false) || firedAgo != nil || (celebrationAge != nil && solvedBanner != nil)
    }

    /// The gauge's state: what colour it takes.
    public enum GaugeState: Equatable, Sendable {
        /// A tilt just fired.
        case fired
        /// The next tilt past the trigger fires.
        case armed
        /// Waiting for the tablet to come back under the release angle.
        case waiting
    }

    /// The gauge to draw; nil without a running sensor or a pose.
    public var gauge: (pose: PoseReport, state: GaugeState)? {
        guard let pose, sensor?.status == .active else { return nil }
        if firedAgo != nil { return (pose, .fired) }
        return (pose, pose.armed ? .armed : .waiting)
    }

    // MARK: Text

    /// The first status line: the game, then a notice or the hint.
    public var gameLine: String {
        guard let state else { return "" }
        var text = GameText.sizeText(state.size) + "   " + GameText.movesText(state.moves)
        if let note {
            text += " — \(note)"
        } else if let notice = game.notice {
            text += " — \(notice)"
        } else if let hint = hintText {
            text += " — \(hint)"
        }
        return text
    }

    /// The second status line: the connection, else the sensor.
    public var sensorLine: String {
        switch connection {
        case .connecting(let reason):
            return reason.map { L("connecting… {0}", $0) } ?? L("connecting…")
        case .connected:
            guard let sensor else { return "" }
            switch sensor.status {
            case .active: return L("sensor on: {0}", sensor.name ?? sensor.kind ?? L("tilt to play"))
            case .idle: return L("sensor idle")
            case .absent, .disabled: return L("no sensor: keys or touch")
            case .ended: return L("sensor: trace ended")
            case .error: return sensor.message.map { L("sensor lost: {0}", $0) } ?? L("sensor lost")
            case .busy: return sensor.message.map { L("sensor busy: {0}", $0) } ?? L("sensor busy")
            }
        }
    }

    /// Shown over the board once the last tile has landed on a solved board.
    public var solvedBanner: String? {
        guard let state, state.solved, state.moves > 0, animator?.pendingSlides ?? 0 == 0 else { return nil }
        return L("Solved! {0}", GameText.solveText(moves: state.moves, time: game.solvedTime))
    }

    /// The tile (its value) the hint says to slide next: it glows.
    public var hintedTile: Int? { game.hintedTile }

    /// `hint: slide 7 down — 48 moves to go, optimal` (or `not the shortest`), `hint:
    /// thinking…` while the daemon computes it: the client's line, as `play` shows it.
    public var hintText: String? { game.hintLine }

    /// The sensitivity choice shown on its button: the preset in effect (angles set
    /// otherwise, e.g. by the command line, show as "custom").
    public var sensitivityName: String { game.sensitivityName }

    /// What the sensitivity button asks for next: gentle → normal → firm → gentle
    /// (custom angles go back to normal).
    public var nextSensitivity: Sensitivity { game.nextSensitivity }

    /// A button's label; the sensitivity button names the current choice, the size
    /// button the board's size.
    public func label(for control: Control) -> String {
        switch control {
        // TRANSLATORS: the sensitivity button, with its setting: "Tilt: normal".
        case .sensitivity: L("Tilt: {0}", sensitivityName) + " (\(control.key))"
        case .size: L("Size: {0}", state.map { GameText.sizeText($0.size) } ?? "…") + " (\(control.key))"
        default: control.label
        }
    }

    /// The label without its key, for a button too narrow for the whole label.
    public func shortLabel(for control: Control) -> String {
        let full = label(for: control)
        guard full.hasSuffix(")"), let open = full.lastIndex(of: "("), open > full.startIndex else { return full }
        return String(full[..<open]).trimmingSuffixSpaces
    }

    /// A tile's number as players know it: value v shows as v+1.
    public func label(_ tile: Int) -> String { game.label(tile) }
}

private extension String {
    var trimmingSuffixSpaces: String {
        var text = Substring(self)
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
