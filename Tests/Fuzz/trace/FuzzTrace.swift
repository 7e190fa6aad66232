// SPDX-License-Identifier: GPL-3.0-or-later
import FuzzSupport
@testable import TiltCore
import TiltDevices

/// A trace file as the replay source reads it. Reading always ends; samples come out
/// finite and in time order; malformed lines are reported once each, in file order;
/// and a trace read without errors, written back with `TraceFormat`, reads back the same.
/// The fast decimal parser agrees with the standard library wherever it answers.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTrace(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let text = String(decoding: input.bytes, as: UTF8.self)
    let (samples, errorLines) = read(text)
    let lineCount = text.utf8.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    var previous = -Double.infinity
    for sample in samples {
        let a = sample.acceleration
        require(sample.time.isFinite && a.x.isFinite && a.y.isFinite && a.z.isFinite, "a sample is not finite: \(sample)")
        require(sample.time >= previous, "time went back: \(previous) then \(sample.time)")
        previous = sample.time
    }
    let numbered = errorLines.filter { $0 > 0 }
    require(zip(numbered, numbered.dropFirst()).allSatisfy { $0 < $1 }, "errors out of order: \(errorLines)")
    require(numbered.allSatisfy { $0 <= lineCount }, "an error past the last line: \(errorLines), \(lineCount) lines")
    require(!errorLines.dropLast().contains(0), "a whole-file error before the end: \(errorLines)")

    if errorLines.isEmpty {
        let written = TraceFormat.preamble() + samples.map(TraceFormat.line(for:)).joined()
        let (again, errors) = read(written)
        require(errors.isEmpty && again == samples, "written back, the trace reads differently")
    }

    for field in input.bytes.split(whereSeparator: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\n") }) {
        Array(field).withUnsafeBufferPointer { bytes in
            guard let fast = DecimalParser.parse(bytes) else { return }
            let standard = Double(String(decoding: bytes, as: UTF8.self))
            require(standard.map { $0.bitPattern == fast.bitPattern || ($0.isNaN && fast.isNaN) } ?? false,
                    "'\(String(decoding: bytes, as: UTF8.self))' reads as \(fast), the standard library says \(String(describing: standard))")
        }
    }
    return 0
}

private func read(_ text: String) -> (samples: [Sample], errorLines: [Int]) {
    var reader = TraceReader(text: text)
    var samples: [Sample] = []
    var errorLines: [Int] = []
    // Each line yields at most one sample or one error, and the end one more error.
    let bound = text.utf8.count + 2
    for _ in 0...bound {
        do throws(TraceReader.Failure) {
            guard let sample = try reader.next() else { return (samples, errorLines) }
            samples.append(sample)
        } catch {
            guard case .malformed(let problem) = error else { fatalError("reading memory failed: \(error)") }
            errorLines.append(problem.line)
        }
    }
    fatalError("the reader did not end after \(bound) calls")
}
