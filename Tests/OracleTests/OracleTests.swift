// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TiltCore
import TiltSystem

/// The Python model of the core (Tests/Oracle, which makes the fixtures and the sample
/// trace) and TiltCore asked the same questions on fresh random seeds each run: the two
/// drifting apart fails here, not in a wrong fixture later. A failure names its seed.
@Suite struct OracleTests {
    static let oracle = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Oracle/tiltsim.py").path

    /// The oracle's answer, one line an item.
    static func ask(_ arguments: [String]) throws -> [String] {
        let answer = try ChildProcess.output(of: ["python3", "-B", oracle] + arguments)
        #expect(answer.status == 0, "python3 tiltsim.py \(arguments.joined(separator: " ")) failed")
        return String(decoding: answer.output, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    static func seeds(_ count: Int = 4) -> [UInt64] { (0..<count).map { _ in UInt64.random(in: 0 ... .max) } }

    @Test func seededRandomNumbers() throws {
        for seed in Self.seeds() {
            var random = SeededRandom(seed: seed)
            let swift = (0..<16).map { _ in String(random.next()) }
            #expect(try Self.ask(["random", String(seed), "16"]) == swift, "seed \(seed)")
        }
    }

    @Test(arguments: Board.sides)
    func shuffledBoards(side: Int) throws {
        for seed in Self.seeds() {
            let board = Puzzle.newGame(side: side, seed: seed).board.values.map(String.init).joined(separator: ",")
            #expect(try Self.ask(["shuffle", String(side), String(seed)]) == [board], "side \(side) seed \(seed)")
        }
    }

    /// A simulated hand's random tilts, written as a trace file: both detectors read the
    /// same rounded numbers and must fire the same directions.
    @Test func detectorReplays() throws {
        let folder = try TemporaryDirectory(prefix: "tiltpuzzle-oracle")
        defer { folder.remove() }
        for seed in Self.seeds() {
            var random = SeededRandom(seed: seed)
            let tilts = (0..<12).map { _ in Direction.allCases[Int(random.below(UInt64(Direction.allCases.count)))] }
            var hand = SimulatedHand(seed: seed)
            let text = TraceFormat.text(for: hand.samples(for: tilts))
            var parser = TraceParser()
            var detector = TiltDetector()
            var fired: [String] = []
            for line in text.split(separator: "\n") {
                if let sample = try parser.parse(line: String(line)), let direction = detector.process(sample) {
                    fired.append(direction.rawValue)
                }
            }
            #expect(!fired.isEmpty, "seed \(seed): nothing fired")
            let path = folder.path + "/\(seed).csv"
            try FileDescriptor.replaceAtomically(path, with: Array(text.utf8), permissions: 0o644)
            #expect(try Self.ask(["replay", path]) == fired, "seed \(seed)")
        }
    }
}
