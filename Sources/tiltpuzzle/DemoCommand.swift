// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCommandLine
import TiltCore
import TiltDemo
import TiltSystem

/// `tiltpuzzle demo`: the whole chain at work with no sensor and no set-up.
enum DemoCommand: ClientCommand {
    static let size = OptionSpec("--size", value: "N", help: L("The board's side, 2 to 10 (default 3)."))
    static let seed = OptionSpec("--seed", value: "S", help: L("Shuffle and hand seed, to repeat a run (default: a new one)."))
    static let speed = OptionSpec("--speed", value: "FACTOR", help: L("Replay speed (default 1: as fast as a hand)."))
    static let quiet = OptionSpec("--quiet", help: L("Print only the summary."))

    static let spec = CommandSpec(
        "demo", summary: L("Watch a tablet solve a shuffled puzzle: no sensor or daemon needed."),
        options: [size, seed, speed, quiet],
        discussion: L("The demo shuffles a game, asks the solver for its shortest solution (near-shortest from 5×5 up), and has a simulated hand play it: the tablet held a few degrees off flat, each tilt ramped in at human speed, held and returned, with sensor noise and a slowly drifting pose. Those samples go to a daemon started inside this program on a private socket, through the same replay source, tilt detector, puzzle and protocol a real tablet goes through, and the board is shown as any client sees it. It exits 0 when the game ends solved."))

    static func run(_ arguments: ParsedArguments) -> Int32 {
        var settings = Demo.Settings()
        do throws(UsageError) {
            settings.size = try arguments.value(size, as: L("a side from 2 to 10")) {
                Int($0).flatMap { Board.sides.contains($0) ? $0 : nil }
            } ?? 3
            settings.seed = try arguments.value(seed, as: L("a whole number")) { UInt64($0) }
            settings.speed = try arguments.value(speed, as: L("a positive number")) {
                Double($0).flatMap { $0 > 0 && $0 <= 1000 ? $0 : nil }
            } ?? 1
        } catch {
            return StandardError.report(error, program: "tiltpuzzle", help: "tiltpuzzle demo")
        }
        settings.quiet = arguments.flag(quiet)
        return Demo.run(settings)
    }
}
