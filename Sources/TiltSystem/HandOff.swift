// SPDX-License-Identifier: GPL-3.0-or-later
/// What one thread hands another that waits on a descriptor: a queue behind a lock,
/// and an eventfd that is readable while the queue holds something. The event loop
/// and its workers (saves, hints, a polled sensor's reader) pass work and results
/// through these, in both directions.
public final class HandOff<Item: Sendable>: Sendable {
    /// Readable while items wait; the taker watches it.
    public let ready: WakeupDescriptor
    private let queue = Locked<[Item]>([])
    /// Items kept for a taker that does not take them, the oldest dropped first.
    private let limit: Int

    public init(limit: Int = .max) throws(Errno) {
        precondition(limit > 0, "a hand-off must hold at least one item")
        ready = try WakeupDescriptor()
        self.limit = limit
    }

    /// Adds `item` and wakes the taker; safe from any thread.
    public func post(_ item: Item) {
        queue.withLock { items in
            if items.count >= limit { items.removeFirst(items.count - limit + 1) }
            items.append(item)
        }
        ready.signal()
    }

    /// Everything posted so far, oldest first; `ready` is not readable after this
    /// until the next post.
    public func take() -> [Item] {
        // Drained before the queue is emptied: an item posted in between signals again.
        ready.drain()
        return queue.withLock { items in
            defer { items.removeAll(keepingCapacity: true) }
            return items
        }
    }

    /// Closes `ready`; the owner calls this once neither side uses it any more.
    public func close() {
        try? ready.descriptor.close()
    }
}
