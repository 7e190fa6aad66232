// SPDX-License-Identifier: GPL-3.0-or-later
import Synchronization
import TiltClient
import TiltCommandLine
import TiltCore
import TiltDaemon
import TiltSystem
import TiltTerminal
import TiltWire
#if canImport(Glibc)
import Glibc
#endif

/// `tiltpuzzle demo`: a daemon inside this program replays a tablet solving a game,
/// through the same replay source, tilt detector, hub and socket as a real one, and
/// the board is shown live as a client sees it.
public enum Demo {
    public struct Settings: Sendable {
        public var size = 3
        /// Nil: a new game each run (the seed is shown, so a run can be repeated).
        public var seed: UInt64?
        public var speed: Double = 1
        public var quiet = false
        public init() {}
    }

    /// Runs the demo; the exit status (0 only when the game ends solved).
    public static func run(_ settings: Settings) -> Int32 {
        Interrupt.install()
        let outcome: Outcome
        do throws(Failure) {
            outcome = try play(settings)
        } catch {
            StandardError.print("tiltpuzzle demo: " + error.message)
            return error.status
        }
        if Interrupt.happened { return 128 + SIGINT }
        let tilts = GameText.tiltsText(outcome.tilts), moves = GameText.movesText(outcome.state.moves)
        let end = outcome.state.solved ? L("solved") : L("not solved")
        try? StandardOutput.print(outcome.solvedTime.map { L("demo: {0}, {1}, {2} of play: {3}", tilts, moves, PlayTime.text($0), end) }
                                  ?? L("demo: {0}, {1}: {2}", tilts, moves, end))
        if !outcome.state.solved, !outcome.log.isEmpty { StandardError.print(outcome.log) }
        // Not solved is the demo failing at what it is for (docs/client.md).
        return outcome.state.solved ? ExitStatus.ok : ExitStatus.software
    }

    /// What a demo run showed.
    struct Outcome {
        var state: GameState
        var tilts: Int
        var solvedTime: Double?
        /// The embedded daemon's warnings and errors.
        var log: String
        /// The temporary folder it ran in (removed by now).
        var folder: String
        /// Tilts in the solution the hand played.
        var planned: Int
    }

    /// Plays the demo in a temporary folder, removed afterwards whatever happens.
    static func play(_ settings: Settings) throws(Failure) -> Outcome {
        let folder: TemporaryDirectory
        do throws(Errno) {
            folder = try TemporaryDirectory(prefix: "tiltpuzzle-demo")
        } catch {
            throw Failure(message: L("cannot make a temporary folder: {0}", error), status: ExitStatus.systemError)
        }
        defer { folder.remove() }
        let script = DemoScript.make(size: settings.size, seed: settings.seed ?? UInt64.random(in: 1 ... 999_999))
        let log = LogCollector()
        let daemon = try start(script, in: folder.path, speed: settings.speed, log: log)
        defer { daemon.stop() }
        let connection: DaemonConnection
        do throws(DaemonConnection.Failure) {
            connection = try DaemonConnection(candidates: [daemon.socketPath])
        } catch {
            throw Failure(message: L("the demo's daemon does not answer: {0}", error) + "\n\(log.text)")
        }
        let view = settings.quiet ? nil : LiveBoard(title: L("demo: {0}", script.title))
        defer { view?.finish() }
        let seen = watch(connection, view: view, timeout: script.duration / settings.speed + 10)
        guard let state = seen.state else { throw Failure(message: L("no game state received") + "\n\(log.text)") }
        return Outcome(state: state, tilts: seen.tilts, solvedTime: seen.solvedTime, log: log.text, folder: folder.path,
                       planned: script.solution.directions.count)
    }

    struct Failure: Error {
        var message: String
        var status = ExitStatus.software
    }

    /// Saves the script's game where the daemon will find it, writes its trace, and
    /// starts the daemon replaying it (a replay starts when the first client attaches).
    static func start(_ script: DemoScript, in folder: String, speed: Double,
                      log: LogCollector) throws(Failure) -> EmbeddedDaemon {
        let tracePath = folder + "/demo.csv"
        let store = StateStore(directory: folder + "/state")
        do throws(Errno) {
            let fd = try FileDescriptor.open(tracePath, [.writeOnly, .create, .truncate], permissions: 0o600)
            defer { try? fd.close() }
            try fd.writeAll(script.trace)
            try store.prepare()
            try store.save(SavedGame(game: Game(puzzle: script.puzzle, detector: TiltDetector()), at: 0))
        } catch {
            throw Failure(message: L("cannot prepare the demo in {0}: {1}", folder, error))
        }
        let options = DaemonOptions(socketPath: folder + "/tiltpuzzled.sock", stateDirectory: store.directory,
                                    source: "replay:" + tracePath, replaySpeed: .factor(speed))
        do throws(Daemon.StartError) {
            return try EmbeddedDaemon(options: options, log: Logger(level: .warning) { log.append($0) })
        } catch {
            throw Failure(message: L("cannot start the demo's daemon: {0}", error) + "\n\(log.text)")
        }
    }

    struct Seen {
        var state: GameState?
        var tilts = 0
        var solvedTime: Double?
    }

    /// Follows the daemon's events until the replay ends (or `timeout` passes).
    static func watch(_ connection: DaemonConnection, view: LiveBoard?, timeout: Double) -> Seen {
        var mirror = BoardMirror()
        var outcome = Seen()
        let deadline = MonotonicClock.now() + timeout
        reading: while MonotonicClock.now() < deadline, !Interrupt.happened {
            let message: ServerMessage?
            do throws(DaemonConnection.Failure) {
                // Short waits, so Ctrl-C is noticed even while nothing happens.
                message = try connection.next(timeout: min(0.25, max(0, deadline - MonotonicClock.now())))
            } catch {
                if !Interrupt.happened { StandardError.print("tiltpuzzle demo: \(error)") }
                break reading
            }
            guard let message else { continue }
            let applied = mirror.apply(message) == .updated
            switch message {
            case .tilt(let direction, let moved):
                outcome.tilts += 1
                let way = GameText.directionText(direction)
                view?.event(moved ? L("tilt {0}", way) : L("tilt {0} (nothing can move)", way))
            case .move(_, let move, _, let moves, _, _, _):
                // Only a move the mirror applied tells which tile it was.
                let tile = applied ? mirror.state.flatMap { BoardNotation.label(ofValue: $0.board[move.to], side: $0.size) } : nil
                // TRANSLATORS: the demo's line for a move: the tile, its way, the moves so far ("tile 7 left, 12 moves").
                view?.event(L("{0} {1}, {2}", tile.map { L("tile {0}", $0) } ?? L("a tile"), GameText.directionText(move.direction), GameText.movesText(moves)))
            case .solved(_, _, let time, _):
                outcome.solvedTime = time
            case .sensor(let report) where report.status == .ended:
                break reading
            default:
                break
            }
            if let state = mirror.state { view?.show(state) }
        }
        outcome.state = mirror.state
        return outcome
    }
}

/// The embedded daemon's log, kept to show when something went wrong.
final class LogCollector: Sendable {
    private let lines = Locked<[String]>([])

    func append(_ line: String) { lines.withLock { $0.append(line) } }

    var text: String { lines.withLock { $0.joined() } }
}

/// Ctrl-C (or SIGTERM) during the demo: the cursor comes back at once, and the demo
/// stops its daemon and removes its folder on the way out.
enum Interrupt {
    private static let flag = Atomic<Bool>(false)

    static var happened: Bool { flag.load(ordering: .relaxed) }

    static func install() {
        _ = happened  // initialised here, not first in the handler
        let handler: @convention(c) (Int32) -> Void = { _ in
            Interrupt.flag.store(true, ordering: .relaxed)
            LiveBoard.restoreTerminalFromSignal()
        }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
    }
}
