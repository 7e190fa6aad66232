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

    /// Writes as much as `transport` takes; false when the peer is gone.
    mutating func drain(into transport: ClientTransport) -> Bool {
        while head < chunks.count {
            let written = chunks[head].withUnsafeBytes { transport.write(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
            guard let written else { return false }
            if written == 0 { break }
            offset += written
            byteCount -= written
            if offset == chunks[head].count {
                head += 1
                offset = 0
            }
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
}
