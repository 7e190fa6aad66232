import TiltCommandLine
import TiltDemo

/// `tiltpuzzle demo`: the whole chain at work with no sensor and no set-up.
enum DemoCommand: ClientCommand {
    static let spec = CommandSpec(
        "demo", summary: "Watch a tablet solve a shuffled 3×3 puzzle: no sensor or daemon needed.",
        options: [OptionSpec("--speed", value: "FACTOR", help: "Replay speed (default 1: as a hand would, about 19 s)."),
                  OptionSpec("--quiet", help: "Print only the summary.")],
        discussion: """
        The demo starts a daemon inside this program on a private socket, replays the
        accelerometer trace of a tablet being tilted, and shows the board as any client
        sees it: each tilt the detector fires, each tile that moves, and the solved board.
        It exits 0 when the game ends solved.
        """)

    static func run(_ arguments: ParsedArguments) -> Int32 {
        var settings = Demo.Settings()
        do throws(UsageError) {
            settings.speed = try arguments.value("--speed", as: "a positive number") {
                Double($0).flatMap { $0 > 0 && $0 <= 1000 ? $0 : nil }
            } ?? 1
        } catch {
            return StandardError.report(error, program: "tiltpuzzle", help: "tiltpuzzle demo")
        }
        settings.quiet = arguments.flag("--quiet")
        return Demo.run(settings)
    }
}
