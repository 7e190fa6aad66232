// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore

/// Protocol v1 (docs/protocol.md): JSON Lines over a Unix stream socket.
public enum WireProtocol {
    public static let version = 1
    /// The longest line either side may send, newline excluded.
    public static let maxLineLength = 64 * 1024
}

/// The puzzle as a `state` message shows it.
public struct GameState: Equatable, Sendable {
    public var revision: Int
    public var size: Int
    public var board: [Int]
    public var empty: Int
    public var moves: Int
    public var solved: Bool
    public var canUndo: Bool
    public var canRedo: Bool
    /// Seconds of play since the game started (not counting time without clients).
    public var time: Double
    /// The records of solved games, one per board size that has been solved.
    public var records: [SizeRecord] = []

    /// The current size's records, if a game of this size was ever solved.
    public var best: SizeRecord? { records.first { $0.size == size } }

    public init(revision: Int, size: Int, board: [Int], empty: Int, moves: Int, solved: Bool,
                canUndo: Bool, canRedo: Bool, time: Double) {
        self.revision = revision
        self.size = size
        self.board = board
        self.empty = empty
        self.moves = moves
        self.solved = solved
        self.canUndo = canUndo
        self.canRedo = canRedo
        self.time = time
    }

    public init(puzzle: Puzzle, revision: Int, time: Double) {
        self.init(revision: revision, size: puzzle.side, board: puzzle.board.values, empty: puzzle.board.emptyIndex,
                  moves: puzzle.moves, solved: puzzle.isSolved, canUndo: puzzle.canUndo, canRedo: puzzle.canRedo,
                  time: time)
    }
}

public enum SensorStatus: String, Sendable, CaseIterable {
    /// Streaming samples.
    case active
    /// Present but stopped (no client attached).
    case idle
    /// No sensor found; waiting for one to appear.
    case absent
    /// No sensor by choice (`--source none`): none is looked for.
    case disabled
    /// A replay reached its end.
    case ended
    /// The sensor failed; the daemon retries when it reappears.
    case error
    /// Another program holds the sensor (iio-sensor-proxy has its buffer, and the driver
    /// refuses other reads meanwhile); the daemon takes it when it is free.
    case busy
}

public struct SensorReport: Equatable, Sendable {
    public var status: SensorStatus
    public var kind: String?
    public var name: String?
    public var device: String?
    public var rate: Double?
    public var message: String?

    public init(status: SensorStatus, kind: String? = nil, name: String? = nil, device: String? = nil,
                rate: Double? = nil, message: String? = nil) {
        self.status = status
        self.kind = kind
        self.name = name
        self.device = device
        self.rate = rate
        self.message = message
    }
}

/// The answer to `hint`: tilts that solve the board of `revision` (docs/protocol.md, "Hints").
public struct Hint: Equatable, Sendable {
    /// Each the way a tile slides, as in `tilt`; empty for a solved board.
    public var solution: [Direction]
    /// True only when no shorter sequence exists.
    public var optimal: Bool
    /// The board the hint is for: the game's revision when the hint was asked for.
    public var revision: Int

    public init(solution: [Direction], optimal: Bool, revision: Int) {
        self.solution = solution
        self.optimal = optimal
        self.revision = revision
    }
}

/// Everything the daemon sends.
public enum ServerMessage: Equatable, Sendable {
    case hello(version: String)
    case state(GameState)
    /// `canUndo` and `canRedo` describe the game after the action the move belongs to.
    case move(revision: Int, move: Move, cause: MoveCause, moves: Int, solved: Bool,
              canUndo: Bool = false, canRedo: Bool = false)
    case tilt(direction: Direction, moved: Bool)
    case solved(revision: Int, moves: Int, time: Double, records: RecordNews = RecordNews())
    case sensor(SensorReport)
    case sample(Sample)
    /// The neutral pose changed: by `calibrate` (`auto` false) or by a still starting
    /// pose (`auto` true, docs/tilt-detection.md).
    case calibrated(auto: Bool)
    /// The detector's view of the tablet, to clients that subscribed to it.
    case pose(PoseReport)
    /// The player's settings: after the greeting, and to everyone when they change.
    case settings(Sensitivity)
    /// How the picture is turned, as the detector reads tilts: after the greeting's
    /// `settings`, to everyone when a client changes it, and in answer to `screen`.
    case screen(ScreenRotation)
    /// `moved` is the number of tiles an action moved (absent for other commands).
    case reply(id: JSONValue?, command: String, moved: Int?)
    /// The `reply` to `hint`, with its answer.
    case hint(id: JSONValue?, hint: Hint)
    case error(id: JSONValue?, code: ErrorCode, message: String)

    public var type: String {
        switch self {
        case .hello: "hello"
        case .state: "state"
        case .move: "move"
        case .tilt: "tilt"
        case .solved: "solved"
        case .sensor: "sensor"
        case .sample: "sample"
        case .reply, .hint: "reply"
        case .calibrated: "calibrated"
        case .pose: "pose"
        case .settings: "settings"
        case .screen: "screen"
        case .error: "error"
        }
    }

    /// The message as one `\n`-terminated line.
    public func encoded() -> [UInt8] {
        var w = JSONWriter()
        w.field("type", type)
        switch self {
        case .hello(let version):
            w.field("protocol", WireProtocol.version)
            w.field("version", version)
        case .state(let s):
            w.field("revision", s.revision)
            w.field("size", s.size)
            w.field("board", s.board)
            w.field("empty", s.empty)
            w.field("moves", s.moves)
            w.field("solved", s.solved)
            w.field("canUndo", s.canUndo)
            w.field("canRedo", s.canRedo)
            w.field("time", s.time)
            w.field("records", raw: .array(s.records.map(\.json)))
        case .move(let revision, let move, let cause, let moves, let solved, let canUndo, let canRedo):
            w.field("revision", revision)
            w.field("from", move.from)
            w.field("to", move.to)
            w.field("direction", move.direction.rawValue)
            w.field("cause", cause.rawValue)
            w.field("moves", moves)
            w.field("solved", solved)
            w.field("canUndo", canUndo)
            w.field("canRedo", canRedo)
        case .tilt(let direction, let moved):
            w.field("direction", direction.rawValue)
            w.field("moved", moved)
        case .solved(let revision, let moves, let time, let news):
            w.field("revision", revision)
            w.field("moves", moves)
            w.field("time", time)
            w.field("newBestTime", news.bestTime)
            w.field("newFewestMoves", news.fewestMoves)
        case .sensor(let r):
            w.field("status", r.status.rawValue)
            if let kind = r.kind { w.field("kind", kind) }
            if let name = r.name { w.field("name", name) }
            if let device = r.device { w.field("device", device) }
            if let rate = r.rate { w.field("rate", rate) }
            if let message = r.message { w.field("message", message) }
        case .sample(let s):
            w.field("t", s.time)
            w.field("x", s.acceleration.x)
            w.field("y", s.acceleration.y)
            w.field("z", s.acceleration.z)
        case .calibrated(let auto):
            w.field("auto", auto)
        case .pose(let p):
            // A tenth of a degree is finer than any gauge draws and keeps the lines short.
            w.field("x", (p.x * 10).rounded() / 10)
            w.field("y", (p.y * 10).rounded() / 10)
            w.field("armed", p.armed)
            w.field("trigger", p.trigger)
            w.field("release", p.release)
        case .settings(let s):
            w.field("trigger", s.trigger)
            w.field("release", s.release)
        case .screen(let rotation):
            w.field("rotation", rotation.degrees)
        case .reply(let id, let command, let moved):
            if let id { w.field("id", raw: id) }
            w.field("cmd", command)
            w.field("ok", true)
            if let moved { w.field("moved", moved) }
        case .hint(let id, let hint):
            if let id { w.field("id", raw: id) }
            w.field("cmd", "hint")
            w.field("ok", true)
            w.field("solution", hint.solution.map(\.rawValue))
            w.field("optimal", hint.optimal)
            w.field("revision", hint.revision)
        case .error(let id, let code, let message):
            if let id { w.field("id", raw: id) }
            w.field("code", code.rawValue)
            w.field("message", message)
        }
        return w.line()
    }
}
