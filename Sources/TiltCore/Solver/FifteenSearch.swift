/// Optimal 4×4 search: IDA* guided by the additive pattern databases, taking the larger
/// of the lookup on the board and on its mirror image across the main diagonal
/// (docs/solver.md, "4×4").
///
/// The mirror works with the same tables: transposing a board whose goal is symmetric
/// (the empty cell's home, 15, is on the diagonal) gives a board at the same distance,
/// whose groups are other tiles of the original. The heuristic is updated per move:
/// one tile moves, so one normal and one mirror entry change.
struct FifteenSearch {
    /// Moves searched (node expansions) so far, over all iterations.
    private(set) var nodes = 0
    private let database: PatternDatabase

    init(database: PatternDatabase) { self.database = database }

    /// The empty cell's successive positions on a shortest path to the goal; nil if the
    /// deadline passed first. `board` is 16 cells, tile 15 the empty cell.
    mutating func solve(_ board: [UInt8], deadline: Double, clock: () -> Double) -> [Int]? {
        let (path, nodes) = withoutActuallyEscaping(clock) { clock in
            database.tables.withUnsafeBufferPointer { tables in
                var walk = Walk(tables: tables.baseAddress!, deadline: deadline, clock: clock)
                defer { walk.release() }
                return (walk.solve(board), walk.nodes)
            }
        }
        self.nodes += nodes
        return path
    }
}

/// The search's state: plain pointers and scalars in a struct, so that the recursion
/// runs without allocation, reference counting or dynamic exclusivity checks.
private struct Walk {
    var nodes = 0
    var timedOut = false
    let tables: UnsafePointer<UInt8>
    let cells = UnsafeMutablePointer<UInt8>.allocate(capacity: 16)
    /// Per tile: the table (0..<3) and digit weight (16^k) of its group, and the same
    /// for the group its mirror image belongs to, counted as tables 3..<6.
    let group = UnsafeMutablePointer<Int>.allocate(capacity: 16)
    let weight = UnsafeMutablePointer<Int>.allocate(capacity: 16)
    let mirrorGroup = UnsafeMutablePointer<Int>.allocate(capacity: 16)
    let mirrorWeight = UnsafeMutablePointer<Int>.allocate(capacity: 16)
    let transposed = UnsafeMutablePointer<Int>.allocate(capacity: 16)
    /// Each cell's neighbours, four slots, -1 for none.
    let neighbours = UnsafeMutablePointer<Int>.allocate(capacity: 64)
    /// Per table (normal 0..<3, mirror 3..<6): the current index, with the table's
    /// offset in the tables folded in, and the value found there.
    let index = UnsafeMutablePointer<Int>.allocate(capacity: 6)
    let value = UnsafeMutablePointer<Int>.allocate(capacity: 6)
    /// The empty cell's position after each move of the current path.
    let path = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
    var empty = 0
    var normalSum = 0
    var mirrorSum = 0
    var bound = 0
    let deadline: Double
    let clock: () -> Double
    static let found = -1
    static let tableSize = 1 << 20

    init(tables: UnsafePointer<UInt8>, deadline: Double, clock: @escaping () -> Double) {
        self.tables = tables
        self.deadline = deadline
        self.clock = clock
        for cell in 0..<16 {
            let (row, column) = (cell / 4, cell % 4)
            transposed[cell] = column * 4 + row
            let candidates = [row > 0 ? cell - 4 : -1, row < 3 ? cell + 4 : -1,
                              column > 0 ? cell - 1 : -1, column < 3 ? cell + 1 : -1]
            for k in 0..<4 { neighbours[cell * 4 + k] = candidates[k] }
        }
        var groupOfTile = [Int](repeating: 0, count: 16)
        var weightOfTile = [Int](repeating: 0, count: 16)
        for (g, tiles) in PatternDatabase.groups.enumerated() {
            for (slot, tile) in tiles.enumerated() {
                groupOfTile[Int(tile)] = g
                weightOfTile[Int(tile)] = 1 << (4 * (PatternDatabase.tilesPerGroup - 1 - slot))
            }
        }
        for tile in 0..<16 {
            group[tile] = groupOfTile[tile]
            weight[tile] = weightOfTile[tile]
            // Tile t's mirror image is the tile whose home is the transpose of t's home.
            let image = transposed[tile]
            mirrorGroup[tile] = 3 + groupOfTile[image]
            mirrorWeight[tile] = weightOfTile[image]
        }
    }

    func release() {
        for pointer in [group, weight, mirrorGroup, mirrorWeight, transposed, neighbours, index, value] {
            pointer.deallocate()
        }
        cells.deallocate()
        path.deallocate()
    }

    mutating func solve(_ board: [UInt8]) -> [Int]? {
        for cell in 0..<16 {
            cells[cell] = board[cell]
            if board[cell] == 15 { empty = cell }
        }
        for k in 0..<6 { index[k] = (k % 3) * Self.tableSize }
        for cell in 0..<16 where cells[cell] != 15 {
            let tile = Int(cells[cell])
            index[group[tile]] += cell * weight[tile]
            index[mirrorGroup[tile]] += transposed[cell] * mirrorWeight[tile]
        }
        normalSum = 0
        mirrorSum = 0
        for k in 0..<6 {
            value[k] = Int(tables[index[k]])
            if k < 3 { normalSum += value[k] } else { mirrorSum += value[k] }
        }
        bound = max(normalSum, mirrorSum)
        while true {
            let result = search(depth: 0, previous: -1)
            if result == Self.found { return (0..<bound).map { Int(path[$0]) } }
            if timedOut { return nil }
            bound = result
        }
    }

    /// Depth-first search under `bound`: `found`, or the smallest f above the bound.
    mutating func search(depth: Int, previous: Int) -> Int {
        let h = max(normalSum, mirrorSum)
        if depth + h > bound { return depth + h }
        if h == 0 { return Self.found }
        nodes += 1
        if nodes & 0xFFFF == 0, clock() > deadline {
            timedOut = true
            return Int.max
        }
        var smallest = Int.max
        let from = empty
        for k in 0..<4 {
            let to = neighbours[from &* 4 &+ k]
            if to < 0 || to == previous { continue }
            // The tile at `to` slides into the empty cell at `from`.
            let tile = Int(cells[to])
            let normal = group[tile]
            let mirror = mirrorGroup[tile]
            let oldNormal = value[normal]
            let oldMirror = value[mirror]
            let normalStep = (from &- to) &* weight[tile]
            let mirrorStep = (transposed[from] &- transposed[to]) &* mirrorWeight[tile]
            index[normal] &+= normalStep
            index[mirror] &+= mirrorStep
            let newNormal = Int(tables[index[normal]])
            let newMirror = Int(tables[index[mirror]])
            // Prune here rather than one call deeper: most children are over the bound.
            let childBound = depth &+ 1 &+ max(normalSum &+ newNormal &- oldNormal, mirrorSum &+ newMirror &- oldMirror)
            if childBound > bound {
                index[normal] &-= normalStep
                index[mirror] &-= mirrorStep
                if childBound < smallest { smallest = childBound }
                continue
            }
            value[normal] = newNormal
            value[mirror] = newMirror
            normalSum &+= newNormal &- oldNormal
            mirrorSum &+= newMirror &- oldMirror
            cells[from] = UInt8(truncatingIfNeeded: tile)
            cells[to] = 15
            empty = to
            path[depth] = UInt8(truncatingIfNeeded: to)

            let result = search(depth: depth &+ 1, previous: from)

            empty = from
            cells[to] = UInt8(truncatingIfNeeded: tile)
            cells[from] = 15
            normalSum &-= newNormal &- oldNormal
            mirrorSum &-= newMirror &- oldMirror
            value[normal] = oldNormal
            value[mirror] = oldMirror
            index[normal] &-= normalStep
            index[mirror] &-= mirrorStep
            if result == Self.found { return Self.found }
            if timedOut { return Int.max }
            if result < smallest { smallest = result }
        }
        return smallest
    }
}
