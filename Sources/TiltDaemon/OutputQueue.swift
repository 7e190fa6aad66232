// SPDX-License-Identifier: GPL-3.0-or-later
/// A client's unsent bytes: whole encoded messages, shared between clients
/// (a broadcast is encoded once), and a count to enforce the per-client bound.
struct OutputQueue {
    private var chunks: [[UInt8]] = []
    private var head = 0
    /// Bytes of the first chunk already written.
    private var offset = 0
    private(set) var byteCount = 0

    var isEmpty: Bool { byteCount == 0 }

    mutating func append(_ bytes: [UInt8]) {
        chunks.append(bytes)
        byteCount += bytes.count
    }

    /// Messages are small and many (one per tile moved): up to this many bytes of
    /// them are copied together and written at once, rather than one send each.
    static let gatherLimit = 64 * 1024

    /// Writes as much as `transport` takes; false when the peer is gone.
    mutating func drain(into transport: ClientTransport) -> Bool {
        while head < chunks.count {
            let written: Int?
            if head + 1 == chunks.count || chunks[head].count - offset >= Self.gatherLimit {
                written = chunks[head].withUnsafeBytes { transport.write(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
            } else {
                written = writeGathered(into: transport)
            }
            guard let written else { return false }
            if written == 0 { break }
            advance(by: written)
        }
        if head == chunks.count {
            chunks.removeAll(keepingCapacity: chunks.count < 64)
            head = 0
        } else if head > 64, head * 2 > chunks.count {
            chunks.removeFirst(head)
            head = 0
        }
        return true
    }

    /// Copies the unsent rest of the first chunk and the whole chunks after it
    /// that fit into one buffer, and writes it.
    private func writeGathered(into transport: ClientTransport) -> Int? {
        var gathered: [UInt8] = []
        gathered.reserveCapacity(Self.gatherLimit)
        gathered += chunks[head][offset...]
        var next = head + 1
        while next < chunks.count, gathered.count + chunks[next].count <= Self.gatherLimit {
            gathered += chunks[next]
            next += 1
        }
        return gathered.withUnsafeBytes { transport.write($0) }
    }

    /// Forgets `count` written bytes, which may span several chunks.
    private mutating func advance(by count: Int) {
        byteCount -= count
        var left = count
        while left > 0 {
            let rest = chunks[head].count - offset
            if left < rest {
                offset += left
                return
            }
            left -= rest
            head += 1
            offset = 0
        }
    }
}
