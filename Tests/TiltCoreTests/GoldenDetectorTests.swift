// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TiltCore

/// Golden tests: each trace in Tests/Fixtures/detector fires exactly the directions
/// of its `.expected` file (Tests/Oracle/make-detector-fixtures.py made both).
@Suite struct GoldenDetectorTests {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    static var cases: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: fixtures.appendingPathComponent("detector").path)) ?? []
        return names.filter { $0.hasSuffix(".csv") }.map { String($0.dropLast(4)) }.sorted()
    }

    /// Replays a trace through a detector set up by its `# config:` lines.
    static func replay(_ text: String) throws -> [Direction] {
        var configuration = TiltDetector.Configuration()
        var calibrateAt: Double?
        for line in text.split(separator: "\n") where line.hasPrefix("# config: ") {
            let parts = line.dropFirst("# config: ".count).split(separator: " ", maxSplits: 1).map(String.init)
            switch parts[0] {
            case "mount-matrix":
                configuration.mountMatrix = try #require(Matrix3(parts[1].split(separator: ",").compactMap { Double($0) }))
            case "rotation":
                configuration.screenRotation = try #require(ScreenRotation(degrees: Int(parts[1]) ?? -1))
            case "calibrate-at":
                calibrateAt = Double(parts[1])
            case "auto-neutral":
                configuration.autoNeutral = parts[1] == "on"
            default:
                Issue.record("unknown config key \(parts[0])")
            }
        }
        var detector = TiltDetector(configuration: configuration)
        var parser = TraceParser()
        var fired: [Direction] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard let sample = try parser.parse(line: String(line)) else { continue }
            if let direction = detector.process(sample) { fired.append(direction) }
            if let at = calibrateAt, sample.time >= at {
                let calibrated = detector.calibrate()
                #expect(calibrated)
                calibrateAt = nil
            }
        }
        return fired
    }

    @Test func everyFixtureHasAnExpectation() {
        #expect(Self.cases.count >= 17)
    }

    @Test(arguments: GoldenDetectorTests.cases)
    func firesExactlyTheExpectedDirections(name: String) throws {
        let folder = Self.fixtures.appendingPathComponent("detector")
        let trace = try String(contentsOf: folder.appendingPathComponent("\(name).csv"), encoding: .utf8)
        let expected = try String(contentsOf: folder.appendingPathComponent("\(name).expected"), encoding: .utf8)
            .split(separator: "\n").map { try #require(Direction(rawValue: String($0))) }
        #expect(try Self.replay(trace) == expected)
    }

    /// The bundled demo trace solves the game it names, through the detector alone.
    @Test func demoTraceSolvesItsGame() throws {
        let url = Self.fixtures.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("traces/demo.csv")
        let text = try String(contentsOf: url, encoding: .utf8)
        let header = try #require(text.split(separator: "\n").first { $0.hasPrefix("# demo: ") })
        // "# demo: size 3, seed 1, solution: …"
        let words = header.split(whereSeparator: { $0 == " " || $0 == "," })
        let size = try #require(Int(words[words.firstIndex(of: "size")! + 1]))
        let seed = try #require(UInt64(words[words.firstIndex(of: "seed")! + 1]))
        var puzzle = Puzzle.newGame(side: size, seed: seed)
        #expect(!puzzle.isSolved)
        for direction in try Self.replay(text) {
            #expect(!puzzle.tilt(direction).isEmpty, "every tilt of the demo moves a tile")
        }
        #expect(puzzle.isSolved)
    }
}
