// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore

/// Shrinks a big board to a small one by putting tiles home a line at a time
/// (docs/solver.md, "Big boards"): the top row and the left column, then the next
/// row and column, until only the bottom-right `remaining`×`remaining` corner is left
/// for an optimal search. Each tile takes a shortest route for the pair (empty cell,
/// that tile) around the tiles already home, found by breadth-first search.
///
/// The last two tiles of a line cannot go home one after the other (the second would
/// have to pass through the first), so the shorter of two ways is kept: placing them
/// directly when a route exists, or the classic turn — the first tile into the second's
/// home, the second just inside the board from it, then two moves swing both home.
struct Reduction {
    let side: Int
    private(set) var cells: [Int]
    private(set) var empty: Int
    private var fixed: [Bool]
    /// The empty cell's successive positions, one per move made.
    private(set) var path: [Int] = []
    /// Where the empty cell was at the start.
    private let start: Int

    /// Puts lines home a few tiles at a time (`placeInGroups`) while it has expansions
    /// left; nil: tile by tile only.
    private let groups: GroupSearch?

    init(cells: [UInt8], side: Int, groups: GroupSearch? = nil) {
        self.side = side
        self.groups = groups
        self.cells = cells.map(Int.init)
        empty = self.cells.firstIndex(of: side * side - 1)!
        start = empty
        fixed = [Bool](repeating: false, count: side * side)
    }

    /// Puts every tile outside the bottom-right `remaining`×`remaining` corner home.
    /// At each step both orders are tried, row then column and column then row, each
    /// with every one of the group searches' cost variants, and the one with fewer moves
    /// is kept; for the last line, fewer moves plus `cornerCost` of the corner it leaves.
    /// The group searches end at `stop` (tile by tile placement then finishes the lines).
    mutating func reduce(to remaining: Int, cornerCost: (([UInt8]) -> Int)? = nil, stop: GroupSearch.Stop = .never) {
        for k in 0..<(side - remaining) {
            // The last line's candidates are compared with their corner's estimate too.
            func cost(_ candidate: Reduction) -> Int {
                guard let cornerCost, k == side - remaining - 1 else { return candidate.path.count }
                return candidate.path.count + cornerCost(candidate.corner(remaining))
            }
            let row = (k..<side).map { k * side + $0 }, column = ((k + 1)..<side).map { $0 * side + k }
            if let groups {
                // Lines a few tiles at a time (docs/solver.md, "Big boards"); the tile by
                // tile placement below only when the group searches run out of expansions.
                var best: Reduction?
                var bestCost = Int.max
                for costs in groups.variants {
                    let settings = GroupSearch.Settings(weighting: costs, stop: stop)
                    var rowFirst = self, columnFirst = self
                    guard rowFirst.placeInGroups(row, groups, settings) && rowFirst.placeInGroups(column, groups, settings)
                        && columnFirst.placeInGroups([k * side + k] + column, groups, settings)
                        && columnFirst.placeInGroups(Array(row.dropFirst()), groups, settings) else { break }
                    for candidate in [rowFirst, columnFirst] {
                        let c = cost(candidate)
                        if c < bestCost { (best, bestCost) = (candidate, c) }
                    }
                }
                if let best {
                    self = best
                    continue
                }
            }
            var rowFirst = self
            rowFirst.placeLine(row, inward: side)
            rowFirst.placeLine(column, inward: 1)
            var columnFirst = self
            columnFirst.placeLine([k * side + k] + column, inward: 1)
            columnFirst.placeLine(Array(row.dropFirst()), inward: side)
            self = cost(rowFirst) <= cost(columnFirst) ? rowFirst : columnFirst
        }
    }

    /// `path` as an answer: the placements step the empty cell straight back at
    /// times, and each such move is cancelled with the one before it (docs/solver.md,
    /// "Windows").
    var movesWithoutReturns: [Int] { Solver.withoutReturns(path, start: start) }

    /// The corner as its own board: cells renumbered so that its goal is the solved
    /// `remaining`×`remaining` board (the tiles there all belong there once the rest is home).
    func corner(_ remaining: Int) -> [UInt8] {
        let offset = side - remaining
        var result: [UInt8] = []
        for row in offset..<side {
            for column in offset..<side {
                let tile = cells[row * side + column]
                if tile == side * side - 1 {
                    result.append(UInt8(remaining * remaining - 1))
                } else {
                    result.append(UInt8((tile / side - offset) * remaining + (tile % side - offset)))
                }
            }
        }
        return result
    }

    /// Plays a path of empty-cell positions given in the corner's own numbering.
    mutating func play(cornerPath: [Int], remaining: Int) {
        let offset = side - remaining
        for cell in cornerPath { moveEmpty(toNeighbour: (cell / remaining + offset) * side + cell % remaining + offset) }
    }

    /// Puts the tiles of `homes` (a line, in order) home a few at a time by `search`
    /// under `settings`, the last two together (the second cannot pass the first);
    /// false, with the board partly changed, when a search ran out of expansions.
    private mutating func placeInGroups(_ homes: [Int], _ search: GroupSearch, _ settings: GroupSearch.Settings) -> Bool {
        var start = 0
        while start < homes.count {
            let left = homes.count - start
            let count = left == 4 ? 2 : min(3, left)
            let group = Array(homes[start..<(start + count)])
            guard let route = search.route(empty: empty, tiles: group.map { cells.firstIndex(of: $0)! }, homes: group,
                                           fixed: fixed, perSearch: Self.expansionsPerGroup,
                                           settings: settings) else { return false }
            for cell in route { moveEmpty(toNeighbour: cell) }
            for home in group { fixed[home] = true }
            start += count
        }
        return true
    }

    static let expansionsPerGroup = 20_000

    private mutating func placeLine(_ homes: [Int], inward: Int) {
        for home in homes.dropLast(2) {
            let placed = place(tile: home, at: home)
            precondition(placed, "a tile can always reach its home while the free area is at least 3×3")
            fixed[home] = true
        }
        let (first, second) = (homes[homes.count - 2], homes[homes.count - 1])
        var direct = self
        let directWorks = direct.place(tile: first, at: first) && { direct.fixed[first] = true; return true }()
            && direct.place(tile: second, at: second)
        var turn = self
        var turnWorks = turn.place(tile: first, at: second)
        if turnWorks {
            let afterFirst = turn
            turn.fixed[second] = true
            turnWorks = turn.place(tile: second, at: second + inward)
            turn.fixed[second + inward] = true
            turnWorks = turnWorks && turn.bringEmpty(to: [first])
            turn.fixed[second] = false
            turn.fixed[second + inward] = false
            if turnWorks {
                turn.moveEmpty(toNeighbour: second)
                turn.moveEmpty(toNeighbour: second + inward)
            } else {
                // The second tile is caught in the first's home (a dead end once the first
                // tile sits in the second's), or the empty cell is and only the second tile
                // can step in: sort both out in the small window by the corner.
                turn = afterFirst
                turnWorks = turn.finishInWindow(first: first, second: second, inward: inward)
            }
        }
        precondition(directWorks || turnWorks, "the turn always works while the free area is at least 3×3")
        self = directWorks && (!turnWorks || direct.path.count <= turn.path.count) ? direct : turn
        fixed[first] = true
        fixed[second] = true
    }

    /// Brings the tiles `first` and `second` home by a breadth-first search over the
    /// positions of (empty cell, first tile, second tile) in the eight cells by the end
    /// of the line: its last two cells and the 2×3 block inside the board from them.
    /// The first tile must be in the second's home; the second tile and the empty cell
    /// are brought into the window first.
    private mutating func finishInWindow(first: Int, second: Int, inward: Int) -> Bool {
        let along = second - first
        var window = [first, second]
        for i in 1...2 { for j in 0...2 { window.append(second - j * along + i * inward) } }
        fixed[second] = true
        let secondIn = window.contains(cells.firstIndex(of: second)!) || place(tile: second, at: second + 2 * inward)
        fixed[second] = false
        guard secondIn else { return false }
        let holding = [cells.firstIndex(of: first)!, cells.firstIndex(of: second)!]
        for cell in holding { fixed[cell] = true }
        let reached = bringEmpty(to: window.filter { !holding.contains($0) })
        for cell in holding { fixed[cell] = false }
        guard reached else { return false }
        guard let e = window.firstIndex(of: empty), let a = window.firstIndex(of: cells.firstIndex(of: first)!),
              let b = window.firstIndex(of: cells.firstIndex(of: second)!) else { return false }
        let size = window.count
        let adjacent = window.map { cell in
            window.indices.filter { other in
                let (d, c) = (abs(window[other] - cell), window[other] % side - cell % side)
                return (d == 1 && abs(c) == 1) || d == side
            }
        }
        func key(_ e: Int, _ a: Int, _ b: Int) -> Int { (e * size + a) * size + b }
        var parent = [Int](repeating: -1, count: size * size * size)
        let origin = key(e, a, b)
        parent[origin] = origin
        var queue = [origin]
        var head = 0
        while head < queue.count {
            let state = queue[head]
            head += 1
            let (e, a, b) = (state / (size * size), state / size % size, state % size)
            if a == 0 && b == 1 {
                var emptyCells: [Int] = []
                var at = state
                while parent[at] != at { emptyCells.append(window[at / (size * size)]); at = parent[at] }
                for cell in emptyCells.reversed() { moveEmpty(toNeighbour: cell) }
                return true
            }
            for to in adjacent[e] {
                let next = key(to, to == a ? e : a, to == b ? e : b)
                if parent[next] < 0 {
                    parent[next] = state
                    queue.append(next)
                }
            }
        }
        return false
    }

    private mutating func moveEmpty(toNeighbour cell: Int) {
        cells[empty] = cells[cell]
        cells[cell] = side * side - 1
        empty = cell
        path.append(cell)
    }

    /// The `k`th (0..<4) neighbour of `cell` if it is on the board and not fixed, else -1.
    @inline(__always)
    private func freeNeighbour(_ k: Int, of cell: Int) -> Int {
        let to = gridNeighbour(k, of: cell, side: side)
        return to >= 0 && !fixed[to] ? to : -1
    }

    /// Moves `tile` to `target` by a shortest route that leaves fixed cells alone.
    private mutating func place(tile: Int, at target: Int) -> Bool {
        guard let start = cells.firstIndex(of: tile) else { return false }
        if start == target { return true }
        let count = side * side
        // A state is (empty cell, tile's cell) as empty * count + tile.
        var parent = [Int32](repeating: -1, count: count * count)
        let origin = empty * count + start
        parent[origin] = Int32(origin)
        var queue = [origin]
        var head = 0
        while head < queue.count {
            let state = queue[head]
            head += 1
            let (from, at) = (state / count, state % count)
            if at == target { return follow(parent: parent, to: state, count: count) }
            for k in 0..<4 {
                let to = freeNeighbour(k, of: from)
                if to < 0 { continue }
                let next = to * count + (to == at ? from : at)
                if parent[next] < 0 {
                    parent[next] = Int32(state)
                    queue.append(next)
                }
            }
        }
        return false
    }

    /// Moves the empty cell to the nearest of `targets` around the fixed cells,
    /// disturbing no fixed tile.
    private mutating func bringEmpty(to targets: [Int]) -> Bool {
        let count = side * side
        var parent = [Int32](repeating: -1, count: count)
        parent[empty] = Int32(empty)
        var queue = [empty]
        var head = 0
        while head < queue.count {
            let from = queue[head]
            head += 1
            if targets.contains(from) {
                var cellsOnPath: [Int] = []
                var cell = from
                while cell != empty { cellsOnPath.append(cell); cell = Int(parent[cell]) }
                for cell in cellsOnPath.reversed() { moveEmpty(toNeighbour: cell) }
                return true
            }
            for k in 0..<4 {
                let to = freeNeighbour(k, of: from)
                if to < 0 || parent[to] >= 0 { continue }
                parent[to] = Int32(from)
                queue.append(to)
            }
        }
        return false
    }

    private mutating func follow(parent: [Int32], to goal: Int, count: Int) -> Bool {
        var emptyCells: [Int] = []
        var state = goal
        while Int(parent[state]) != state {
            emptyCells.append(state / count)
            state = Int(parent[state])
        }
        for cell in emptyCells.reversed() { moveEmpty(toNeighbour: cell) }
        return true
    }
}
