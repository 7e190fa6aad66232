import Foundation
import Glibc
import TiltClient
import TiltSystem
import TiltWire

/// The built daemon, measured from outside as a client sees it.
enum DaemonBenchmarks {
    final class Daemon {
        let process = Process()
        let directory: String
        var socket: String { directory + "/d.sock" }

        init(arguments: [String], config: String) throws {
            directory = "/tmp/tiltpuzzle-bench-\(getpid())"
            try? FileManager.default.removeItem(atPath: directory)
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try config.write(toFile: directory + "/d.conf", atomically: true, encoding: .utf8)
            let own = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            process.executableURL = own.appendingPathComponent("tiltpuzzled")
            process.arguments = ["--socket", socket, "--state-dir", directory + "/state", "--config", directory + "/d.conf",
                                 "--log-level", "warning"] + arguments
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        var rssKilobytes: Double {
            let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
            return Double(line.split(separator: " ").dropFirst().first ?? "") ?? .nan
        }

        func connect() -> DaemonConnection {
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                if let connection = try? DaemonConnection(candidates: [socket]) { return connection }
                usleep(5_000)
            }
            fatalError("the daemon did not start")
        }

        func stop() {
            process.terminate()
            process.waitUntilExit()
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// Reads from `connection` until a `move` arrives.
    static func awaitMove(_ connection: DaemonConnection) throws {
        while true {
            guard let message = try connection.next(timeout: 5) else { fatalError("no move within 5 s") }
            if case .move = message { return }
        }
    }

    /// A `tilt` command at one client to the `move` at another: `count` round trips.
    static func commandLatency(player: DaemonConnection, observer: DaemonConnection, count: Int) throws -> [Double] {
        var latencies: [Double] = []
        for i in 0..<count {
            let start = MonotonicClock.now()
            try player.send(.tilt(i % 2 == 0 ? .right : .left))
            try awaitMove(observer)
            latencies.append(MonotonicClock.now() - start)
            // Keep the player's own socket drained.
            while player.takeBuffered() != nil {}
            if let _ = try player.next(timeout: 0) {}
        }
        return latencies.sorted()
    }

    static func addLatency(_ report: Report, _ name: String, _ sorted: [Double]) {
        report.add("\(name).median", quantile(sorted, 0.5) * 1e3, "ms")
        report.add("\(name).p99", quantile(sorted, 0.99) * 1e3, "ms")
        report.add("\(name).max", (sorted.last ?? .nan) * 1e3, "ms")
    }

    static func run(_ report: Report) throws {
        let daemon = try Daemon(arguments: ["--source", "none"], config: "[clients]\nmax-clients = 2000\n")
        defer { daemon.stop() }
        let player = daemon.connect()
        _ = try player.request(.new(size: 4, seed: nil, shuffle: false))
        usleep(300_000)
        report.add("daemon.rss_idle_one_client", daemon.rssKilobytes / 1024, "MiB")
        let observer = daemon.connect()
        addLatency(report, "command_to_move.1_client_watching", try commandLatency(player: player, observer: observer, count: 1000))

        var others: [DaemonConnection] = []
        for _ in 0..<198 { others.append(daemon.connect()) }
        usleep(200_000)
        report.add("daemon.rss_200_clients", daemon.rssKilobytes / 1024, "MiB")
        let with200 = try commandLatency(player: player, observer: observer, count: 1000)
        addLatency(report, "command_to_move.200_clients", with200)
        for connection in others { while (try? connection.next(timeout: 0)) != nil {} }

        for _ in 0..<800 { others.append(daemon.connect()) }
        usleep(200_000)
        report.add("daemon.rss_1000_clients", daemon.rssKilobytes / 1024, "MiB")
        let with1000 = try commandLatency(player: player, observer: observer, count: 1000)
        addLatency(report, "command_to_move.1000_clients", with1000)
    }
}
