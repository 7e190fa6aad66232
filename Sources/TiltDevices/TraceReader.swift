// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltSystem

/// Reads a trace (docs/traces.md) sample by sample, from a file or from memory, holding
/// one chunk at a time: a trace of any length costs the same memory.
///
/// A malformed line throws its `TraceError`; calling `next()` again goes on with
/// the following line, so a replay can report a bad line and carry on.
public struct TraceReader {
    public enum Failure: Error, CustomStringConvertible {
        case io(Errno)
        case malformed(TraceError)

        public var description: String {
            switch self {
            case .io(let errno): "read error: \(errno)"
            case .malformed(let error): error.description
            }
        }
    }

    private enum Input {
        case file(FileDescriptor)
        case memory([UInt8], offset: Int)
    }

    static let chunkSize = 64 * 1024

    private var input: Input
    private var splitter = LineSplitter(maxLineLength: TraceFormat.maxLineLength)
    private var parser = TraceParser()
    /// Samples parsed from the current chunk, and its malformed lines, each kept with
    /// the number of samples before it so that errors come out in file order.
    private var pending: [Sample] = []
    private var pendingErrors: [(position: Int, error: TraceError)] = []
    private var pendingIndex = 0
    private var errorIndex = 0
    private var chunk: [UInt8]
    private var atEnd = false
    public private(set) var bytesRead = 0

    /// Reads from an open descriptor; the reader does not own or close it.
    public init(descriptor: FileDescriptor) {
        input = .file(descriptor)
        chunk = [UInt8](repeating: 0, count: Self.chunkSize)
    }

    public init(text: String) {
        input = .memory(Array(text.utf8), offset: 0)
        chunk = []
    }

    /// The time of the last sample handed out.
    public private(set) var lastTime = 0.0

    /// The next sample; nil at the end of the trace.
    public mutating func next() throws(Failure) -> Sample? {
        while true {
            if errorIndex < pendingErrors.count, pendingErrors[errorIndex].position == pendingIndex {
                errorIndex += 1
                throw .malformed(pendingErrors[errorIndex - 1].error)
            }
            if pendingIndex < pending.count {
                let sample = pending[pendingIndex]
                pendingIndex += 1
                lastTime = sample.time
                return sample
            }
            if atEnd { return nil }
            pending.removeAll(keepingCapacity: true)
            pendingErrors.removeAll()
            pendingIndex = 0
            errorIndex = 0
            try fill()
        }
    }

    /// Reads and parses one more chunk into `pending`.
    private mutating func fill() throws(Failure) {
        var parser = self.parser
        var pending = self.pending
        var errors = self.pendingErrors
        func take(_ piece: LineSplitter.Piece) {
            switch piece {
            case .line(let line):
                do throws(TraceError) {
                    if let sample = try parser.parse(line: line) { pending.append(sample) }
                } catch {
                    errors.append((pending.count, error))
                }
            case .tooLong:
                errors.append((pending.count, parser.skipTooLongLine()))
            }
        }
        func finish() {
            splitter.finish(take)
            do throws(TraceError) { try parser.finish() } catch { errors.append((pending.count, error)) }
        }
        defer {
            self.parser = parser
            self.pending = pending
            self.pendingErrors = errors
        }
        switch input {
        case .file(let fd):
            let count: Int
            do {
                count = try fd.read(into: &chunk)
            } catch {
                throw .io(error)
            }
            bytesRead += count
            if count == 0 {
                atEnd = true
                finish()
            } else {
                chunk.withUnsafeBufferPointer { splitter.feed(UnsafeBufferPointer(rebasing: $0[..<count]), take) }
            }
        case .memory(let bytes, let offset):
            let end = min(offset + Self.chunkSize, bytes.count)
            bytesRead = end
            input = .memory(bytes, offset: end)
            if offset == end {
                atEnd = true
                finish()
            } else {
                bytes.withUnsafeBufferPointer { splitter.feed(UnsafeBufferPointer(rebasing: $0[offset..<end]), take) }
            }
        }
    }
}
