// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TiltCore
import TiltSystem
@testable import TiltDevices

@Suite struct TraceReaderTests {
    /// Drains a reader, recording samples and malformed-line numbers.
    static func drain(_ reader: inout TraceReader) -> (samples: [Sample], badLines: [Int]) {
        var samples: [Sample] = []
        var badLines: [Int] = []
        while true {
            do throws(TraceReader.Failure) {
                guard let sample = try reader.next() else { break }
                samples.append(sample)
            } catch {
                if case .malformed(let e) = error { badLines.append(e.line) } else { break }
            }
        }
        return (samples, badLines)
    }

    @Test func readsAFileLargerThanAChunkAndReportsBadLinesInPlace() throws {
        var text = TraceFormat.preamble()
        var expected: [Sample] = []
        for i in 0..<20_000 {
            if i == 7_000 { text += "oops\n" }
            let sample = Sample(time: Double(i) / 100, x: 0.5, y: -0.25, z: 9.75)
            expected.append(sample)
            text += TraceFormat.line(for: sample)
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(getpid()).csv")
        try text.write(to: url, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        let fd = try FileDescriptor.open(url.path)
        defer { try? fd.close() }
        var reader = TraceReader(descriptor: fd)
        let (samples, badLines) = Self.drain(&reader)
        #expect(samples == expected)
        #expect(badLines == [7_003])      // two preamble lines, 7,000 samples, then the bad one
        #expect(reader.bytesRead == text.utf8.count)
    }

    @Test func memoryAndFileGiveTheSameSamples() {
        let text = "t,x,y,z\n0,1,2,3\n0.5,4,5,6"   // no final newline
        var reader = TraceReader(text: text)
        #expect(Self.drain(&reader).samples == [Sample(time: 0, x: 1, y: 2, z: 3), Sample(time: 0.5, x: 4, y: 5, z: 6)])
    }

    @Test func anEmptyTraceHasNoHeader() {
        var reader = TraceReader(text: "")
        #expect(Self.drain(&reader).badLines == [0])
    }
}
