// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Glibc
import TiltCore
import TiltSolver
import TiltSystem

/// The solver (docs/solver.md): pattern-database build, optimal 4×4 searches on seeded
/// random boards, and big-board hints against the Manhattan lower bound.
enum SolverBenchmarks {
    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// This thread's CPU time: on a shared machine, what the work itself costs.
    static func cpuNow() -> Double { cpuTime(CLOCK_THREAD_CPUTIME_ID) }

    /// The process's CPU time, all threads.
    static func processCPUNow() -> Double { cpuTime(CLOCK_PROCESS_CPUTIME_ID) }

    static func cpuTime(_ clock: clockid_t) -> Double {
        var spec = timespec()
        clock_gettime(clock, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    static func cpuSeconds(_ body: () -> Void) -> Double {
        let start = cpuNow()
        body()
        return cpuNow() - start
    }

    /// Peak resident memory of this process so far, from /proc/self/status (kB → bytes).
    static func peakResident() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Double(line.split(separator: " ")[1]) else { return .nan }
        return kilobytes * 1024
    }

    static func currentResident() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Double(line.split(separator: " ")[1]) else { return .nan }
        return kilobytes * 1024
    }

    /// Resets the peak to the current resident size (writing 5 to clear_refs), so the
    /// build's peak is measured even after earlier sections used more memory.
    static func resetPeak() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    static func run(_ report: Report, quick: Bool, bigOnly: Bool = false, fifteenOnly: Bool = false) {
        if bigOnly {
            // Only the big boards, 50 seeded boards per size (tables built first, not timed).
            let database = PatternDatabase()
            for side in [5, 6, 8, 10] { big(report, side: side, count: 50, database: database) }
            return
        }
        // The duplicate-path automaton first (the tables' init would otherwise build it).
        var automaton: MoveAutomaton?
        let automatonCPU = cpuSeconds { automaton = MoveAutomaton(maxLength: MoveAutomaton.standardLength) }
        _ = MoveAutomaton.shared
        report.add("solver.moves_automaton_build_cpu_ms", automatonCPU * 1000, "ms")
        report.add("solver.moves_automaton_states", Double(automaton!.stateCount), "states")
        report.add("solver.moves_automaton_kib", Double(automaton!.memoryBytes) / 1024, "KiB")
        resetPeak()
        let before = currentResident()
        var database: PatternDatabase?
        var buildCPU = 0.0
        let buildTime = seconds { buildCPU = cpuSeconds { database = PatternDatabase() } }
        let peak = peakResident()
        guard let database else { return }
        report.add("solver.pdb_build_ms", buildTime * 1000, "ms")
        report.add("solver.pdb_build_cpu_ms", buildCPU * 1000, "ms")
        report.add("solver.pdb_build_peak_extra_mib", (peak - before) / 1_048_576, "MiB")
        report.add("solver.pdb_memory_mib", Double(database.memoryBytes) / 1_048_576, "MiB")
        var bytes: [UInt8] = []
        let saveTime = seconds { bytes = database.serialized() }
        report.add("solver.pdb_serialized_mib", Double(bytes.count) / 1_048_576, "MiB")
        report.add("solver.pdb_serialize_ms", saveTime * 1000, "ms")
        let loadTime = seconds { _ = try? PatternDatabase(serialized: bytes) }
        report.add("solver.pdb_load_ms", loadTime * 1000, "ms")

        // 4×4 only: 100 boards (30 quick), each solved three times (once quick).
        if fifteenOnly {
            optimal(report, side: 4, count: quick ? 30 : 100, database: database, repeats: quick ? 1 : 3)
            split(report, count: quick ? 30 : 100, database: database, repeats: quick ? 1 : 3)
            return
        }
        for side in [3, 4] {
            let count = side == 3 ? 200 : (quick ? 30 : 200)
            optimal(report, side: side, count: count, database: database)
        }
        for side in [5, 6, 8, 10] {
            big(report, side: side, count: quick ? 10 : 50, database: database)
        }
    }

    static func optimal(_ report: Report, side: Int, count: Int, database: PatternDatabase, repeats: Int = 1) {
        var times: [Double] = []
        // Each board's first run alone, as a daemon meets it: once, its caches cold.
        var firstTimes: [Double] = []
        var nodes: [Double] = []
        var lengths = 0
        for seed in UInt64(0)..<UInt64(count) {
            let board = Puzzle.newGame(side: side, seed: 0x50_1BE5 + seed).board
            var result: Solver.Report?
            // The least of `repeats` runs: on a machine shared with other work, the closest
            // to the search's own cost (the nodes are the same every run).
            var least = Double.infinity
            for run in 0..<repeats {
                let time = cpuSeconds { result = Solver.solveReporting(board, budget: .infinity, database: database, clock: now) }
                if run == 0 { firstTimes.append(time) }
                least = min(least, time)
            }
            times.append(least)
            guard let result, result.solution.isOptimal else { fatalError("\(side)×\(side) search gave no optimal answer") }
            nodes.append(Double(result.nodes))
            lengths += result.solution.directions.count
        }
        let name = "solver.\(side)x\(side)"
        times.sort()
        nodes.sort()
        report.add("\(name)_boards", Double(count), "boards")
        report.add("\(name)_mean_cpu_ms", times.reduce(0, +) / Double(count) * 1000, "ms")
        report.add("\(name)_median_cpu_ms", quantile(times, 0.5) * 1000, "ms")
        report.add("\(name)_p90_cpu_ms", quantile(times, 0.9) * 1000, "ms")
        report.add("\(name)_max_cpu_ms", times.last! * 1000, "ms")
        if repeats > 1 {
            firstTimes.sort()
            report.add("\(name)_first_run_median_cpu_ms", quantile(firstTimes, 0.5) * 1000, "ms")
            report.add("\(name)_first_run_p90_cpu_ms", quantile(firstTimes, 0.9) * 1000, "ms")
            report.add("\(name)_first_run_max_cpu_ms", firstTimes.last! * 1000, "ms")
        }
        report.add("\(name)_mean_nodes", nodes.reduce(0, +) / Double(count), "nodes")
        report.add("\(name)_median_nodes", quantile(nodes, 0.5), "nodes")
        report.add("\(name)_max_nodes", nodes.last!, "nodes")
        report.add("\(name)_mean_moves", Double(lengths) / Double(count), "moves")
        report.add("\(name)_over_100ms", Double(times.filter { $0 > 0.1 }.count) / Double(count) * 100, "%")
        report.add("\(name)_nodes_per_second", nodes.reduce(0, +) / times.reduce(0, +), "nodes/s")
    }

    /// The same 4×4 boards with the search split over a team of the machine's cores (at
    /// most the daemon's four): wall-clock time, as the client waits, and all threads'
    /// CPU time. Meaningful on an idle machine only. Each answer must be the one the
    /// single thread gives.
    static func split(_ report: Report, count: Int, database: PatternDatabase, repeats: Int) {
        guard let team = try? ThreadTeam(size: min(4, (try? CurrentThread.cores()) ?? 1)) else { return }
        let searchTeam = SearchTeam(size: team.size, run: team.run)
        var walls: [Double] = [], firstWalls: [Double] = [], cpus: [Double] = [], nodes: [Double] = []
        var different = 0
        for seed in UInt64(0)..<UInt64(count) {
            let board = Puzzle.newGame(side: 4, seed: 0x50_1BE5 + seed).board
            let alone = Solver.solveReporting(board, budget: .infinity, database: database, clock: now)
            var least = Double.infinity, leastCPU = Double.infinity
            var result: Solver.Report?
            for run in 0..<repeats {
                let cpuStart = processCPUNow()
                let wall = seconds {
                    result = Solver.solveReporting(board, budget: .infinity, database: database, team: searchTeam, clock: now)
                }
                leastCPU = min(leastCPU, processCPUNow() - cpuStart)
                if run == 0 { firstWalls.append(wall) }
                least = min(least, wall)
            }
            walls.append(least)
            cpus.append(leastCPU)
            guard let result, result.solution.isOptimal else { fatalError("the split 4×4 search gave no optimal answer") }
            if result.solution != alone.solution { different += 1 }
            nodes.append(Double(result.nodes))
        }
        walls.sort()
        firstWalls.sort()
        cpus.sort()
        nodes.sort()
        let name = "solver.4x4_split"
        report.add("\(name)_threads", Double(team.size), "threads")
        report.add("\(name)_median_wall_ms", quantile(walls, 0.5) * 1000, "ms")
        report.add("\(name)_p90_wall_ms", quantile(walls, 0.9) * 1000, "ms")
        report.add("\(name)_max_wall_ms", walls.last! * 1000, "ms")
        report.add("\(name)_first_run_median_wall_ms", quantile(firstWalls, 0.5) * 1000, "ms")
        report.add("\(name)_first_run_p90_wall_ms", quantile(firstWalls, 0.9) * 1000, "ms")
        report.add("\(name)_first_run_max_wall_ms", firstWalls.last! * 1000, "ms")
        report.add("\(name)_median_cpu_ms", quantile(cpus, 0.5) * 1000, "ms")
        report.add("\(name)_mean_cpu_ms", cpus.reduce(0, +) / Double(count) * 1000, "ms")
        report.add("\(name)_mean_nodes", nodes.reduce(0, +) / Double(count), "nodes")
        report.add("\(name)_answers_changed", Double(different), "boards")
    }

    static func big(_ report: Report, side: Int, count: Int, database: PatternDatabase) {
        var times: [Double] = []
        var ratio = 0.0
        var length = 0
        var bound = 0
        var cpu: [Double] = []
        var cornersOptimal = 0
        for seed in UInt64(0)..<UInt64(count) {
            let board = Puzzle.newGame(side: side, seed: 0xB16 + seed).board
            var result: Solver.Report?
            let start = cpuNow()
            // The solver's clock is this thread's CPU time: the budget is then CPU time,
            // and the answers do not depend on how loaded the machine is.
            times.append(seconds { result = Solver.solveReporting(board, database: database, clock: cpuNow) })
            cpu.append(cpuNow() - start)
            guard let result else { continue }
            length += result.solution.directions.count
            bound += result.lowerBound
            ratio += Double(result.solution.directions.count) / Double(result.lowerBound)
            // The corner was searched to the end when the answer ends in an optimal 4×4 part.
            if result.cornerOptimal { cornersOptimal += 1 }
        }
        let name = "solver.\(side)x\(side)"
        times.sort()
        cpu.sort()
        report.add("\(name)_median_ms", quantile(times, 0.5) * 1000, "ms")
        report.add("\(name)_max_ms", times.last! * 1000, "ms")
        report.add("\(name)_median_cpu_ms", quantile(cpu, 0.5) * 1000, "ms")
        report.add("\(name)_max_cpu_ms", cpu.last! * 1000, "ms")
        report.add("\(name)_corner_solved_optimally", Double(cornersOptimal) / Double(count) * 100, "%")
        report.add("\(name)_mean_moves", Double(length) / Double(count), "moves")
        report.add("\(name)_mean_manhattan", Double(bound) / Double(count), "moves")
        report.add("\(name)_mean_moves_over_manhattan", ratio / Double(count), "ratio")
    }
}
