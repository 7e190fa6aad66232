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
        var start = 0
        let end = chunk.count
        while start < end {
            guard let newline = Self.firstNewline(in: chunk, from: start) else {
                try hold(chunk, from: start, to: end, body)
                return
            }
            if skipping {
                skipping = false
            } else if carry.isEmpty {
                if newline - start > maxLineLength {
                    try body(.tooLong)
                } else {
                    try body(.line(UnsafeBufferPointer(rebasing: chunk[start..<newline])))
                }
            } else {
                try hold(chunk, from: start, to: newline, body)
                if !skipping {
                    try carry.withUnsafeBufferPointer { (line) throws(E) in try body(.line(line)) }
                }
                carry.removeAll(keepingCapacity: true)
                skipping = false
            }
            start = newline + 1
        }
    }

    /// The unterminated last line at the end of the stream, if any.
    public mutating func finish<E: Error>(_ body: (Piece) throws(E) -> Void) throws(E) {
        defer { carry.removeAll(); skipping = false }
        guard !skipping, !carry.isEmpty else { return }
        try carry.withUnsafeBufferPointer { (line) throws(E) in try body(.line(line)) }
    }

    private mutating func hold<E: Error>(_ chunk: UnsafeBufferPointer<UInt8>, from: Int, to: Int,
                                         _ body: (Piece) throws(E) -> Void) throws(E) {
        guard !skipping else { return }
        if carry.count + (to - from) > maxLineLength {
            carry.removeAll()
            skipping = true
            try body(.tooLong)
        } else {
            carry.append(contentsOf: chunk[from..<to])
        }
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
