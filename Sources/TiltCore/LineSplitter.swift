// SPDX-License-Identifier: GPL-3.0-or-later
/// Splits a byte stream into `\n`-terminated lines, chunk by chunk, without ever
/// holding more than one line: used for trace files and for the socket protocol.
///
/// Lines inside a chunk are handed out in place; only a line cut by a chunk
/// boundary is copied. A line longer than `maxLineLength` is reported once as
/// `.tooLong` and its remaining bytes are skipped up to the next newline.
public struct LineSplitter: Sendable {
    public enum Piece {
        /// A complete line without its `\n`.
        case line(UnsafeBufferPointer<UInt8>)
        case tooLong
    }

    public let maxLineLength: Int
    private var carry: [UInt8] = []
    private var skipping = false

    public init(maxLineLength: Int) {
        self.maxLineLength = maxLineLength
    }

    /// Bytes of an unterminated line held since the last chunk.
    public var pendingCount: Int { carry.count }

    /// Feeds a chunk; `body` receives each piece it completes.
    public mutating func feed<E: Error>(_ chunk: UnsafeBufferPointer<UInt8>,
                                        _ body: (Piece) throws(E) -> Void) throws(E) {
        _ = try feed(chunk, until: { (piece) throws(E) -> Bool in
            try body(piece)
            return true
        })
    }

    /// Feeds a chunk until `body` returns false: the count of bytes taken, the
    /// whole chunk unless `body` stopped. Bytes after a stop were not looked at:
    /// the caller feeds them again later (a reader that must stop taking
    /// requests without losing those already read).
    public mutating func feed<E: Error>(_ chunk: UnsafeBufferPointer<UInt8>,
                                        until body: (Piece) throws(E) -> Bool) throws(E) -> Int {
        var start = 0
        let end = chunk.count
        while start < end {
            guard let newline = Self.firstNewline(in: chunk, from: start) else {
                _ = try hold(chunk, from: start, to: end, body)
                return end
            }
            var goOn = true
            if skipping {
                skipping = false
            } else if carry.isEmpty {
                if newline - start > maxLineLength {
                    goOn = try body(.tooLong)
                } else {
                    goOn = try body(.line(UnsafeBufferPointer(rebasing: chunk[start..<newline])))
                }
            } else {
                goOn = try hold(chunk, from: start, to: newline, body)
                if !skipping {
                    goOn = try carry.withUnsafeBufferPointer { (line) throws(E) -> Bool in try body(.line(line)) }
                }
                carry.removeAll(keepingCapacity: true)
                skipping = false
            }
            start = newline + 1
            if !goOn { return start }
        }
        return end
    }

    /// The unterminated last line at the end of the stream, if any.
    public mutating func finish<E: Error>(_ body: (Piece) throws(E) -> Void) throws(E) {
        defer { carry.removeAll(); skipping = false }
        guard !skipping, !carry.isEmpty else { return }
        try carry.withUnsafeBufferPointer { (line) throws(E) in try body(.line(line)) }
    }

    /// Keeps an unterminated piece; false when `body` asked to stop at the
    /// `.tooLong` it reported.
    private mutating func hold<E: Error>(_ chunk: UnsafeBufferPointer<UInt8>, from: Int, to: Int,
                                         _ body: (Piece) throws(E) -> Bool) throws(E) -> Bool {
        guard !skipping else { return true }
        if carry.count + (to - from) > maxLineLength {
            carry.removeAll()
            skipping = true
            return try body(.tooLong)
        }
        carry.append(contentsOf: chunk[from..<to])
        return true
    }

    private static func firstNewline(in chunk: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var i = start
        while i < chunk.count {
            if chunk[i] == UInt8(ascii: "\n") { return i }
            i += 1
        }
        return nil
    }
}
