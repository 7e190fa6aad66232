// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Glibc
import TiltCore
import TiltDevices
import TiltSystem

/// The pure core: detector and puzzle throughput, trace parsing, shuffle quality.
enum CoreBenchmarks {
    /// A synthetic 100 Hz session: rest, then a tilt every second in turn, with noise.
    static func syntheticSamples(count: Int) -> [Sample] {
        var random = SeededRandom(seed: 1)
        func noise() -> Double { (Double(random.below(2001)) - 1000) / 1000 * 0.05 }
        let directions: [(Double, Double)] = [(-1, 0), (0, 1), (1, 0), (0, -1)]
        return (0..<count).map { i in
            let phase = i % 100
            let (dx, dy) = directions[(i / 100) % 4]
            let angle = phase < 30 ? 0 : phase < 60 ? Double(phase - 30) : phase < 80 ? 30 - Double(phase - 60) * 1.5 : 0
            let s = sin(angle * .pi / 180)
            let c = (1 - s * s).squareRoot()
            return Sample(time: Double(i) / 100,
                          x: dx * s * standardGravity + noise(), y: dy * s * standardGravity + noise(),
                          z: c * standardGravity + noise())
        }
    }

    /// The hot path on its own, not inlined, so that `valgrind --tool=callgrind
    /// --toggle-collect='*detectAndPlay*'` counts exactly its instructions.
    @inline(never)
    static func detectAndPlay(_ samples: [Sample]) -> Int {
        var detector = TiltDetector()
        var puzzle = Puzzle(side: 4)
        var fired = 0
        for sample in samples {
            if let direction = detector.process(sample) {
                fired += 1
                puzzle.tilt(direction)
            }
        }
        return fired
    }

    static func run(_ report: Report, sampleCount: Int) throws {
        let samples = syntheticSamples(count: sampleCount)
        var fired = 0
        let coreTime = seconds { fired = detectAndPlay(samples) }
        report.add("core.samples_per_second", Double(sampleCount) / coreTime, "samples/s")
        report.add("core.ns_per_sample", coreTime / Double(sampleCount) * 1e9, "ns")
        report.add("core.tilts_fired", Double(fired), "tilts")

        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tiltpuzzle-bench-\(getpid()).csv")
        let traceSamples = samples.prefix(2_000_000)
        let text = TraceFormat.preamble() + traceSamples.map(TraceFormat.line(for:)).joined()
        try text.write(to: url, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        var parsed = 0
        let parseTime = try seconds {
            let fd = try FileDescriptor.open(url.path)
            defer { try? fd.close() }
            var reader = TraceReader(descriptor: fd)
            while try reader.next() != nil { parsed += 1 }
        }
        precondition(parsed == traceSamples.count)
        report.add("trace.parse_mb_per_second", Double(text.utf8.count) / parseTime / 1e6, "MB/s")

        var distance = 0
        for seed in UInt64(0)..<1_000 { distance += Puzzle.newGame(side: 4, seed: seed).board.manhattanDistance }
        report.add("shuffle.4x4_mean_manhattan", Double(distance) / 1_000, "cells")
    }
}
