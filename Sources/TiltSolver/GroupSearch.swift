// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore

/// Puts a few tiles home together (docs/solver.md, "Big boards"): weighted A* over the
/// positions of (empty cell, up to three tiles), the other free tiles moving as the
/// empty cell passes and the fixed cells never entered. Every move counts one, so a
/// route found is a real sequence of moves on the board.
///
/// The estimate counts what each tile not yet home would cost by itself (`Costs`: a
/// tile steps on by about five moves in a straight line, three on a staircase) plus the
/// empty cell's distance to the nearest of them; f = g + h. It is not a lower bound, so
/// a route is not always shortest, but a few hundred expansions find one where the
/// Manhattan distance (even doubled) needed thousands: on 10×10 the searches used to
/// run out of expansions and the lines fell back to tile by tile.
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
    /// `variants`: the costs a reduction tries in turn (the first is the default).
    init(side: Int, expansions: Int, variants: [Costs] = [Costs(straight: 5, turn: 3, weight: 4)], tableBits: Int = 17) {
        self.side = side
        self.variants = variants
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

    /// When the searches must stop: past `deadline` on `clock` (read every 1,024
    /// expansions) they stop as when out of expansions; no clock, no deadline.
    struct Stop {
        var clock: (() -> Double)?
        var deadline = Double.infinity

        static var never: Stop { Stop() }
    }

    /// What one search runs under, given with each call so that no search runs with
    /// another's: the costs it weighs the tiles' ways with, and when to stop.
    struct Settings {
        var weighting: Costs
        var stop = Stop.never
    }

    /// How a search weighs a tile's way home: with the empty cell in front of it, a tile
    /// steps on by `straight` moves in the same direction (the empty cell goes round it)
    /// and by `turn` when it turns (about 5 and 3 on an open board); the estimate is
    /// `weight` / 4 times the sum over the tiles not yet home, plus the empty cell's
    /// distance to the nearest of them.
    struct Costs: Sendable, Equatable {
        var straight: Int, turn: Int, weight: Int
    }

    /// The costs a reduction tries in turn (docs/solver.md, "Big boards").
    let variants: [Costs]

    /// Indexed by tile (0..<3) · cells + cell: what bringing that tile home from that
    /// cell costs by itself, under the search's costs (filled per search).
    private var tileCost: [Int] = []
    private var homeCells: [Int] = []

    private func fillCosts(homes: [Int], _ weighting: Costs) {
        let count = side * side
        tileCost.removeAll(keepingCapacity: true)
        tileCost.append(contentsOf: repeatElement(0, count: homes.count * count))
        homeCells = homes
        for (i, home) in homes.enumerated() {
            for cell in 0..<count {
                let (rows, columns) = (abs(cell / side - home / side), abs(cell % side - home % side))
                let (turns, along) = (min(rows, columns), max(rows, columns))
                // The first step is one move (the empty cell's way to the tile is counted apart),
                // then a staircase of 2 × turns steps and the rest straight on.
                if rows + columns > 0 {
                    tileCost[i * count + cell] = weighting.turn * 2 * turns + weighting.straight * (along - turns) - (weighting.straight - 1)
                }
            }
        }
    }

    /// The estimate of moves left: 0 only when every tile is home.
    @inline(__always)
    private func estimate(_ key: UInt32, weight: Int) -> Int {
        let empty = Int(key & 0xFF)
        let count = side * side
        var sum = 0
        var nearest = Int.max
        for i in 0..<homeCells.count {
            let at = Int(key >> (8 * UInt32(i + 1)) & 0xFF)
            if at != homeCells[i] {
                sum += tileCost[i * count + at]
                nearest = min(nearest, distance(empty, at))
            }
        }
        if nearest == Int.max { return 0 }
        return (weight * (sum + nearest - 1) + 1) / 4 + 1
    }

    /// The empty cell's successive positions on a route that brings the tiles at
    /// `tiles` (cells) to `homes`, never entering a cell where `fixed` is true; nil when
    /// none is found within `perSearch` expansions (or what is left of the total), or
    /// before `settings.stop`.
    func route(empty: Int, tiles: [Int], homes: [Int], fixed: [Bool], perSearch: Int, settings: Settings) -> [Int]? {
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
        fillCosts(homes: homes, settings.weighting)
        let weight = settings.weighting.weight
        let firstF = estimate(origin, weight: weight)
        var buckets = self.buckets
        self.buckets = []
        defer { self.buckets = buckets }
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
            let h = estimate(key, weight: weight)
            if h == 0 { return path(to: key) }
            expanded += 1
            if expanded > limit || stored > capacity / 2 { return nil }
            if expanded & 0x3FF == 0, let clock = settings.stop.clock, clock() > settings.stop.deadline {
                expanded = expansionsLeft
                return nil
            }
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
                let childF = g + 1 + estimate(child, weight: weight)
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
