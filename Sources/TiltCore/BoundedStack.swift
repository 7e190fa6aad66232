// SPDX-License-Identifier: GPL-3.0-or-later
/// A stack that forgets its oldest elements beyond `limit`, in amortised O(1).
///
/// Dropped elements are skipped by moving `start`; the storage is compacted only
/// once the skipped prefix is as long as the limit.
struct BoundedStack<Element: Equatable & Sendable>: Equatable, Sendable {
    let limit: Int
    private var storage: [Element] = []
    private var start = 0

    init(limit: Int) { self.limit = limit }

    var count: Int { storage.count - start }
    var isEmpty: Bool { count == 0 }
    var last: Element? { isEmpty ? nil : storage.last }
    var elements: [Element] { Array(storage[start...]) }

    mutating func push(_ element: Element) {
        guard limit > 0 else { return }
        storage.append(element)
        if count > limit {
            start += 1
            if start >= limit {
                storage.removeFirst(start)
                start = 0
            }
        }
    }

    mutating func pop() -> Element? {
        guard !isEmpty else { return nil }
        return storage.popLast()
    }

    static func == (a: Self, b: Self) -> Bool { a.limit == b.limit && a.elements == b.elements }
}
