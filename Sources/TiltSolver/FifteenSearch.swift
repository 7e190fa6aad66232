// SPDX-License-Identifier: GPL-3.0-or-later
import Synchronization
import TiltCore

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
///
/// An iteration big enough is split over the threads of a `SearchTeam`: they share out
/// the subtrees below `splitDepth` and the answer is the one a single thread finds
/// (docs/solver.md, "Two cores").
struct FifteenSearch {
    /// Moves searched (node expansions) so far, over all iterations and threads.
    private(set) var nodes = 0
    private let database: PatternDatabase
    private let automaton: MoveAutomaton
    private let team: SearchTeam

    /// An iteration is split once the one before it expanded this many nodes: the next
    /// is several times larger, and smaller ones cost less than waking the helpers.
    static let splitAfter = 1_000
    /// The depth whose subtrees the threads share out: some hundreds of them, so that
    /// the threads end close together, while the path down to them, which every
    /// thread walks, stays a small part of the iteration.
    static let splitDepth = 11

    /// `automaton`: the duplicate paths not searched (`MoveAutomaton`); `team`: the
    /// threads big iterations are split over.
    init(database: PatternDatabase, automaton: MoveAutomaton, team: SearchTeam = .alone) {
        self.database = database
        self.automaton = automaton
        self.team = team
    }

    /// The empty cell's successive positions on a shortest path to the goal; nil if the
    /// deadline passed first. `board` is 16 cells, tile 15 the empty cell. Every thread
    /// of the team reads `clock`.
    mutating func solve(_ board: [UInt8], deadline: Double, clock: @Sendable () -> Double) -> [Int]? {
        let team = team
        let (path, nodes) = withoutActuallyEscaping(clock) { clock in
            Self.withEntries(database.tables[...], []) { entries in
                automaton.transitions.withUnsafeBufferPointer { transitions in
                    let walk = { Walk(entries: entries, transitions: transitions.baseAddress!, deadline: deadline, clock: clock) }
                    return Self.iterate(board, team: team, walk: walk)
                }
            }
        }
        self.nodes += nodes
        return path
    }

    /// IDA*'s iterations, each under the bound the one before found, alone or split.
    private static func iterate(_ board: [UInt8], team: SearchTeam, walk makeWalk: () -> Walk) -> (path: [Int]?, nodes: Int) {
        var walk = makeWalk()
        defer { walk.release() }
        var bound = walk.begin(board)
        var nodes = 0
        var lastIteration = 0
        while true {
            let outcome: Outcome
            if team.size > 1, lastIteration >= splitAfter {
                outcome = split(board, bound: bound, team: team, walk: makeWalk)
            } else {
                let before = walk.nodes
                walk.bound = bound
                let result = walk.search(depth: 0, previous: -1, state: MoveAutomaton.start)
                outcome = Outcome(result: result, nodes: walk.nodes - before, timedOut: walk.timedOut,
                                  path: result == Walk.found ? walk.currentPath : nil)
            }
            nodes += outcome.nodes
            lastIteration = outcome.nodes
            if let path = outcome.path { return (path, nodes) }
            if outcome.timedOut { return (nil, nodes) }
            bound = outcome.result
        }
    }

    /// What one iteration (or one thread's share of it) came to.
    private struct Outcome {
        /// `Walk.found`, or the smallest f over the bound.
        var result: Int
        var nodes: Int
        var timedOut: Bool
        var path: [Int]?
        /// Where the solution lies in the order a single thread searches (`Walk.rank`).
        var rank = Int.max
    }

    /// One iteration under `bound`, its subtrees at `splitDepth` shared out among the
    /// team's threads. Of the solutions found, the one a single thread would have found
    /// first is kept, so the answer does not depend on the threads' timing.
    private static func split(_ board: [UInt8], bound: Int, team: SearchTeam, walk makeWalk: () -> Walk) -> Outcome {
        let share = Share()
        let outcomes = UnsafeMutableBufferPointer<Outcome>.allocate(capacity: team.size)
        defer { outcomes.deallocate() }
        team.run { k in
            // Each thread's walk on its own stack and heap: no two threads write one cache line.
            var walk = makeWalk()
            defer { walk.release() }
            _ = walk.begin(board)
            walk.bound = bound
            walk.join(share)
            let result = walk.search(depth: 0, previous: -1, state: MoveAutomaton.start)
            let found = result == Walk.found
            (outcomes.baseAddress! + k).initialize(to: Outcome(result: result, nodes: walk.nodes, timedOut: walk.timedOut,
                                                              path: found ? walk.currentPath : nil,
                                                              rank: found ? walk.foundRank : Int.max))
        }
        defer { outcomes.baseAddress!.deinitialize(count: team.size) }
        let nodes = outcomes.reduce(0) { $0 + $1.nodes }
        if let first = outcomes.filter({ $0.path != nil }).min(by: { $0.rank < $1.rank }) {
            return Outcome(result: Walk.found, nodes: nodes, timedOut: false, path: first.path)
        }
        return Outcome(result: outcomes.map(\.result).min()!, nodes: nodes, timedOut: share.timedOut.load(ordering: .relaxed),
                       path: nil)
    }

    /// Calls `body` with a pointer to each table's entries, valid for the call.
    private static func withEntries<R>(_ tables: ArraySlice<PatternTable>, _ entries: [UnsafePointer<UInt8>],
                                       _ body: ([UnsafePointer<UInt8>]) -> R) -> R {
        guard let first = tables.first else { return body(entries) }
        return first.entries.withUnsafeBufferPointer { withEntries(tables.dropFirst(), entries + [$0.baseAddress!], body) }
    }
}

/// What the threads of one split iteration share.
private final class Share: Sendable {
    /// The next subtree at `splitDepth` to be claimed, numbered in the order a single
    /// thread reaches them.
    let next = Atomic<Int>(0)
    /// The smallest rank (`Walk.rank`) of a solution found so far.
    let found = Atomic<Int>(.max)
    /// Set by the first thread to see the deadline passed.
    let timedOut = Atomic<Bool>(false)
}

/// The search's state: plain pointers and scalars in a struct, so that the recursion
/// runs without allocation, reference counting or dynamic exclusivity checks.
private struct Walk {
    var nodes = 0
    var timedOut = false
    /// Set to unwind the search: the deadline passed, or another thread found a
    /// solution that comes before everything this one has left.
    var stopped = false
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

    /// Splitting (`join`): the depth whose subtrees are shared out (none: `Int.max`),
    /// what the threads share, how many subtrees at that depth this walk has passed,
    /// and the one it claimed to search next.
    var splitDepth = Int.max
    var share: Share?
    var seen = 0
    var claimed = 0
    /// Solutions are ranked in the order a single thread finds them: one in subtree t
    /// is 2t + 1, one above the split depth after t subtrees is 2t. `rank` is the
    /// subtree's this walk searches (or claimed), `foundRank` its solution's.
    var rank = Int.max
    var foundRank = Int.max

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

    /// Sets the walk on `board`; returns the first iteration's bound.
    mutating func begin(_ board: [UInt8]) -> Int {
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
        return manhattan + 2 * largestExcess()
    }

    /// The path found, once `search` returned `found`.
    var currentPath: [Int] { (0..<bound).map { Int(path[$0]) } }

    /// Takes part in a split iteration: claims a first subtree to search.
    mutating func join(_ share: Share) {
        self.share = share
        splitDepth = FifteenSearch.splitDepth
        claimed = share.next.wrappingAdd(1, ordering: .relaxed).oldValue
        rank = 2 * claimed + 1
    }

    /// At the split depth: whether this subtree is the one this walk claimed (then it
    /// claims the next), else another thread's.
    @inline(never)
    mutating func claim() -> Bool {
        let ticket = seen
        seen += 1
        guard ticket == claimed, let share else { return false }
        claimed = share.next.wrappingAdd(1, ordering: .relaxed).oldValue
        rank = 2 * ticket + 1
        if share.found.load(ordering: .relaxed) < rank { stopped = true }
        return !stopped
    }

    /// Every 1,024 nodes: whether to unwind (the deadline, read every 65,536 nodes, or
    /// an earlier solution found by another thread).
    @inline(never)
    mutating func mustStop() -> Bool {
        if nodes & 0xFFFF == 0, clock() > deadline {
            timedOut = true
            share?.timedOut.store(true, ordering: .relaxed)
        }
        if let share {
            if share.timedOut.load(ordering: .relaxed) { timedOut = true }
            if share.found.load(ordering: .relaxed) < rank { stopped = true }
        }
        if timedOut { stopped = true }
        return stopped
    }

    /// The goal reached at `depth`: ranked and told to the other threads, if split.
    @inline(never)
    mutating func reachedGoal(depth: Int) -> Int {
        if let share {
            foundRank = depth > splitDepth ? rank : 2 * seen
            share.found.min(foundRank, ordering: .relaxed)
        }
        return Self.found
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
        if h == 0 { return reachedGoal(depth: depth) }
        if depth == splitDepth, !claim() { return Int.max }
        nodes += 1
        if nodes & 0x3FF == 0, mustStop() { return Int.max }
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
            if stopped { return Int.max }
            if result < smallest { smallest = result }
        }
        return smallest
    }
}
