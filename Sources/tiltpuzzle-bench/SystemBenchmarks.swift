// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Glibc
import TiltSystem

/// The system wrappers' own timings, which the tests leave to here.
enum SystemBenchmarks {
    /// How long `ChildProcess.wait(timeout:)` takes for a child that outlives it: at
    /// least the timeout, and by how much more.
    static func waitTimeout(_ report: Report, runs: Int) throws {
        let timeout = 0.2
        var overshoots: [Double] = []
        for _ in 0..<runs {
            let sleeper = try ChildProcess(["sleep", "30"])
            var answer: Int32?
            let taken = try seconds { answer = try sleeper.wait(timeout: timeout) }
            sleeper.signal(SIGKILL)
            _ = sleeper.wait()
            guard answer == nil else { throw BenchmarkFailure("a sleeping child exited during a timed wait") }
            overshoots.append(taken - timeout)
        }
        overshoots.sort()
        report.add("wait(timeout: 0.2) shortest overshoot", overshoots[0] * 1000, "ms")
        report.add("wait(timeout: 0.2) median overshoot", quantile(overshoots, 0.5) * 1000, "ms")
    }

    static func run(_ report: Report, quick: Bool) throws {
        try waitTimeout(report, runs: quick ? 3 : 20)
    }
}
