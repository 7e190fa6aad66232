// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Glibc
import TiltClient
import TiltSystem
import TiltWire

/// The daemon's resident memory by what it belongs to (docs/performance.md, "Memory"):
/// idle with no sensor, and while a client plays an IIO accelerometer, a fake one of
/// umockdev's (`umockdev-run`, whose preload library is counted apart: a tablet has
/// none). From /proc/PID/smaps: Rss summed per mapped file, grouped.
enum MemoryBenchmarks {
    /// The groups, in the order they are printed; a mapping's group is the first whose
    /// test its path passes. Anonymous mappings are heap; `[stack]` the main thread's.
    static let groups: [(name: String, matches: @Sendable (String, String) -> Bool)] = [
        ("program", { path, program in path == program }),
        ("umockdev_preload", { path, _ in path.contains("libumockdev") }),
        ("libiio", { path, _ in path.contains("/libiio.") }),
        ("libiio_tree", { path, _ in
            ["libxml2", "libicu", "libavahi", "libdbus", "libsystemd", "libgcrypt", "libgpg-error", "libusb",
             "libzstd", "liblzma", "liblz4", "libz.so", "libcap"].contains { path.contains($0) }
        }),
        // Linked into the program by `make`; loaded by libiio's ICU.
        ("libstdcxx", { path, _ in path.contains("libstdc++") }),
        ("libc_libm_loader_libgcc", { path, _ in
            ["/libc.so", "/libm.so", "ld-linux", "libgcc_s", "libpthread", "libswift", "libdispatch", "libFoundation"]
                .contains { path.contains($0) }
        }),
        ("libudev_libevdev", { path, _ in path.contains("libudev") || path.contains("libevdev") }),
        ("stack", { path, _ in path == "[stack]" }),
        ("heap_and_anonymous", { path, _ in path.isEmpty || path == "[heap]" || path.hasPrefix("[anon") }),
        ("other", { _, _ in true }),
    ]

    /// Rss in KiB per mapped path (anonymous: "").
    static func rssByPath(pid: pid_t) -> [String: Int] {
        let text = (try? FileDescriptor.readText("/proc/\(pid)/smaps", limit: 16 << 20)) ?? ""
        var result: [String: Int] = [:]
        var path = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), first.first?.isHexDigit == true, fields.count >= 5 {
                path = fields.count >= 6 ? fields[5...].joined(separator: " ") : ""
            } else if fields.first == "Rss:", fields.count >= 2, let kib = Int(fields[1]) {
                result[path, default: 0] += kib
            }
        }
        return result
    }

    /// Adds the total and each group's Rss, and the libiio tree's libraries one by one.
    static func addShares(_ report: Report, _ name: String, pid: pid_t, program: String) {
        let byPath = rssByPath(pid: pid)
        var totals: [String: Int] = [:]
        var tree: [String: Int] = [:]
        for (path, kib) in byPath {
            let group = groups.first { $0.matches(path, program) }!.name
            totals[group, default: 0] += kib
            if group == "libiio_tree" || group == "libiio" {
                tree[String(path.split(separator: "/").last ?? ""), default: 0] += kib
            }
        }
        let all = byPath.values.reduce(0, +)
        report.add("\(name).rss_total", Double(all) / 1024, "MiB")
        report.add("\(name).rss_without_umockdev", Double(all - totals["umockdev_preload", default: 0]) / 1024, "MiB")
        for group in groups { report.add("\(name).\(group.name)", Double(totals[group.name, default: 0]) / 1024, "MiB") }
        for (library, kib) in tree.sorted(by: { $0.value > $1.value }) {
            report.add("\(name).libiio_tree.\(library)", Double(kib) / 1024, "MiB")
        }
    }

    /// A polled accelerometer lying flat (umockdev-record's text format): no scan
    /// elements, so the daemon reads it through sysfs and loads no libiio
    /// (docs/performance.md, "A polled IIO sensor without libiio").
    static let accelerometer = """
        P: /devices/platform/bench-sensor.0/iio:device0
        E: SUBSYSTEM=iio
        E: DEVTYPE=iio_device
        A: name=accel_3d\\n
        A: in_accel_x_raw=0\\n
        A: in_accel_y_raw=0\\n
        A: in_accel_z_raw=20\\n
        A: in_accel_scale=0.5\\n
        A: in_accel_offset=0\\n
        A: sampling_frequency=20\\n


        """

    static func run(_ report: Report) throws {
        let program = DaemonBenchmarks.Daemon.sibling("tiltpuzzled").resolvingSymlinksInPath().path
        do {
            let daemon = try DaemonBenchmarks.Daemon(arguments: ["--source", "none"], config: "", name: "memidle")
            defer { daemon.stop() }
            _ = daemon.connect()
            usleep(1_500_000)
            addShares(report, "memory_idle", pid: daemon.process.pid, program: program)
        }
        // The daemon under umockdev-run, which forks it: its pid is umockdev-run's child.
        let directory = "/tmp/tiltpuzzle-bench-\(getpid())-memiio"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try accelerometer.write(toFile: directory + "/accel.umockdev", atomically: true, encoding: .utf8)
        try "".write(toFile: directory + "/d.conf", atomically: true, encoding: .utf8)
        let socket = directory + "/d.sock"
        let wrapper = try ChildProcess(["umockdev-run", "-d", directory + "/accel.umockdev", "--",
                                        program, "--socket", socket, "--state-dir", directory + "/state",
                                        "--config", directory + "/d.conf", "--log-level", "warning", "--source", "auto"],
                                       standardError: .file(directory + "/log"))
        var daemonPid: pid_t = 0
        defer {
            if daemonPid > 0 { kill(daemonPid, SIGTERM) }
            wrapper.wait()
        }
        guard let client = DaemonConnection.waiting(for: socket, while: { wrapper.isRunning }) else {
            throw BenchmarkFailure("the daemon under umockdev-run did not start: "
                                   + ((try? String(contentsOfFile: directory + "/log", encoding: .utf8)) ?? ""))
        }
        let children = (try? String(contentsOfFile: "/proc/\(wrapper.pid)/task/\(wrapper.pid)/children", encoding: .utf8)) ?? ""
        daemonPid = pid_t(children.split(separator: " ").first ?? "") ?? 0
        guard daemonPid > 0 else { throw BenchmarkFailure("no daemon under umockdev-run") }
        _ = try client.request(.new(size: 4, seed: 1, shuffle: true))
        _ = try client.request(.subscribe(samples: true))
        var samples = 0
        let start = MonotonicClock.now()
        while MonotonicClock.now() - start < 3 {
            if case .sample? = try client.next(timeout: 0.5) { samples += 1 }
        }
        guard samples > 10 else { throw BenchmarkFailure("the IIO sensor gave \(samples) samples in 3 s") }
        report.add("memory_iio_playing.samples_seen_in_3s", Double(samples), "samples")
        addShares(report, "memory_iio_playing", pid: daemonPid, program: program)
    }
}
