import TiltCommandLine
import TiltCore
import TiltDevices

/// `tiltpuzzle demo`: the bundled trace (a tablet solving a shuffled 3×3 game)
/// played through the tilt detector and the puzzle.
enum DemoCommand {
    static let spec = CommandSpec(
        "demo", summary: "Play the bundled demo trace: a tablet solving a shuffled 3×3 puzzle.",
        options: [OptionSpec("--quiet", help: "Print only the summary.")])

    static func run(_ arguments: ParsedArguments) -> Int32 {
        let quiet = arguments.flag("--quiet")
        var puzzle = Puzzle.newGame(side: DemoTrace.size, seed: DemoTrace.seed)
        var detector = TiltDetector()
        var reader = TraceReader(text: DemoTrace.csv)
        var samples = 0
        var tilts = 0
        if !quiet {
            print("Demo: \(DemoTrace.size)×\(DemoTrace.size) puzzle shuffled with seed \(DemoTrace.seed)")
            BoardText.lines(puzzle.board).forEach { print($0) }
        }
        while true {
            let sample: Sample
            do throws(TraceReader.Failure) {
                guard let next = try reader.next() else { break }
                sample = next
            } catch {
                printError("demo trace: \(error)")
                return 1
            }
            samples += 1
            guard let direction = detector.process(sample) else { continue }
            tilts += 1
            let moves = puzzle.tilt(direction)
            if quiet { continue }
            let what = moves.isEmpty ? "no tile can move" : moves.map { "tile \($0.from)→\($0.to)" }.joined(separator: ", ")
            print("t=\(sample.time)s tilt \(direction): \(what); moves \(puzzle.moves)")
        }
        if !quiet { BoardText.lines(puzzle.board).forEach { print($0) } }
        let seconds = Double(Int((reader.lastTime * 10).rounded())) / 10
        print("\(samples) samples over \(seconds) s, \(tilts) tilts, \(puzzle.moves) moves: "
              + (puzzle.isSolved ? "solved" : "not solved"))
        return puzzle.isSolved ? 0 : 1
    }
}
