// SPDX-License-Identifier: GPL-3.0-or-later
/// One group's pattern table in four bits per entry (docs/solver.md, "Tables in memory").
///
/// A group's distance is its tiles' Manhattan distance plus an even excess: each move
/// of a group tile changes both by one. The excess is small (at most 10 for these
/// groups), so each entry keeps half of it in a nibble, and the search adds the
/// Manhattan distance it tracks anyway. Halves the memory of a byte per entry, with
/// the exact distance recovered.
struct PatternTable: Sendable, Equatable {
    /// Two entries per byte: index i in the low nibble of byte i / 2 when i is even.
    let entries: [UInt8]

    static let byteCount = PatternDatabase.entriesPerTable / 2

    init(entries: [UInt8]) { self.entries = entries }

    /// Compresses a builder's table: distances by index, `unused` where no placement is.
    init(distances: [UInt8], group: [UInt8]) {
        var entries = [UInt8](repeating: 0, count: Self.byteCount)
        for index in distances.indices where distances[index] != PatternDatabase.unused {
            let half = (Int(distances[index]) - Self.manhattan(index: index, group: group)) / 2
            precondition(half >= 0 && half < 16, "a pattern distance's excess over Manhattan does not fit in four bits")
            entries[index >> 1] |= UInt8(half) << UInt8(4 * (index & 1))
        }
        self.entries = entries
    }

    /// Half the excess of the placement at `index` over its Manhattan distance.
    @inline(__always)
    static func halfExcess(_ entries: UnsafePointer<UInt8>, index: Int) -> Int {
        Int(truncatingIfNeeded: entries[index >> 1] >> UInt8(truncatingIfNeeded: 4 * (index & 1))) & 15
    }

    /// The group's distance for the placement at `index`.
    func distance(index: Int, group: [UInt8]) -> Int {
        let half = entries.withUnsafeBufferPointer { Self.halfExcess($0.baseAddress!, index: index) }
        return Self.manhattan(index: index, group: group) + 2 * half
    }

    /// The Manhattan distance of the group's tiles placed as `index` says.
    static func manhattan(index: Int, group: [UInt8]) -> Int {
        var total = 0
        for (slot, tile) in group.enumerated() {
            let cell = index >> (4 * (group.count - 1 - slot)) & 15
            total += abs(cell / 4 - Int(tile) / 4) + abs(cell % 4 - Int(tile) % 4)
        }
        return total
    }

    /// Whether `index` is a placement (no two tiles in one cell).
    static func isPlacement(_ index: Int) -> Bool {
        var taken: UInt16 = 0
        for slot in 0..<PatternDatabase.tilesPerGroup { taken |= 1 << UInt16(index >> (4 * slot) & 15) }
        return taken.nonzeroBitCount == PatternDatabase.tilesPerGroup
    }
}
