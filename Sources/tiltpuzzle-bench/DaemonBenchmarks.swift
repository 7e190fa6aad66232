// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Glibc
import Synchronization
import TiltClient
import TiltCore
import TiltSystem
import TiltWire

struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The built daemon, measured from outside as a client sees it.
enum DaemonBenchmarks {
    final class Daemon {
        let process: ChildProcess
        let directory: String
        var socket: String { directory + "/d.sock" }

        init(arguments: [String], config: String, environment: [String: String] = [:], name: String = "d",
             logLevel: String = "warning", logFile: String? = nil) throws {
            directory = "/tmp/tiltpuzzle-bench-\(getpid())-\(name)"
            try? FileManager.default.removeItem(atPath: directory)
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try config.write(toFile: directory + "/d.conf", atomically: true, encoding: .utf8)
            let socket = directory + "/d.sock"
            if let logFile { _ = FileManager.default.createFile(atPath: logFile, contents: nil) }
            let daemon = Self.sibling("tiltpuzzled").path
            guard FileManager.default.isExecutableFile(atPath: daemon) else {
                throw BenchmarkFailure("\(daemon) is not built: run 'swift build -c release' first")
            }
            process = try ChildProcess([daemon, "--socket", socket,
                                        "--state-dir", directory + "/state", "--config", directory + "/d.conf",
                                        "--log-level", logLevel] + arguments,
                                       environment: environment, standardError: logFile.map { .file($0) } ?? .discard)
        }

        static func sibling(_ name: String) -> URL {
            URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
                .appendingPathComponent(name)
        }

        private func status(_ key: String) -> Double {
            let status = (try? String(contentsOfFile: "/proc/\(process.pid)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix(key + ":") } ?? ""
            return Double(line.split(separator: " ").dropFirst().first.map { $0.trimmingCharacters(in: .whitespaces) } ?? "")
                ?? Double(line.split(separator: "\t").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "") ?? .nan
        }

        var rssMebibytes: Double { status("VmRSS") / 1024 }
        var contextSwitches: Double { status("voluntary_ctxt_switches") + status("nonvoluntary_ctxt_switches") }

        /// Nanoseconds the daemon has run on a CPU (all threads).
        var cpuNanoseconds: Double {
            let text = (try? String(contentsOfFile: "/proc/\(process.pid)/schedstat", encoding: .utf8)) ?? ""
            return Double(text.split(separator: " ").first ?? "") ?? .nan
        }

        func connect() -> DaemonConnection {
            guard let connection = DaemonConnection.waiting(for: socket, while: { process.isRunning }) else {
                fatalError("the daemon did not start")
            }
            return connection
        }

        func stop() {
            process.signal(SIGTERM)
            process.wait()
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

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
            while try player.next(timeout: 0) != nil {}
        }
        return latencies.sorted()
    }

    static func addLatency(_ report: Report, _ name: String, _ sorted: [Double]) {
        report.add("\(name).median", quantile(sorted, 0.5) * 1e3, "ms")
        report.add("\(name).p99", quantile(sorted, 0.99) * 1e3, "ms")
        report.add("\(name).max", (sorted.last ?? .nan) * 1e3, "ms")
        report.add("\(name).count", Double(sorted.count), "moves")
    }

    /// Command round trips and memory with 1, 200 and 1,000 clients attached.
    static func clients(_ report: Report) throws {
        let daemon = try Daemon(arguments: ["--source", "none"], config: "[clients]\nmax-clients = 2000\n")
        defer { daemon.stop() }
        let player = daemon.connect()
        _ = try player.request(.new(size: 4, seed: nil, shuffle: false))
        usleep(300_000)
        report.add("daemon.rss_idle_one_client", daemon.rssMebibytes, "MiB")
        let observer = daemon.connect()
        addLatency(report, "command_to_move.1_client", try commandLatency(player: player, observer: observer, count: 1000))
        var others: [DaemonConnection] = []
        for _ in 0..<198 { others.append(daemon.connect()) }
        usleep(200_000)
        report.add("daemon.rss_200_clients", daemon.rssMebibytes, "MiB")
        addLatency(report, "command_to_move.200_clients", try commandLatency(player: player, observer: observer, count: 1000))
        for connection in others { while (try? connection.next(timeout: 0)) != nil {} }
        for _ in 0..<800 { others.append(daemon.connect()) }
        usleep(200_000)
        report.add("daemon.rss_1000_clients", daemon.rssMebibytes, "MiB")
        addLatency(report, "command_to_move.1000_clients", try commandLatency(player: player, observer: observer, count: 1000))
    }

    /// No client, no sensor: what the daemon costs doing nothing.
    static func idle(_ report: Report, seconds: Double) throws {
        let daemon = try Daemon(arguments: ["--source", "none"], config: "", name: "idle")
        defer { daemon.stop() }
        _ = daemon.connect()   // started; the client leaves at once
        usleep(500_000)
        let (cpu0, switches0) = (daemon.cpuNanoseconds, daemon.contextSwitches)
        usleep(UInt32(seconds * 1e6))
        report.add("idle.cpu_over_\(Int(seconds))s", (daemon.cpuNanoseconds - cpu0) / 1e6, "ms")
        report.add("idle.context_switches_over_\(Int(seconds))s", daemon.contextSwitches - switches0, "switches")
        report.add("idle.rss", daemon.rssMebibytes, "MiB")
    }

    /// A 100 Hz sensor (a replayed trace) with one client attached.
    static func sensorLoad(_ report: Report, seconds: Double) throws {
        let trace = "/tmp/tiltpuzzle-bench-\(getpid())-100hz.csv"
        let samples = CoreBenchmarks.syntheticSamples(count: Int((seconds + 3) * 100))
        try (TraceFormat.preamble() + samples.map(TraceFormat.line(for:)).joined()).write(toFile: trace, atomically: true, encoding: .utf8)
        defer { unlink(trace) }
        let daemon = try Daemon(arguments: ["--source", "replay:\(trace)"], config: "", name: "load")
        defer { daemon.stop() }
        let client = daemon.connect()
        var events = 0
        let start = MonotonicClock.now()
        while MonotonicClock.now() - start < 1 { if try client.next(timeout: 0.1) != nil { events += 1 } }
        let (cpu0, switches0) = (daemon.cpuNanoseconds, daemon.contextSwitches)
        let measured = MonotonicClock.now()
        while MonotonicClock.now() - measured < seconds { if try client.next(timeout: 0.1) != nil { events += 1 } }
        let elapsed = MonotonicClock.now() - measured
        report.add("sensor_100hz_one_client.cpu_share", (daemon.cpuNanoseconds - cpu0) / (elapsed * 1e9) * 100, "% of a core")
        report.add("sensor_100hz_one_client.wakeups_per_second", (daemon.contextSwitches - switches0) / elapsed, "switches/s")
        report.add("sensor_100hz_one_client.events_seen", Double(events), "messages")
    }

    /// From spawning the daemon to READY=1 and to a socket that accepts.
    static func startUp(_ report: Report, runs: Int) throws {
        var ready: [Double] = []
        var connectable: [Double] = []
        for run in 0..<runs {
            let notifyPath = "/tmp/tiltpuzzle-bench-\(getpid())-notify-\(run)"
            let fd = try UnixSocket.bindDatagram(path: notifyPath).rawValue
            defer { close(fd); unlink(notifyPath) }
            let start = MonotonicClock.now()
            let daemon = try Daemon(arguments: ["--source", "none"], config: "", environment: ["NOTIFY_SOCKET": notifyPath],
                                    name: "start\(run)")
            var connectedAt: Double?
            var readyAt: Double?
            while readyAt == nil || connectedAt == nil {
                if connectedAt == nil, let c = try? UnixSocket.connect(path: daemon.socket) {
                    connectedAt = MonotonicClock.now()
                    try? c.close()
                }
                var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if readyAt == nil, poll(&pfd, 1, 0) > 0 {
                    var buffer = [UInt8](repeating: 0, count: 256)
                    let n = recv(fd, &buffer, buffer.count, 0)
                    if String(decoding: buffer[..<max(0, n)], as: UTF8.self) == "READY=1" { readyAt = MonotonicClock.now() }
                }
                if MonotonicClock.now() - start > 10 { fatalError("no READY=1 within 10 s") }
                usleep(200)
            }
            ready.append(readyAt! - start)
            connectable.append(connectedAt! - start)
            daemon.stop()
        }
        report.add("startup.to_ready.median", quantile(ready.sorted(), 0.5) * 1e3, "ms")
        report.add("startup.to_connectable.median", quantile(connectable.sorted(), 0.5) * 1e3, "ms")
    }

    /// 100,000 moves through the socket with the undo history at its bound.
    static func memoryAfterMoves(_ report: Report, moves: Int) throws {
        let daemon = try Daemon(arguments: ["--source", "none"], config: "[game]\nundo-levels = 1000\n", name: "moves")
        defer { daemon.stop() }
        let player = daemon.connect()
        _ = try player.request(.new(size: 4, seed: nil, shuffle: false))
        var sent = 0
        while sent < moves {
            let batch = min(500, moves - sent)
            var lines: [UInt8] = []
            for i in 0..<batch {
                lines += ClientRequest(command: .tilt((sent + i) % 2 == 0 ? .right : .left)).encoded()
            }
            try player.descriptor.writeAll(lines)
            var replies = 0
            while replies < batch {
                guard let message = try player.next(timeout: 10) else { fatalError("replies stopped") }
                if case .reply = message { replies += 1 }
            }
            sent += batch
        }
        let state = try player.request(.state)
        guard case .state(let s)? = state.first(where: { if case .state = $0 { true } else { false } }), s.moves == moves else {
            fatalError("the daemon did not count \(moves) moves")
        }
        report.add("daemon.rss_after_\(moves)_moves", daemon.rssMebibytes, "MiB")
    }

    /// From a sample's scheduled time in a 100 Hz replay to the `move` at the client.
    ///
    /// The client subscribes to samples: the sample that arrived soonest after its
    /// schedule fixes the replay's clock (so the figures are, if anything, high), and
    /// each move is timed against the sample that fired it (the last sample received
    /// before the move). `speed` > 1 shortens the run; the daemon's path per sample
    /// is the same. The other clients receive every move but do not read during the run.
    static func sampleToMove(_ report: Report, clients: Int, moves: Int, speed: Double, name: String? = nil) throws {
        let trace = "/tmp/tiltpuzzle-bench-\(getpid())-moves.csv"
        // A tilt every 0.3 s alternating right/left: every one is a legal move.
        var samples: [Sample] = []
        var random = SeededRandom(seed: 3)
        for i in 0..<(moves * 30 + 100) {
            let phase = i % 30
            let angle = phase < 10 ? 0 : phase < 15 ? Double(phase - 9) * 6 : phase < 20 ? 30 - Double(phase - 15) * 6 : 0
            let sign: Double = (i / 30) % 2 == 0 ? -1 : 1
            let s = sin(angle * .pi / 180)
            let noise = (Double(random.below(1001)) - 500) / 500 * 0.03
            samples.append(Sample(time: Double(i) / 100, x: sign * s * standardGravity + noise, y: noise,
                                  z: (1 - s * s).squareRoot() * standardGravity))
        }
        try (TraceFormat.preamble() + samples.map(TraceFormat.line(for:)).joined()).write(toFile: trace, atomically: true, encoding: .utf8)
        defer { unlink(trace) }
        let daemon = try Daemon(arguments: ["--source", "replay:\(trace)", "--replay-speed", "\(speed)"],
                                config: "[clients]\nmax-clients = 2000\n", name: "s2m")
        defer { daemon.stop() }
        // The bystanders attach first (the replay starts with the first client).
        var bystanders: [DaemonConnection] = []
        let observer = daemon.connect()
        _ = try observer.request(.new(size: 4, seed: nil, shuffle: false))
        _ = try observer.request(.subscribe(samples: true))
        for _ in 1..<clients { bystanders.append(daemon.connect()) }
        // Arrival times of samples and moves; the replay's clock is fixed afterwards by
        // the sample that arrived earliest relative to its schedule.
        var sampleArrivals: [(wall: Double, trace: Double)] = []
        var moveArrivals: [(wall: Double, trigger: Double)] = []
        let deadline = MonotonicClock.now() + Double(samples.count) / 100 / speed + 10
        while moveArrivals.count < moves, MonotonicClock.now() < deadline {
            guard let message = try observer.next(timeout: 1) else { continue }
            let now = MonotonicClock.now()
            switch message {
            case .sample(let sample): sampleArrivals.append((now, sample.time))
            case .move: if let last = sampleArrivals.last { moveArrivals.append((now, last.trace)) }
            default: break
            }
        }
        let offset = sampleArrivals.map { $0.wall - $0.trace / speed }.min() ?? 0
        let latencies = moveArrivals.map { $0.wall - (offset + $0.trigger / speed) }
        addLatency(report, name ?? "sample_to_move.\(clients)_clients", latencies.sorted())
    }

    /// One client writes `requests` tilts as fast as it can while another thread
    /// reads the replies (docs/protocol.md, "Flow control"): requests answered per
    /// second, and the saves behind them. Each save writes the game file and syncs
    /// it and its folder (two fsyncs); the daemon logs each at debug level, and the
    /// log is counted here.
    static func pipelined(_ report: Report, requests: Int, watchers: Int) throws {
        let log = "/tmp/tiltpuzzle-bench-\(getpid())-pipelined.log"
        defer { unlink(log) }
        let daemon = try Daemon(arguments: ["--source", "none"], config: "", name: "pipe\(watchers)",
                                logLevel: "debug", logFile: log)
        defer { daemon.stop() }
        let player = daemon.connect()
        _ = try player.request(.new(size: 4, seed: nil, shuffle: false))
        let drained = Mutex(false)
        var others: [DaemonConnection] = []
        for _ in 0..<watchers { others.append(daemon.connect()) }
        let otherFDs = others.map(\.descriptor.rawValue)
        // The watchers read everything, on a thread of their own, until told to stop.
        let watching = try JoinableThread {
            var buffer = [UInt8](repeating: 0, count: 256 * 1024)
            while !drained.withLock({ $0 }) {
                var fds = otherFDs.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
                guard poll(&fds, nfds_t(fds.count), 100) > 0 else { continue }
                for entry in fds where entry.revents != 0 { _ = recv(entry.fd, &buffer, buffer.count, Int32(MSG_DONTWAIT)) }
            }
        }
        var stream: [UInt8] = []
        for n in 0..<requests { stream += ClientRequest(command: .tilt(n % 2 == 0 ? .right : .left)).encoded() }
        let payload = stream
        let fd = player.descriptor.rawValue
        let savesBefore = savedLines(log)
        let rss0 = daemon.rssMebibytes
        let start = MonotonicClock.now()
        let writer = try JoinableThread {
            var offset = 0
            while offset < payload.count {
                let n = payload[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if n <= 0 { return }
                offset += n
            }
        }
        let prefix = Array(#"{"type":"reply""#.utf8)
        var replies = 0
        var errors = 0
        var partial: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        while replies + errors < requests {
            let n = recv(fd, &buffer, buffer.count, 0)
            guard n > 0 else { fatalError("the daemon closed the pipelining client after \(replies) replies") }
            var start = 0
            while let newline = buffer[start..<n].firstIndex(of: 10) {
                let line = partial.isEmpty ? Array(buffer[start..<newline]) : partial + buffer[start..<newline]
                partial.removeAll(keepingCapacity: true)
                if line.starts(with: prefix) { replies += 1 } else if line.starts(with: Array(#"{"type":"error""#.utf8)) { errors += 1 }
                start = newline + 1
            }
            partial += buffer[start..<n]
        }
        let elapsed = MonotonicClock.now() - start
        let rss1 = daemon.rssMebibytes
        writer.join()
        drained.withLock { $0 = true }
        watching.join()
        if errors > 0 { fatalError("\(errors) requests were answered with an error") }
        usleep(100_000)   // the log line of the last save
        let saves = Double(savedLines(log) - savesBefore)
        let name = "pipelined_tilts.\(watchers)_watchers"
        report.add("\(name).requests_per_second", Double(requests) / elapsed, "req/s")
        report.add("\(name).saves_per_second", saves / elapsed, "saves/s")
        report.add("\(name).fsyncs_per_second", 2 * saves / elapsed, "fsync/s")
        report.add("\(name).requests_per_save", Double(requests) / saves, "req")
        report.add("\(name).rss_growth", rss1 - rss0, "MiB")
    }

    static func savedLines(_ path: String) -> Int {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { $0.contains("saved the game") }.count
    }

    static func run(_ report: Report, quick: Bool) throws {
        try startUp(report, runs: quick ? 5 : 20)
        try idle(report, seconds: quick ? 3 : 10)
        try sensorLoad(report, seconds: quick ? 3 : 10)
        try clients(report)
        try memoryAfterMoves(report, moves: 100_000)
        try pipelined(report, requests: 100_000, watchers: 0)
        try pipelined(report, requests: 100_000, watchers: 50)
        for count in [1, 100, 1000] {
            try sampleToMove(report, clients: count, moves: 1000, speed: quick ? 10 : 4)
        }
        try HintBenchmarks.run(report, quick: quick)
    }
}
