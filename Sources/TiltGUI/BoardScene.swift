import TiltClient
import TiltCore
import TiltTerminal
import TiltWire

/// Everything the window shows, kept up to date from the daemon's messages: the
/// board (through the animator), the connection, the sensor, the last refusal.
/// The painter draws it; nothing here knows about SDL.
public struct BoardScene: Sendable {
    public enum Connection: Equatable, Sendable {
        /// Not connected; `reason` says why the last attempt failed.
        case connecting(reason: String?)
        case connected
    }

    public var connection: Connection = .connecting(reason: nil)
    public private(set) var mirror = BoardMirror()
    public private(set) var animator: Animator?
    public private(set) var sensor: SensorReport?
    /// The detector's view, for the gauge (docs/gui.md).
    public private(set) var pose: PoseReport?
    /// The detector's angles, from the daemon's `settings`.
    public private(set) var settings: Sensitivity?
    /// Seconds since the last fired tilt, for the gauge's flash; nil when none is showing.
    public private(set) var firedAgo: Double?
    /// What the daemon last refused, shown until the board changes.
    public private(set) var notice: String?
    private var solvedTime: Double?
    /// The hint asked for with the Hint button or key, while it fits the board.
    public private(set) var hints = HintTracker()
    /// Which records the last solve set (nil: no solve seen since connecting).
    public private(set) var solvedNews: RecordNews?
    /// Seconds the celebration has been showing; nil when not animating.
    private var celebrationAge: Double?
    /// Swipes sent as `move` requests, by request id: if nothing moved, the board bumps that way.
    private var pendingMoves: [Int: Direction] = [:]
    public var frameInterval = 1.0 / 60 {
        didSet { animator?.frameInterval = frameInterval }
    }

    public init() {}

    public var state: GameState? { mirror.state }

    /// Takes in one message; true when the client should ask for the whole state
    /// (it missed a revision, or a move does not fit the board it knows).
    public mutating func receive(_ message: ServerMessage) -> Bool {
        defer { hints.apply(message, mirror: mirror.state) }
        switch message {
        case .state(let state):
            _ = mirror.apply(message)
            notice = nil
            solvedTime = state.solved ? state.time : nil
            if !state.solved {
                solvedNews = nil
                celebrationAge = nil
            }
            // The greeting after a reconnect repeats what is shown: nothing to redo.
            if animator?.side != state.size || animator?.target != state.board {
                animator = Animator(board: state.board, side: state.size, frameInterval: frameInterval)
            }
        case .move(_, let move, _, _, _, _, _):
            switch mirror.apply(message) {
            case .updated:
                notice = nil
                if animator?.enqueue(move) != true, let state = mirror.state {
                    animator?.reset(board: state.board, side: state.size)
                }
            case .needsState:
                return true
            case .unchanged:
                break
            }
        case .tilt(let direction, let moved):
            firedAgo = 0
            if !moved { animator?.bump(direction) }
        case .solved(_, _, let time, let news):
            solvedTime = time
            solvedNews = news
            celebrationAge = 0
        case .sensor(let report):
            sensor = report
        case .reply(let id, _, let moved):
            if let id = id?.int, let direction = pendingMoves.removeValue(forKey: id), moved == 0 {
                animator?.bump(direction)
            }
        case .error(let id, _, let text):
            if let id = id?.int { pendingMoves.removeValue(forKey: id) }
            notice = text
        case .calibrated(let auto):
            notice = auto ? "your pose is now neutral" : "calibrated: this pose is now neutral"
        case .pose(let report):
            pose = report
        case .settings(let new):
            settings = new
        case .hello, .sample, .hint:
            break
        }
        return false
    }

    /// Notes a request sent as `id`, so its reply can be answered with a bump.
    public mutating func sent(_ command: Command, id: Int) {
        switch command {
        case .move(_, let direction), .tilt(let direction): pendingMoves[id] = direction
        case .hint: hints.asked(id: id)
        default: break
        }
    }

    /// The connection dropped: what was sent will never be answered.
    public mutating func disconnected(reason: String) {
        connection = .connecting(reason: reason)
        pendingMoves.removeAll()
        hints = HintTracker()
    }

    public mutating func advance(by seconds: Double) {
        animator?.advance(by: seconds)
        if let ago = firedAgo { firedAgo = ago + seconds < Self.firedFlash ? ago + seconds : nil }
        // The celebration starts once the last tile has landed.
        if let age = celebrationAge, solvedBanner != nil {
            celebrationAge = age + seconds < Self.celebrationDuration ? age + seconds : nil
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

    public var celebration: Celebration? {
        guard let state, solvedBanner != nil else { return nil }
        var lines = [CountText.text(state.moves, "move") + (solvedTime.map { " in \(PlayTime.text($0))" } ?? "")]
        let news = solvedNews ?? RecordNews()
        switch (news.bestTime, news.fewestMoves) {
        case (true, true): lines.append("New best: time and moves!")
        case (true, false): lines.append("New best time!")
        case (false, true): lines.append("New best: fewest moves!")
        case (false, false):
            if let best = state.best {
                lines.append("Best: \(PlayTime.text(best.bestTime)), \(CountText.text(best.fewestMoves, "move"))")
            }
        }
        lines.append("New game: n or the New button")
        let progress = celebrationAge.map { min(1, $0 / Self.celebrationDuration) } ?? 1
        return Celebration(title: "Solved!", lines: lines, progress: progress, isRecord: news.isRecord)
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

    /// The first status line: the game.
    public var gameLine: String {
        guard let state else { return "" }
        var text = "\(state.size)×\(state.size)   \(CountText.text(state.moves, "move"))"
        if let notice {
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
            return "connecting…" + (reason.map { " \($0)" } ?? "")
        case .connected:
            guard let sensor else { return "" }
            switch sensor.status {
            case .active: return "sensor on: " + (sensor.name ?? sensor.kind ?? "tilt to play")
            case .idle: return "sensor idle"
            case .absent, .disabled: return "no sensor: keys or touch"
            case .ended: return "sensor: trace ended"
            case .error: return "sensor lost" + (sensor.message.map { ": \($0)" } ?? "")
            case .busy: return "sensor busy" + (sensor.message.map { ": \($0)" } ?? "")
            }
        }
    }

    /// Shown over the board once the last tile has landed on a solved board.
    public var solvedBanner: String? {
        guard let state, state.solved, state.moves > 0, animator?.pendingSlides ?? 0 == 0 else { return nil }
        let time = solvedTime.map { " in \(PlayTime.text($0))" } ?? ""
        return "Solved! \(CountText.text(state.moves, "move"))\(time)"
    }

    /// The tile (its value) the hint says to slide next: it glows.
    public var hintedTile: Int? {
        guard let state, let cell = hints.highlightedCell(on: state) else { return nil }
        return state.board[cell]
    }

    /// `slide 7 down: 48 to go, optimal`; `thinking…` while the daemon computes it.
    public var hintText: String? {
        if hints.waitingFor != nil { return "hint: thinking…" }
        guard let hint = hints.hint, let first = hint.solution.first, let tile = hintedTile else { return nil }
        return "slide \(label(tile)) \(first): \(hint.solution.count) to go" + (hint.optimal ? ", optimal" : "")
    }

    /// The sensitivity choice shown on its button: the preset in effect (angles set
    /// otherwise, e.g. by the command line, show as "custom").
    public var sensitivityName: String {
        guard let settings else { return "…" }
        return Sensitivity.Preset(settings)?.rawValue ?? "custom"
    }

    /// What the sensitivity button asks for next: gentle → normal → firm → gentle
    /// (custom angles go back to normal).
    public var nextSensitivity: Sensitivity {
        guard let settings, let preset = Sensitivity.Preset(settings) else { return Sensitivity.Preset.normal.sensitivity }
        return preset.next.sensitivity
    }

    /// A button's label; the sensitivity button names the current choice, the size
    /// button the board's size.
    public func label(for control: Control) -> String {
        switch control {
        case .sensitivity: "Tilt: \(sensitivityName) (s)"
        case .size: "Size: " + (state.map { "\($0.size)×\($0.size)" } ?? "…") + " (g)"
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
    public func label(_ tile: Int) -> String {
        BoardText.label(tile, side: state?.size ?? 4)
    }
}

private extension String {
    var trimmingSuffixSpaces: String {
        var text = Substring(self)
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
