// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltSystem

/// Writes a trace (docs/traces.md) to a descriptor it does not own, buffering whole lines.
public struct TraceWriter {
    private let descriptor: FileDescriptor
    private var buffer = ""
    private let flushThreshold = 32 * 1024

    public init(descriptor: FileDescriptor, comments: [String] = []) throws(Errno) {
        self.descriptor = descriptor
        buffer = TraceFormat.preamble(comments: comments)
        try flush()
    }

    public mutating func write(_ sample: Sample) throws(Errno) {
        buffer += TraceFormat.line(for: sample)
        if buffer.utf8.count >= flushThreshold { try flush() }
    }

    public mutating func flush() throws(Errno) {
        guard !buffer.isEmpty else { return }
        try descriptor.writeAll(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
