/// Puts a few tiles home together (docs/solver.md, "Big boards"): weighted A* over the
/// positions of (empty cell, up to three tiles), the other free tiles moving as the
/// empty cell passes and the fixed cells never entered. Every move counts one, so a
/// route found is a real sequence of moves on the board.
///
/// The estimate is the tiles' Manhattan distance from home plus the empty cell's
/// distance to the nearest tile not yet home, less one; f = g + 2 h (weighted, so not
/// always shortest, but thousands of nodes instead of millions; on seeded boards the
/// lines came out shorter than with f = g + 1.5 h or g + h, whose searches more often
/// ran out of expansions).
final class GroupSearch {
    let side: Int
    /// Expansions left for every search of this object: past them, `route` says nil.
    private(set) var expansionsLeft: Int
    private let capacity: Int
    private let shift: UInt32
    private let keys: UnsafeMutablePointer<UInt32>
    private let parents: UnsafeMutablePointer<UInt32>
    private let costs: UnsafeMutablePointer<UInt16>
    private let stamps: UnsafeMutablePointer<UInt32>
    private var generation: UInt32 = 0
    private var buckets: [[UInt64]] = []

    /// `expansions`: the total for all searches; a search also stops at `perSearch`.
    init(side: Int, expansions: Int, tableBits: Int = 17) {
        self.side = side
        expansionsLeft = expansions
        capacity = 1 << tableBits
        shift = UInt32(32 - tableBits)
        keys = .allocate(capacity: capacity)
        parents = .allocate(capacity: capacity)
        costs = .allocate(capacity: capacity)
        stamps = .allocate(capacity: capacity)
        stamps.initialize(repeating: 0, count: capacity)
    }

    deinit {
        keys.deallocate()
        parents.deallocate()
        costs.deallocate()
        stamps.deallocate()
    }

    /// The slot of `key` in the table: where it is, or the free slot it would take.
    @inline(__always)
    private func slot(_ key: UInt32) -> Int {
        var i = Int((key &* 0x9E37_79B1) >> shift)
        while stamps[i] == generation && keys[i] != key { i = (i + 1) & (capacity - 1) }
        return i
    }

    @inline(__always)
    private func distance(_ a: Int, _ b: Int) -> Int {
        abs(a / side - b / side) + abs(a % side - b % side)
    }

    private func estimate(_ key: UInt32, homes: [Int]) -> Int {
        let empty = Int(key & 0xFF)
        var sum = 0
        var nearest = Int.max
        for (i, home) in homes.enumerated() {
            let at = Int(key >> (8 * UInt32(i + 1)) & 0xFF)
            let d = distance(at, home)
            if d > 0 {
                sum += d
                nearest = min(nearest, distance(empty, at))
            }
        }
        return sum == 0 ? 0 : sum + nearest - 1
    }

    /// The empty cell's successive positions on a route that brings the tiles at
    /// `tiles` (cells) to `homes`, never entering a cell where `fixed` is true; nil when
    /// none is found within `perSearch` expansions (or what is left of the total).
    func route(empty: Int, tiles: [Int], homes: [Int], fixed: [Bool], perSearch: Int) -> [Int]? {
        precondition(tiles.count == homes.count && (1...3).contains(tiles.count) && side <= 16)
        generation &+= 1
        if generation == 0 {
            stamps.update(repeating: 0, count: capacity)
            generation = 1
        }
        var origin = UInt32(empty)
        for (i, cell) in tiles.enumerated() { origin |= UInt32(cell) << (8 * UInt32(i + 1)) }
        let start = slot(origin)
        (keys[start], parents[start], costs[start], stamps[start]) = (origin, origin, 0, generation)
        var stored = 1
        let firstF = 2 * estimate(origin, homes: homes)
        if buckets.count <= firstF { buckets += [[UInt64]](repeating: [], count: firstF + 1 - buckets.count) }
        for i in buckets.indices { buckets[i].removeAll(keepingCapacity: true) }
        buckets[firstF].append(UInt64(origin))
        var f = firstF
        var expanded = 0
        let limit = min(perSearch, expansionsLeft)
        defer { expansionsLeft -= expanded }
        while f < buckets.count {
            guard let entry = buckets[f].popLast() else { f += 1; continue }
            let key = UInt32(truncatingIfNeeded: entry)
            let g = Int(entry >> 32)
            let at = slot(key)
            if Int(costs[at]) < g { continue }
            let h = estimate(key, homes: homes)
            if h == 0 { return path(to: key) }
            expanded += 1
            if expanded > limit || stored > capacity / 2 { return nil }
            let from = Int(key & 0xFF)
            for k in 0..<4 {
                let to = gridNeighbour(k, of: from, side: side)
                if to < 0 || fixed[to] { continue }
                var child = UInt32(to)
                for i in 0..<homes.count {
                    let cell = Int(key >> (8 * UInt32(i + 1)) & 0xFF)
                    child |= UInt32(cell == to ? from : cell) << (8 * UInt32(i + 1))
                }
                let i = slot(child)
                if stamps[i] == generation && Int(costs[i]) <= g + 1 { continue }
                if stamps[i] != generation { stored += 1 }
                (keys[i], parents[i], costs[i], stamps[i]) = (child, key, UInt16(g + 1), generation)
                let childF = g + 1 + 2 * estimate(child, homes: homes)
                if buckets.count <= childF { buckets += [[UInt64]](repeating: [], count: childF + 1 - buckets.count) }
                buckets[childF].append(UInt64(g + 1) << 32 | UInt64(child))
                f = min(f, childF)
            }
        }
        return nil
    }

    private func path(to goal: UInt32) -> [Int] {
        var cells: [Int] = []
        var key = goal
        while true {
            let parent = parents[slot(key)]
            if parent == key { break }
            cells.append(Int(key & 0xFF))
            key = parent
        }
        return cells.reversed()
    }
}
