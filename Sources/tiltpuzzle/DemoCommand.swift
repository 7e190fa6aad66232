import TiltClient
import TiltCommandLine
import TiltCore
import TiltSystem
import TiltTerminal
import TiltWire
#if canImport(Glibc)
import Glibc
#endif

/// `tiltpuzzle demo`: a private daemon replays the bundled trace (a tablet solving
/// a shuffled 3×3 game) and the board is shown live as the trace tilts it.
enum DemoCommand: ClientCommand {
    static let spec = CommandSpec(
        "demo", summary: "Watch a private daemon replay the bundled trace: a tablet solving a shuffled 3×3 puzzle.",
        options: [OptionSpec("--speed", value: "FACTOR", help: "Replay speed (default 1: as recorded, about 19 s)."),
                  OptionSpec("--quiet", help: "Print only the summary.")],
        discussion: "The trace was recorded at 100 Hz from a tablet held a little off flat; see traces/demo.csv.")

    static func run(_ arguments: ParsedArguments) -> Int32 {
        let speed: Double
        switch checked({ () throws(UsageError) in
            try arguments.value("--speed", as: "a positive number") { Double($0).flatMap { $0 > 0 && $0 <= 1000 ? $0 : nil } } ?? 1
        }) {
        case .failure(let exit): return exit.status
        case .success(let value): speed = value
        }
        let quiet = arguments.flag("--quiet")
        let daemon: PrivateDaemon
        do throws(PrivateDaemon.Failure) {
            daemon = try PrivateDaemon(trace: DemoTrace.csv,
                                       game: .new(size: DemoTrace.size, seed: DemoTrace.seed, shuffle: true), speed: speed)
        } catch {
            printError("tiltpuzzle demo: \(error)")
            return ExitStatus.software
        }
        installInterruptHandler()
        guard let connection = daemon.connectWhenReady() else {
            printError("tiltpuzzle demo: the private daemon did not start:\n\(daemon.log)")
            return ExitStatus.software
        }
        let view = quiet ? nil : LiveBoard(title: "demo: a tablet solving a shuffled \(DemoTrace.size)×\(DemoTrace.size) puzzle")
        var mirror = BoardMirror()
        var tilts = 0
        var solvedTime: Double?
        let deadline = MonotonicClock.now() + 25 / speed + 10
        reading: while MonotonicClock.now() < deadline {
            let message: ServerMessage?
            do throws(DaemonConnection.Failure) {
                message = try connection.next(timeout: max(0, deadline - MonotonicClock.now()))
            } catch {
                printError("tiltpuzzle demo: \(error)")
                break reading
            }
            guard let message else { break }
            _ = mirror.apply(message)
            switch message {
            case .tilt(let direction, let moved):
                tilts += 1
                view?.event("tilt \(direction)" + (moved ? "" : " (nothing can move)"))
            case .move(_, let move, _, let moves, _, _, _):
                view?.event("tile \(move.from) → \(move.to), \(moves) moves")
            case .solved(_, _, let time, _):
                solvedTime = time
            case .sensor(let report) where report.status == .ended:
                break reading
            default:
                break
            }
            if let state = mirror.state { view?.show(state) }
        }
        view?.finish()
        daemon.stop()
        guard let state = mirror.state else {
            printError("tiltpuzzle demo: no game state received")
            return ExitStatus.software
        }
        let time = solvedTime.map { ", \(BoardText.duration($0)) of play" } ?? ""
        print("demo: \(tilts) tilts, \(state.moves) moves\(time): " + (state.solved ? "solved" : "not solved"))
        return state.solved ? ExitStatus.ok : ExitStatus.refused
    }

    /// Ctrl-C stops the private daemon and shows the cursor again.
    static func installInterruptHandler() {
        let handler: @convention(c) (Int32) -> Void = { signal in
            if PrivateDaemon.runningPID > 0 { kill(PrivateDaemon.runningPID, SIGTERM) }
            LiveBoard.restoreTerminalFromSignal()
            _exit(128 + signal)
        }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
    }
}
