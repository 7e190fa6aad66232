// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmarks (release build): `swift run -c release tiltpuzzle-bench [core|daemon|hints|pipelined|solver|system|all] [--quick]`;
// `solver --big`: only the big-board hints, 50 seeded boards per size.
// `solver --fifteen` builds the 4×4 tables and solves 100 seeded 4×4 boards only (30 with `--quick`).
// `hints`: 4×4 hints through the built daemon, and a player's commands while hints run (also in `daemon`);
// `hints --busy`: first hints and a player's latency on a quiet machine and with every core kept busy, side by side.
// `memory`: the daemon's resident memory by library, idle and while a client plays a fake IIO sensor (umockdev-run).
// `system`: how long a timed wait for a child that outlives it takes.
// Timing lives here, never in the tests. Prints a table and writes bench-results.json.
import Foundation
import TiltCommandLine

let arguments = Array(CommandLine.arguments.dropFirst())
let which = arguments.first ?? "all"
let report = Report()
print("machine: \(Report.machine)")
do {
    if which == "solver" || which == "all" {
        SolverBenchmarks.run(report, quick: arguments.contains("--quick"), bigOnly: arguments.contains("--big"),
                             fifteenOnly: arguments.contains("--fifteen"))
    }
    if which == "core" || which == "all" {
        try CoreBenchmarks.run(report, sampleCount: arguments.contains("--quick") ? 1_000_000 : 10_000_000)
    }
    if which == "system" || which == "all" {
        try SystemBenchmarks.run(report, quick: arguments.contains("--quick"))
    }
    if which == "daemon" || which == "all" {
        try DaemonBenchmarks.run(report, quick: arguments.contains("--quick"))
    }
    if which == "hints" {
        if arguments.contains("--busy") {
            try HintBenchmarks.busy(report, quick: arguments.contains("--quick"))
        } else {
            try HintBenchmarks.run(report, quick: arguments.contains("--quick"))
        }
    }
    if which == "memory" {
        try MemoryBenchmarks.run(report)
    }
    if which == "pipelined" {
        for watchers in [0, 50] { try DaemonBenchmarks.pipelined(report, requests: 100_000, watchers: watchers) }
    }
} catch {
    StandardError.print("tiltpuzzle-bench: \(error)")
    exit(1)
}
report.write(to: "bench-results.json")
