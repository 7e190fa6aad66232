// SPDX-License-Identifier: GPL-3.0-or-later
/// Trace files (docs/traces.md): CSV, `#` comments and blank lines ignored, a `t,x,y,z`
/// header, then one sample per line with non-decreasing `t`.
public enum TraceFormat {
    public static let header = "t,x,y,z"
    public static let magic = "# tiltpuzzle trace v1"
    /// A longer line is malformed; real sample lines are under 100 bytes.
    public static let maxLineLength = 4096

    /// The first lines of a trace file.
    public static func preamble(comments: [String] = []) -> String {
        var text = magic + "\n"
        for comment in comments { text += "# \(comment)\n" }
        return text + header + "\n"
    }

    /// One sample as a line; the shortest decimal that reads back to the same double.
    public static func line(for sample: Sample) -> String {
        let a = sample.acceleration
        return "\(sample.time),\(a.x),\(a.y),\(a.z)\n"
    }

    /// A whole trace: the preamble, then every sample (e.g. a simulated hand's, for replay).
    public static func text(for samples: [Sample], comments: [String] = []) -> String {
        var text = preamble(comments: comments)
        for sample in samples { text += line(for: sample) }
        return text
    }
}

/// A malformed trace line: where, and what is wrong with it.
public struct TraceError: Error, Equatable, CustomStringConvertible {
    public enum Problem: Equatable, Sendable {
        case missingHeader
        case badHeader(String)
        case fieldCount(Int)
        case notANumber(field: String, text: String)
        case notFinite(field: String)
        case timeWentBack(previous: Double, time: Double)
        case lineTooLong
    }

    /// 1-based; 0 for a problem with the file as a whole.
    public var line: Int
    public var problem: Problem

    public init(line: Int, problem: Problem) {
        self.line = line
        self.problem = problem
    }

    /// A missing or wrong header: the file is not a trace, and every further line
    /// would be another error.
    public var meansNotATrace: Bool {
        switch problem {
        case .missingHeader, .badHeader: true
        default: false
        }
    }

    public var description: String {
        let place = line > 0 ? "line \(line): " : ""
        switch problem {
        case .missingHeader: return place + "no `\(TraceFormat.header)` header before the samples"
        case .badHeader(let text): return place + "expected the header `\(TraceFormat.header)`, found `\(text)`"
        case .fieldCount(let n): return place + "expected 4 fields t,x,y,z, found \(n)"
        case .notANumber(let field, let text): return place + "\(field) is not a number: `\(text)`"
        case .notFinite(let field): return place + "\(field) is not finite"
        case .timeWentBack(let previous, let time): return place + "time \(time) is before the previous \(previous)"
        case .lineTooLong: return place + "line longer than \(TraceFormat.maxLineLength) bytes"
        }
    }
}

/// Parses a trace line by line; the caller feeds every line (comments included) so
/// errors carry the right line number.
public struct TraceParser: Sendable {
    public private(set) var lineNumber = 0
    public private(set) var sawHeader = false
    private var lastTime = -Double.infinity

    public init() {}

    /// Parses the next line (without its `\n`); a sample, or nil for a comment,
    /// a blank line or the header.
    public mutating func parse(line raw: UnsafeBufferPointer<UInt8>) throws(TraceError) -> Sample? {
        lineNumber += 1
        let line = Self.trimmed(raw)
        if line.isEmpty || line[0] == UInt8(ascii: "#") { return nil }
        guard sawHeader else {
            let text = String(decoding: line, as: UTF8.self)
            guard text.filter({ $0 != " " && $0 != "\t" }) == TraceFormat.header else {
                let looksLikeSample = line[0] == UInt8(ascii: "-") || (line[0] >= 48 && line[0] <= 57)
                throw TraceError(line: lineNumber, problem: looksLikeSample ? .missingHeader : .badHeader(text))
            }
            sawHeader = true
            return nil
        }
        var fields: (Double, Double, Double, Double) = (0, 0, 0, 0)
        var count = 0
        var start = 0
        for i in 0...line.count where i == line.count || line[i] == UInt8(ascii: ",") {
            count += 1
            if count <= 4 {
                let value = try Self.number(UnsafeBufferPointer(rebasing: line[start..<i]), field: count - 1, line: lineNumber)
                switch count {
                case 1: fields.0 = value
                case 2: fields.1 = value
                case 3: fields.2 = value
                default: fields.3 = value
                }
            }
            start = i + 1
        }
        guard count == 4 else { throw TraceError(line: lineNumber, problem: .fieldCount(count)) }
        guard fields.0 >= lastTime else {
            throw TraceError(line: lineNumber, problem: .timeWentBack(previous: lastTime, time: fields.0))
        }
        lastTime = fields.0
        return Sample(time: fields.0, x: fields.1, y: fields.2, z: fields.3)
    }

    /// Convenience for a line held as a String.
    public mutating func parse(line: String) throws(TraceError) -> Sample? {
        var copy = line
        let result = copy.withUTF8 { bytes in
            Result { () throws(TraceError) in try parse(line: bytes) }
        }
        return try result.get()
    }

    /// Checks the end of the stream: a trace without a header is malformed.
    public func finish() throws(TraceError) {
        guard sawHeader else { throw TraceError(line: 0, problem: .missingHeader) }
    }

    /// Reports an over-long line at the next line number.
    public mutating func skipTooLongLine() -> TraceError {
        lineNumber += 1
        return TraceError(line: lineNumber, problem: .lineTooLong)
    }

    private static let fieldNames = ["t", "x", "y", "z"]

    private static func number(_ bytes: UnsafeBufferPointer<UInt8>, field: Int, line: Int) throws(TraceError) -> Double {
        let text = trimmed(bytes)
        guard let value = DecimalParser.parse(text) else {
            throw TraceError(line: line, problem: .notANumber(field: fieldNames[field],
                                                              text: String(decoding: text, as: UTF8.self)))
        }
        guard value.isFinite else { throw TraceError(line: line, problem: .notFinite(field: fieldNames[field])) }
        return value
    }

    /// Without surrounding spaces, tabs and a trailing `\r` (CRLF files).
    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = bytes.count
        func blank(_ b: UInt8) -> Bool { b == 32 || b == 9 || b == 13 }
        while start < end, blank(bytes[start]) { start += 1 }
        while end > start, blank(bytes[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }
}
