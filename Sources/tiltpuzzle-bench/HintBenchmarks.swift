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

    /// Asks for a hint and returns it.
    static func hint(_ client: DaemonConnection) throws -> Hint {
        let messages = try client.request(.hint, timeout: 30)
        guard case .hint(_, let hint)? = messages.last else { throw BenchmarkFailure("no hint: \(messages.last.map(String.init(describing:)) ?? "nothing")") }
        return hint
    }
}
