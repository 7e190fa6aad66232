// Benchmarks of the core (release build): `swift run -c release tiltpuzzle-bench`.
// Timing lives here, never in the tests.
import Foundation
import Glibc
import TiltCore
import TiltDevices
import TiltSystem

func measure(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// A synthetic 100 Hz session: rest, then a tilt every second in turn, with noise.
func syntheticSamples(count: Int) -> [Sample] {
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

var results: [String: Double] = [:]
let arguments = CommandLine.arguments.dropFirst()
let sampleCount = arguments.first.flatMap(Int.init) ?? 10_000_000

// 1. Detector and puzzle: samples per second.
let samples = syntheticSamples(count: sampleCount)
var detector = TiltDetector()
var puzzle = Puzzle(side: 4)
var fired = 0
let coreSeconds = measure {
    for sample in samples {
        if let direction = detector.process(sample) {
            fired += 1
            puzzle.tilt(direction)
        }
    }
}
results["core_samples_per_second"] = Double(sampleCount) / coreSeconds
results["core_ns_per_sample"] = coreSeconds / Double(sampleCount) * 1e9
results["core_tilts_fired"] = Double(fired)

// 2. Trace parsing from a file, streamed in chunks.
let traceURL = FileManager.default.temporaryDirectory.appendingPathComponent("tiltpuzzle-bench.csv")
let traceSamples = samples.prefix(2_000_000)
let text = TraceFormat.preamble() + traceSamples.map(TraceFormat.line(for:)).joined()
try text.write(to: traceURL, atomically: false, encoding: .utf8)
defer { try? FileManager.default.removeItem(at: traceURL) }
var parsed = 0
let parseSeconds = measure {
    let fd = try! FileDescriptor.open(traceURL.path)
    var reader = TraceReader(descriptor: fd)
    while let _ = try! reader.next() { parsed += 1 }
    try! fd.close()
}
precondition(parsed == traceSamples.count)
results["trace_bytes"] = Double(text.utf8.count)
results["trace_parse_mb_per_second"] = Double(text.utf8.count) / parseSeconds / 1e6

// 3. Shuffle quality.
var distance = 0
for seed in UInt64(0)..<1_000 { distance += Puzzle.newGame(side: 4, seed: seed).board.manhattanDistance }
results["shuffle_4x4_mean_manhattan"] = Double(distance) / 1_000

for key in results.keys.sorted() {
    print(key.padding(toLength: 32, withPad: " ", startingAt: 0), String(format: "%.2f", results[key]!))
}
if let data = try? JSONSerialization.data(withJSONObject: results, options: [.sortedKeys, .prettyPrinted]) {
    let out = URL(fileURLWithPath: "bench-results.json")
    try? data.write(to: out)
    print("wrote \(out.path)")
}
