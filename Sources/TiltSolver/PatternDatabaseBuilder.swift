// SPDX-License-Identifier: GPL-3.0-or-later
/// Builds one pattern-database table (docs/solver.md, "Building the tables").
///
/// A breadth-first search backwards from the goal over (placement of the group's five
/// tiles, region of the empty cell). Moves of other tiles cost nothing, so the empty
/// cell roams freely within the region of cells not held by the group; a state is
/// therefore a placement plus that whole region, and one step is a group tile sliding
/// into a neighbouring cell of the region. The table keeps, per placement, the depth at
/// which it was first reached: the fewest group-tile moves over all empty-cell places.
enum PatternDatabaseBuilder {
    /// The table, or nil if `stop` says so (it is asked once a layer: tens of
    /// milliseconds apart at most in a release build).
    static func table(for group: [UInt8], stop: () -> Bool = { false }) -> [UInt8]? {
        let count = PatternDatabase.entriesPerTable
        var table = [UInt8](repeating: PatternDatabase.unused, count: count)
        // One bit per (placement, empty cell): whether that state's region was seen.
        var seen = [UInt64](repeating: 0, count: count * 16 / 64)
        var goalCells = [Int](repeating: 0, count: 16)
        for cell in 0..<16 { goalCells[cell] = cell }
        let goal = PatternDatabase.index(of: group, cellOfTile: goalCells)
        var occupied: UInt16 = 0
        for tile in group { occupied |= 1 << UInt16(tile) }
        let start = flood(from: 1 << 15, free: ~occupied)
        // A state in a layer: the placement index, then the region above bit 20.
        var layer: [UInt64] = [UInt64(goal) | UInt64(start) << 20]
        var next: [UInt64] = []
        var stopped = false
        table.withUnsafeMutableBufferPointer { table in
            seen.withUnsafeMutableBufferPointer { seen in
                markSeen(seen, index: goal, region: start)
                table[goal] = 0
                var depth: UInt8 = 0
                while !layer.isEmpty {
                    if stop() {
                        stopped = true
                        return
                    }
                    depth += 1
                    next.removeAll(keepingCapacity: true)
                    for state in layer {
                        expand(state, depth: depth, table: table, seen: seen, into: &next)
                    }
                    swap(&layer, &next)
                }
            }
        }
        return stopped ? nil : table
    }

    @inline(__always)
    private static func expand(_ state: UInt64, depth: UInt8, table: UnsafeMutableBufferPointer<UInt8>,
                               seen: UnsafeMutableBufferPointer<UInt64>, into next: inout [UInt64]) {
        let index = Int(state & 0xF_FFFF)
        let region = UInt16(truncatingIfNeeded: state >> 20)
        var occupied: UInt16 = 0
        for slot in 0..<5 { occupied |= 1 << UInt16((index >> (4 * slot)) & 15) }
        for slot in 0..<5 {
            let shift = 4 * slot
            let cell = (index >> shift) & 15
            // The cells next to this tile that the empty cell can reach.
            let targets = neighbours(of: cell) & region
            if targets == 0 { continue }
            var rest = targets
            while rest != 0 {
                let target = rest.trailingZeroBitCount
                rest &= rest - 1
                let moved = index + ((target - cell) << shift)
                // The empty cell is now where the tile was.
                if isSeen(seen, index: moved, cell: cell) { continue }
                let movedOccupied = occupied ^ (1 << UInt16(cell)) ^ (1 << UInt16(target))
                let movedRegion = flood(from: 1 << UInt16(cell), free: ~movedOccupied)
                markSeen(seen, index: moved, region: movedRegion)
                if table[moved] == PatternDatabase.unused { table[moved] = depth }
                next.append(UInt64(moved) | UInt64(movedRegion) << 20)
            }
        }
    }

    /// The cells next to `cell` on the 4×4 board, as a mask.
    @inline(__always)
    static func neighbours(of cell: Int) -> UInt16 {
        let bit = UInt16(1) << UInt16(cell)
        return ((bit << 1) & 0xEEEE) | ((bit >> 1) & 0x7777) | (bit << 4) | (bit >> 4)
    }

    /// The cells reachable from `seed` through `free` cells.
    @inline(__always)
    static func flood(from seed: UInt16, free: UInt16) -> UInt16 {
        var region = seed
        while true {
            let grown = (region | ((region << 1) & 0xEEEE) | ((region >> 1) & 0x7777)
                         | (region << 4) | (region >> 4)) & free
            if grown == region { return region }
            region = grown
        }
    }

    @inline(__always)
    private static func isSeen(_ seen: UnsafeMutableBufferPointer<UInt64>, index: Int, cell: Int) -> Bool {
        let bit = index << 4 | cell
        return seen[bit >> 6] & (1 << UInt64(bit & 63)) != 0
    }

    @inline(__always)
    private static func markSeen(_ seen: UnsafeMutableBufferPointer<UInt64>, index: Int, region: UInt16) {
        // The 16 bits of one placement are a 16-bit-aligned slice of one word.
        let bit = index << 4
        seen[bit >> 6] |= UInt64(region) << UInt64(bit & 63)
    }
}
