// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore

/// Optimal search for small boards (2×2, 3×3): IDA* with the Manhattan distance plus
/// linear conflicts (docs/solver.md, "Small boards").
///
/// Linear conflicts: in a row, the tiles whose home is that row keep their left-to-right
/// order unless some leave the row, and each that leaves costs two extra moves. At
/// least (tiles − longest run already in order) must leave, so twice that is added;
/// the same for columns. Row and column detours are different moves, so both add.
struct ManhattanSearch {
    let side: Int
    private(set) var nodes = 0
    private var cells: [Int]
    private var empty: Int
    private var path: [Int] = []
    private var manhattan = 0
    private var nodeLimit = Int.max
    /// Where each tile must end, when not the solved board (then without linear
    /// conflicts, which are counted against the tiles' own homes).
    private let target: [Int]?
    /// Each tile's distance from its target cell, indexed by tile · cells + cell.
    private let distances: [Int]

    /// `target`: the cell each tile must reach (indexed by tile); nil for solved.
    init(cells: [UInt8], side: Int, target: [Int]? = nil) {
        self.side = side
        self.target = target
        self.cells = cells.map(Int.init)
        empty = self.cells.firstIndex(of: side * side - 1)!
        let count = side * side
        distances = (0..<(count * count)).map { index in
            let (home, cell) = (target?[index / count] ?? index / count, index % count)
            return abs(home / side - cell / side) + abs(home % side - cell % side)
        }
        manhattan = 0
        for cell in 0..<cells.count where self.cells[cell] != side * side - 1 {
            manhattan += distance(tile: self.cells[cell], at: cell)
        }
    }

    @inline(__always)
    private func distance(tile: Int, at cell: Int) -> Int { distances[tile * side * side + cell] }

    /// The heuristic for the current cells.
    func lowerBound() -> Int { target == nil ? manhattan + linearConflicts() : manhattan }

    func linearConflicts() -> Int {
        var extra = 0
        var homes: [Int] = []
        for line in 0..<side {
            // Row `line`: tiles at home in this row, by their home column, left to right.
            homes.removeAll(keepingCapacity: true)
            for column in 0..<side {
                let tile = cells[line * side + column]
                if tile != side * side - 1, tile / side == line { homes.append(tile % side) }
            }
            extra += homes.count - Self.longestIncreasingRun(homes)
            homes.removeAll(keepingCapacity: true)
            for row in 0..<side {
                let tile = cells[row * side + line]
                if tile != side * side - 1, tile % side == line { homes.append(tile / side) }
            }
            extra += homes.count - Self.longestIncreasingRun(homes)
        }
        return 2 * extra
    }

    /// The length of the longest strictly increasing subsequence (lines are at most 10 long).
    static func longestIncreasingRun(_ values: [Int]) -> Int {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: values.count) { best in
            var longest = 0
            for i in values.indices {
                best[i] = 1
                for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) }
                longest = max(longest, best[i])
            }
            return longest
        }
    }

    /// The empty cell's successive positions on a shortest path; nil if `deadline`
    /// passed, about `nodeLimit` nodes were searched (counted in steps of 1,024), or
    /// the path would be longer than `longest`.
    mutating func solve(deadline: Double, nodeLimit: Int = .max, longest: Int = .max, clock: () -> Double) -> [Int]? {
        var bound = lowerBound()
        self.nodeLimit = nodeLimit
        while bound <= longest {
            let result = search(depth: 0, previous: -1, bound: bound, deadline: deadline, clock: clock)
            if result == -1 { return path }
            if result == Int.max { return nil }
            bound = result
        }
        return nil
    }

    private mutating func search(depth: Int, previous: Int, bound: Int, deadline: Double, clock: () -> Double) -> Int {
        let h = manhattan == 0 || target != nil ? manhattan : manhattan + linearConflicts()
        if depth + h > bound { return depth + h }
        if h == 0 { return -1 }
        nodes += 1
        if nodes & 0x3FF == 0, nodes >= nodeLimit || clock() > deadline { return Int.max }
        var smallest = Int.max - 1
        let from = empty
        for k in 0..<4 {
            let to = gridNeighbour(k, of: from, side: side)
            if to < 0 || to == previous { continue }
            let tile = cells[to]
            let change = distance(tile: tile, at: from) - distance(tile: tile, at: to)
            cells[from] = tile
            cells[to] = side * side - 1
            empty = to
            manhattan += change
            path.append(to)
            let result = search(depth: depth + 1, previous: from, bound: bound, deadline: deadline, clock: clock)
            if result == -1 { return -1 }
            path.removeLast()
            manhattan -= change
            empty = from
            cells[to] = tile
            cells[from] = side * side - 1
            if result == Int.max { return Int.max }
            smallest = min(smallest, result)
        }
        return smallest
    }
}
