// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TiltClient
import TiltSystem
import TiltWire

/// 4×4 hints from the built daemon, as a client waits for them (docs/performance.md,
/// "Hints through the daemon"): from writing `hint` to reading its reply, on the
/// solver benchmark's seeded boards; and a player's command round trips at another
/// daemon, first alone, then while this one computes hints all the time.
enum HintBenchmarks {
    static func run(_ report: Report, quick: Bool) throws {
        let daemon = try DaemonBenchmarks.Daemon(arguments: ["--source", "none"], config: "", name: "hints")
        defer { daemon.stop() }
        let client = daemon.connect()
        report.add("hints.daemon_rss_before_mib", daemon.rssMebibytes, "MiB")
        // The first 4×4 hint makes the tables: timed apart.
        _ = try client.request(.new(size: 4, seed: 1, shuffle: true))
        report.add("hints.4x4_first_ms", try seconds { _ = try hint(client) } * 1000, "ms")
        var times: [Double] = []
        for k in 0..<(quick ? 30 : 100) {
            _ = try client.request(.new(size: 4, seed: 0x50_1BE5 + UInt64(k), shuffle: true))
            var answer: Hint?
            times.append(try seconds { answer = try hint(client) })
            guard answer?.optimal == true else { throw BenchmarkFailure("a 4×4 hint was not optimal") }
        }
        times.sort()
        report.add("hints.4x4_median_ms", quantile(times, 0.5) * 1000, "ms")
        report.add("hints.4x4_p90_ms", quantile(times, 0.9) * 1000, "ms")
        report.add("hints.4x4_max_ms", times.last! * 1000, "ms")
        report.add("hints.daemon_rss_after_mib", daemon.rssMebibytes, "MiB")

        // The player's daemon; the other keeps every core it may use busy with hints.
        let played = try DaemonBenchmarks.Daemon(arguments: ["--source", "none"], config: "", name: "played")
        defer { played.stop() }
        let player = played.connect(), observer = played.connect()
        _ = try player.request(.new(size: 4, seed: nil, shuffle: false))
        let rounds = quick ? 300 : 1000
        DaemonBenchmarks.addLatency(report, "hints.command_to_move_no_hints",
                                    try DaemonBenchmarks.commandLatency(player: player, observer: observer, count: rounds))
        let asking = Locked(true)
        // Used by the load's thread alone until it has been joined.
        nonisolated(unsafe) let loadClient = client
        let load = try JoinableThread {
            var k: UInt64 = 0
            while asking.withLock({ $0 }) {
                _ = try? loadClient.request(.new(size: 4, seed: 0xAB_C000 + k, shuffle: true))
                _ = try? hint(loadClient)
                k += 1
            }
        }
        DaemonBenchmarks.addLatency(report, "hints.command_to_move_while_hinting",
                                    try DaemonBenchmarks.commandLatency(player: player, observer: observer, count: rounds))
        asking.withLock { $0 = false }
        load.join()
    }

    /// Hints on a quiet machine and on a busy one, side by side (docs/solver.md,
    /// "Two cores"): the busy one has two spinning shells per core at the default
    /// priority in the benchmark's session. For each, a new daemon's first 4×4 hint
    /// (the tables built, a board beyond the plain search) and first 5×5 hint, then the
    /// round trips of a player at another daemon and a 100 Hz sample's move there while
    /// the first asks hints all the time. Prints the busy figure over the quiet one.
    static func busy(_ report: Report, quick: Bool) throws {
        let cores = try CurrentThread.cores()
        var figures: [String: [String: Double]] = [:]
        for (load, spinning) in [("quiet", 0), ("busy", 2 * cores)] {
            let spinners = try Spinners(count: spinning)
            defer { spinners.stop() }
            var mine: [String: Double] = [:]
            func add(_ name: String, _ value: Double, _ unit: String) {
                report.add("hints_\(load).\(name)", value, unit)
                mine[name] = value
            }
            for side in [4, 5] {
                let daemon = try DaemonBenchmarks.Daemon(arguments: ["--source", "none"], config: "", name: "first\(side)\(load)")
                let client = daemon.connect()
                _ = try client.request(.new(size: side, seed: 1, shuffle: true))
                var answer: Hint?
                // A hint that starves is counted as the wait given up.
                let time = seconds { answer = try? hint(client, timeout: 30) }
                add("first_\(side)x\(side)_ms", time * 1000, answer == nil ? "ms (no answer)" : "ms")
                if side == 4 { add("first_4x4_optimal", answer?.optimal == true ? 1 : 0, "") }
                // A daemon ends once its hint under way is done: one whose hint starves is killed.
                if answer == nil { daemon.process.signal(SIGKILL) }
                daemon.stop()
            }
            // A player at another daemon while this one computes hints all the time.
            let hinting = try DaemonBenchmarks.Daemon(arguments: ["--source", "none"], config: "", name: "hinting\(load)")
            defer { hinting.stop() }
            let asker = hinting.connect()
            _ = try asker.request(.new(size: 4, seed: 1, shuffle: true))
            _ = try? hint(asker, timeout: 30)
            let asking = Locked(true)
            let answered = Locked(0)
            nonisolated(unsafe) let loadClient = asker
            let hints = try JoinableThread {
                var k: UInt64 = 0
                while asking.withLock({ $0 }) {
                    _ = try? loadClient.request(.new(size: 4, seed: 0xAB_C000 + k, shuffle: true))
                    if (try? hint(loadClient, timeout: 30)) != nil { answered.withLock { $0 += 1 } }
                    k += 1
                }
            }
            defer {
                asking.withLock { $0 = false }
                hints.join()
            }
            let played = try DaemonBenchmarks.Daemon(arguments: ["--source", "none"], config: "", name: "played\(load)")
            defer { played.stop() }
            // First at the end, before the daemons are stopped: a hint under way ends faster.
            defer { spinners.stop() }
            let player = played.connect(), observer = played.connect()
            _ = try player.request(.new(size: 4, seed: nil, shuffle: false))
            let start = MonotonicClock.now()
            let trips = try DaemonBenchmarks.commandLatency(player: player, observer: observer, count: quick ? 300 : 1000)
            add("tilt_to_move_p99_ms", quantile(trips, 0.99) * 1000, "ms")
            add("tilt_to_move_median_ms", quantile(trips, 0.5) * 1000, "ms")
            let s2m = Report()
            try DaemonBenchmarks.sampleToMove(s2m, clients: 1, moves: quick ? 100 : 300, speed: 4, name: "s2m")
            for figure in s2m.figures where figure.name.hasSuffix("p99") || figure.name.hasSuffix("median") {
                add("sample_to_move_\(figure.name.split(separator: ".").last!)_ms", figure.value, "ms")
            }
            add("hints_per_second", Double(answered.withLock { $0 }) / (MonotonicClock.now() - start), "hints/s")
            figures[load] = mine
        }
        for (name, quiet) in figures["quiet", default: [:]].sorted(by: { $0.key < $1.key }) {
            guard let busy = figures["busy"]?[name], quiet > 0 else { continue }
            report.add("busy/quiet.\(name)", busy / quiet, "×")
        }
    }

    /// Asks for a hint and returns it.
    static func hint(_ client: DaemonConnection, timeout: Double = 30) throws -> Hint {
        let messages = try client.request(.hint, timeout: timeout)
        guard case .hint(_, let hint)? = messages.last else { throw BenchmarkFailure("no hint: \(messages.last.map(String.init(describing:)) ?? "nothing")") }
        return hint
    }
}
