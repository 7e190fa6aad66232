import TiltCore

/// What the demo plays: a game and the trace of a tablet solving it.
struct DemoScript {
    var title: String
    var puzzle: Puzzle
    /// Trace text (docs/traces.md).
    var trace: String
    /// Seconds the trace lasts at speed 1.
    var duration: Double

    /// The recorded 3×3 game that ships with the program.
    static var bundled: DemoScript {
        DemoScript(title: "a tablet solving a shuffled \(DemoTrace.size)×\(DemoTrace.size) puzzle",
                   puzzle: Puzzle.newGame(side: DemoTrace.size, seed: DemoTrace.seed),
                   trace: DemoTrace.csv, duration: 19)
    }
}
