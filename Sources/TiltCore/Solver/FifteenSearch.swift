/// Optimal 4×4 search: IDA* guided by the additive pattern databases, taking the
/// largest of the lookups of each partition on the board and on its mirror image
/// across the main diagonal (docs/solver.md, "4×4").
///
/// The mirror works with the same tables: transposing a board whose goal is symmetric
/// (the empty cell's home, 15, is on the diagonal) gives a board at the same distance,
/// whose groups are other tiles of the original. The heuristic is updated per move:
/// one tile moves, so one group of each partition changes, normal and mirrored. Every
/// partition's bound is the board's Manhattan distance plus twice its groups' half
/// excesses (`PatternTable`), so the search tracks one Manhattan distance and a sum of
/// excesses per lookup. A move that completes a sequence with an earlier equivalent is
/// skipped (`MoveAutomaton`): about a quarter fewer nodes (docs/solver.md).
struct FifteenSearch {
    /// Moves searched (node expansions) so far, over all iterations.
    private(set) var nodes = 0
    private let database: PatternDatabase
    private let automaton: MoveAutomaton

    /// `automaton`: the duplicate paths not searched (`MoveAutomaton`).
    init(database: PatternDatabase, automaton: MoveAutomaton) {
        self.database = database
        self.automaton = automaton
    }

    /// The empty cell's successive positions on a shortest path to the goal; nil if the
    /// deadline passed first. `board` is 16 cells, tile 15 the empty cell.
    mutating func solve(_ board: [UInt8], deadline: Double, clock: () -> Double) -> [Int]? {
        let (path, nodes) = withoutActuallyEscaping(clock) { clock in
            Self.withEntries(database.tables[...], []) { entries in
                automaton.transitions.withUnsafeBufferPointer { transitions in
                    var walk = Walk(entries: entries, transitions: transitions.baseAddress!, deadline: deadline, clock: clock)
                    defer { walk.release() }
                    return (walk.solve(board), walk.nodes)
                }
            }
        }
        self.nodes += nodes
        return path
    }

    /// Calls `body` with a pointer to each table's entries, valid for the call.
    private static func withEntries<R>(_ tables: ArraySlice<PatternTable>, _ entries: [UnsafePointer<UInt8>],
                                       _ body: ([UnsafePointer<UInt8>]) -> R) -> R {
        guard let first = tables.first else { return body(entries) }
        return first.entries.withUnsafeBufferPointer { withEntries(tables.dropFirst(), entries + [$0.baseAddress!], body) }
    }
}

/// The search's state: plain pointers and scalars in a struct, so that the recursion
/// runs without allocation, reference counting or dynamic exclusivity checks.
private struct Walk {
    var nodes = 0
    var timedOut = false
    /// Lookups: per partition, the board (2k) and its mirror (2k + 1).
    /// A literal, checked in `init`: computed from `partitions`, it was a lazily set
    /// global, read through a call at every node, and the loops' count unknown to the
    /// compiler (about 10 % of the search's time).
    static let lookups = 4
    /// Per lookup and group (3 · lookup + group): the table's entries and the current index.
    let entries = UnsafeMutablePointer<UnsafePointer<UInt8>>.allocate(capacity: 3 * lookups)
    let index = UnsafeMutablePointer<Int>.allocate(capacity: 3 * lookups)
    /// Per lookup and group: the half excess at the current index.
    let half = UnsafeMutablePointer<Int>.allocate(capacity: 3 * lookups)
    /// Per lookup: the sum of its groups' half excesses.
    let excess = UnsafeMutablePointer<Int>.allocate(capacity: lookups)
    /// Per tile and lookup (tile · lookups + lookup): the group it changes and the digit
    /// weight (16^k) of the tile (for a mirror lookup, of its mirror image).
    let group = UnsafeMutablePointer<Int>.allocate(capacity: 16 * lookups)
    let weight = UnsafeMutablePointer<Int>.allocate(capacity: 16 * lookups)
    /// Per tile and cell (tile · 16 + cell): the tile's Manhattan distance from home.
    let distance = UnsafeMutablePointer<Int>.allocate(capacity: 256)
    let cells = UnsafeMutablePointer<UInt8>.allocate(capacity: 16)
    let transposed = UnsafeMutablePointer<Int>.allocate(capacity: 16)
    /// Each cell's neighbours, four slots, -1 for none.
    let neighbours = UnsafeMutablePointer<Int>.allocate(capacity: 64)
    /// The empty cell's position after each move of the current path.
    let path = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
    /// Scratch for each depth of the recursion, `4 · lookups` values (see `search`).
    let frames = UnsafeMutablePointer<Int>.allocate(capacity: 256 * 4 * Walk.lookups)
    var empty = 0
    var manhattan = 0
    var bound = 0
    /// The duplicate-path automaton's transitions (`MoveAutomaton`).
    let transitions: UnsafePointer<Int32>
    let deadline: Double
    let clock: () -> Double
    static let found = -1

    init(entries tables: [UnsafePointer<UInt8>], transitions: UnsafePointer<Int32>, deadline: Double, clock: @escaping () -> Double) {
        self.transitions = transitions
        precondition(Self.lookups == 2 * PatternDatabase.partitions.count, "a board and its mirror per partition")
        self.deadline = deadline
        self.clock = clock
        for cell in 0..<16 {
            let (row, column) = (cell / 4, cell % 4)
            transposed[cell] = column * 4 + row
            // In `gridNeighbour`'s order, which `MoveAutomaton` numbers its moves by.
            for k in 0..<4 { neighbours[cell * 4 + k] = gridNeighbour(k, of: cell, side: 4) }
            for tile in 0..<16 { distance[tile * 16 + cell] = abs(tile / 4 - row) + abs(tile % 4 - column) }
        }
        for (p, partition) in PatternDatabase.partitions.enumerated() {
            var groupOfTile = [Int](repeating: 0, count: 16)
            var weightOfTile = [Int](repeating: 0, count: 16)
            for (g, tiles) in partition.enumerated() {
                for (slot, tile) in tiles.enumerated() {
                    groupOfTile[Int(tile)] = g
                    weightOfTile[Int(tile)] = 1 << (4 * (PatternDatabase.tilesPerGroup - 1 - slot))
                }
                entries[3 * (2 * p) + g] = tables[3 * p + g]
                entries[3 * (2 * p + 1) + g] = tables[3 * p + g]
            }
            for tile in 0..<16 {
                group[tile * Self.lookups + 2 * p] = 3 * (2 * p) + groupOfTile[tile]
                weight[tile * Self.lookups + 2 * p] = weightOfTile[tile]
                // Tile t's mirror image is the tile whose home is the transpose of t's home.
                let image = transposed[tile]
                group[tile * Self.lookups + 2 * p + 1] = 3 * (2 * p + 1) + groupOfTile[image]
                weight[tile * Self.lookups + 2 * p + 1] = weightOfTile[image]
            }
        }
    }

    func release() {
        for pointer in [index, half, excess, group, weight, distance, transposed, neighbours, frames] { pointer.deallocate() }
        entries.deallocate()
        cells.deallocate()
        path.deallocate()
    }

    @inline(__always)
    func halfExcess(_ g: Int, _ index: Int) -> Int { PatternTable.halfExcess(entries[g], index: index) }

    mutating func solve(_ board: [UInt8]) -> [Int]? {
        manhattan = 0
        for k in 0..<(3 * Self.lookups) { index[k] = 0 }
        for cell in 0..<16 {
            let tile = Int(board[cell])
            cells[cell] = board[cell]
            if tile == 15 { empty = cell; continue }
            manhattan += distance[tile * 16 + cell]
            for lookup in 0..<Self.lookups {
                let place = lookup % 2 == 0 ? cell : transposed[cell]
                index[group[tile * Self.lookups + lookup]] += place * weight[tile * Self.lookups + lookup]
            }
        }
        for g in 0..<(3 * Self.lookups) { half[g] = halfExcess(g, index[g]) }
        for lookup in 0..<Self.lookups { excess[lookup] = half[3 * lookup] + half[3 * lookup + 1] + half[3 * lookup + 2] }
        bound = manhattan + 2 * largestExcess()
        while true {
            let result = search(depth: 0, previous: -1, state: MoveAutomaton.start)
            if result == Self.found { return (0..<bound).map { Int(path[$0]) } }
            if timedOut { return nil }
            bound = result
        }
    }

    @inline(__always)
    func largestExcess() -> Int {
        var largest = excess[0]
        for lookup in 1..<Self.lookups where excess[lookup] > largest { largest = excess[lookup] }
        return largest
    }

    /// Depth-first search under `bound`: `found`, or the smallest f above the bound.
    /// `state`: the duplicate-path automaton's, after the moves that led here.
    mutating func search(depth: Int, previous: Int, state: Int32) -> Int {
        let h = manhattan &+ 2 &* largestExcess()
        if depth + h > bound { return depth + h }
        if h == 0 { return Self.found }
        nodes += 1
        if nodes & 0xFFFF == 0, clock() > deadline {
            timedOut = true
            return Int.max
        }
        var smallest = Int.max
        let from = empty
        let lookups = Self.lookups
        // This depth's frame: per lookup, the changed group's index after the move, the
        // lookup's excess after it, and both before it.
        let moved = frames + depth &* 4 &* lookups
        let changed = moved + lookups
        let savedIndex = changed + lookups
        let savedExcess = savedIndex + lookups
        for k in 0..<4 {
            let to = neighbours[from &* 4 &+ k]
            if to < 0 || to == previous { continue }
            let nextState = transitions[Int(state) &* 4 &+ k]
            if nextState < 0 { continue }
            // The tile at `to` slides into the empty cell at `from`.
            let tile = Int(cells[to])
            let row = tile &* lookups
            let manhattanStep = distance[tile &* 16 &+ from] &- distance[tile &* 16 &+ to]
            let step = from &- to
            let mirrorStep = transposed[from] &- transposed[to]
            // Prune here rather than one call deeper: most children are over the bound,
            // and most of those already by the first lookup, so the others are skipped.
            let base = depth &+ 1 &+ manhattan &+ manhattanStep
            var childBound = Int.min
            for lookup in 0..<lookups {
                let g = group[row &+ lookup]
                moved[lookup] = index[g] &+ (lookup & 1 == 0 ? step : mirrorStep) &* weight[row &+ lookup]
                changed[lookup] = excess[lookup] &+ halfExcess(g, moved[lookup]) &- half[g]
                childBound = max(childBound, base &+ 2 &* changed[lookup])
                if childBound > bound { break }
            }
            if childBound > bound {
                if childBound < smallest { smallest = childBound }
                continue
            }
            for lookup in 0..<lookups {
                let g = group[row &+ lookup]
                savedIndex[lookup] = index[g]
                savedExcess[lookup] = excess[lookup]
                index[g] = moved[lookup]
                half[g] = halfExcess(g, moved[lookup])
                excess[lookup] = changed[lookup]
            }
            manhattan &+= manhattanStep
            cells[from] = UInt8(truncatingIfNeeded: tile)
            cells[to] = 15
            empty = to
            path[depth] = UInt8(truncatingIfNeeded: to)

            let result = search(depth: depth &+ 1, previous: from, state: nextState)

            empty = from
            cells[to] = UInt8(truncatingIfNeeded: tile)
            cells[from] = 15
            manhattan &-= manhattanStep
            for lookup in 0..<lookups {
                let g = group[row &+ lookup]
                index[g] = savedIndex[lookup]
                half[g] = halfExcess(g, savedIndex[lookup])
                excess[lookup] = savedExcess[lookup]
            }
            if result == Self.found { return Self.found }
            if timedOut { return Int.max }
            if result < smallest { smallest = result }
        }
        return smallest
    }
}
