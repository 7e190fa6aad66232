// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import TiltCore

@Suite struct TraceParserTests {
    func parseAll(_ text: String) -> [Result<Sample, TraceError>] {
        var parser = TraceParser()
        var results: [Result<Sample, TraceError>] = []
        // Split bytes, not Characters: "\r\n" is one Character.
        for line in Array(text.utf8).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            do throws(TraceError) {
                if let sample = try parser.parse(line: String(decoding: line, as: UTF8.self)) {
                    results.append(.success(sample))
                }
            } catch {
                results.append(.failure(error))
            }
        }
        do throws(TraceError) { try parser.finish() } catch { results.append(.failure(error)) }
        return results
    }

    @Test func specExample() throws {
        let text = "# tiltpuzzle trace v1\nt,x,y,z\n0.00,0.05,-0.12,9.80\n0.01,0.07,-0.10,9.79\n"
        let samples = try parseAll(text).map { try $0.get() }
        #expect(samples == [Sample(time: 0, x: 0.05, y: -0.12, z: 9.8), Sample(time: 0.01, x: 0.07, y: -0.1, z: 9.79)])
    }

    @Test func toleratesBlankLinesCommentsSpacesAndCRLF() throws {
        let text = "\n# c\r\n t , x , y , z \r\n\n0, 1 ,2,3\r\n# more\n1e-2,-1.5E1,+2,.5\n"
        let samples = try parseAll(text).map { try $0.get() }
        #expect(samples == [Sample(time: 0, x: 1, y: 2, z: 3), Sample(time: 0.01, x: -15, y: 2, z: 0.5)])
    }

    @Test(arguments: [
        ("0,1,2,3", TraceError(line: 1, problem: .missingHeader)),
        ("time,x,y,z", TraceError(line: 1, problem: .badHeader("time,x,y,z"))),
        ("t,x,y,z\n0,1,2", TraceError(line: 2, problem: .fieldCount(3))),
        ("t,x,y,z\n0,1,2,3,4", TraceError(line: 2, problem: .fieldCount(5))),
        ("t,x,y,z\n# c\n0,1,abc,3", TraceError(line: 3, problem: .notANumber(field: "y", text: "abc"))),
        ("t,x,y,z\n0,1,,3", TraceError(line: 2, problem: .notANumber(field: "y", text: ""))),
        ("t,x,y,z\n0,nan,2,3", TraceError(line: 2, problem: .notFinite(field: "x"))),
        ("t,x,y,z\n0,1,2,inf", TraceError(line: 2, problem: .notFinite(field: "z"))),
        ("t,x,y,z\n0,1,2,1e999", TraceError(line: 2, problem: .notFinite(field: "z"))),
        ("t,x,y,z\n1,1,2,3\n0.5,1,2,3", TraceError(line: 3, problem: .timeWentBack(previous: 1, time: 0.5))),
        ("# only a comment", TraceError(line: 0, problem: .missingHeader)),
    ])
    func malformedLinesAreReportedWithTheirNumber(text: String, expected: TraceError) {
        let failures = parseAll(text).compactMap { if case .failure(let e) = $0 { e } else { nil } }
        #expect(failures.first == expected)
        #expect(!expected.description.isEmpty)
    }

    @Test func equalTimesAreAllowed() throws {
        let samples = try parseAll("t,x,y,z\n1,0,0,1\n1,0,0,1\n").map { try $0.get() }
        #expect(samples.count == 2)
    }

    /// The writer's text reads back to exactly the same doubles.
    @Test func writerRoundTripsExactly() throws {
        var random = SeededRandom(seed: 5)
        func value() -> Double { Double(Int64(bitPattern: random.next())) / Double(Int64.max) * 20 }
        var samples: [Sample] = []
        var time = 0.0
        for _ in 0..<1_000 {
            time += Double(random.below(1000)) / 100_000
            samples.append(Sample(time: time, x: value(), y: value(), z: value()))
        }
        let text = TraceFormat.preamble(comments: ["test"]) + samples.map(TraceFormat.line(for:)).joined()
        #expect(try parseAll(text).map { try $0.get() } == samples)
    }

    @Test(arguments: ["0", "-0.5", "12.25", "9.80665", "0.1", "123456789012345678", "1.7976931348623157e308",
                      "4.9e-324", "0.000000000000000000000000001", "-.5", "5."])
    func decimalsMatchTheStandardLibrary(text: String) {
        var copy = text
        let parsed = copy.withUTF8 { DecimalParser.parse($0) }
        #expect(parsed == Double(text) ?? Double("0" + text))
    }
}
