// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Lines from a descriptor (a socket, a pipe), with a timeout for each.
public final class LineReader {
    private let fd: Int32
    private var buffer: [UInt8] = []
    /// The other side closed: the last `next` returned nil for that reason, not a timeout.
    public private(set) var reachedEnd = false

    public init(fd: Int32) { self.fd = fd }

    /// The next line; nil at the end or after `timeout` seconds.
    public func next(timeout: Double = 10) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                defer { buffer.removeSubrange(...newline) }
                return String(decoding: buffer[..<newline], as: UTF8.self)
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return nil }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, Int32(remaining * 1000) + 1) > 0 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(fd, &chunk, chunk.count)
            if count <= 0 {
                reachedEnd = true
                return nil
            }
            buffer += chunk[..<count]
        }
    }

    /// Lines up to and including the first that matches; all of them if none does.
    public func lines(until predicate: (String) -> Bool, timeout: Double = 10) -> [String] {
        var lines: [String] = []
        let deadline = Date().addingTimeInterval(timeout)
        while let line = next(timeout: max(0, deadline.timeIntervalSinceNow)) {
            lines.append(line)
            if predicate(line) { break }
        }
        return lines
    }
}
