// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCore
@testable import TiltSolver

/// The solver (docs/solver.md): optimal lengths against breadth-first search, every
/// answer replayed, the pattern databases' bounds and their serialised form.
/// Kept quick in a debug build: random 4×4 boards go through with a small budget (their
/// optimal search is checked on boards a few dozen moves from solved instead).
@Suite struct SolverTests {
    /// A clock that never reaches the deadline, for searches that must finish.
    static func noClock() -> Double { 0 }

    /// Each board's distance from solved, by breadth-first search from the solved board.
    static func distances(side: Int, depthLimit: Int = .max) -> [UInt64: Int] {
        var distance: [UInt64: Int] = [key(Board(side: side).cells): 0]
        var layer = [Board(side: side)]
        var depth = 0
        while !layer.isEmpty, depth < depthLimit {
            depth += 1
            var next: [Board] = []
            for board in layer {
                for direction in Direction.allCases {
                    var moved = board
                    guard moved.tilt(direction) != nil, distance[key(moved.cells)] == nil else { continue }
                    distance[key(moved.cells)] = depth
                    next.append(moved)
                }
            }
            layer = next
        }
        return distance
    }

    /// Up to 16 cells as 4-bit digits.
    static func key(_ cells: [UInt8]) -> UInt64 { cells.reduce(0) { $0 << 4 | UInt64($1) } }

    static func cells(_ key: UInt64, count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: key >> UInt64(4 * (count - 1 - $0))) & 15 }
    }

    /// Replays `solution` on `board` with the game's own tilt; the board must end solved.
    static func replaySolves(_ board: Board, _ solution: Solution) -> Bool {
        guard var puzzle = try? Puzzle(board: board, moves: 0, history: History(limit: 10)) else { return false }
        for direction in solution.directions where puzzle.tilt(direction).count != 1 { return false }
        return puzzle.isSolved
    }

    /// A board `steps` random legal moves from solved (no immediate step back).
    static func walked(side: Int, steps: Int, seed: UInt64) -> Board {
        var random = SeededRandom(seed: seed)
        var board = Board(side: side)
        var previous: Direction?
        for _ in 0..<steps {
            let choices = Direction.allCases.filter { $0 != previous?.opposite && board.tileIndex(tilting: $0) != nil }
            let direction = choices[Int(random.below(UInt64(choices.count)))]
            board.tilt(direction)
            previous = direction
        }
        return board
    }

    @Test(arguments: 2...10)
    func solvedBoardNeedsNoMoves(side: Int) {
        let solution = Solver.solve(Board(side: side), clock: Self.noClock)
        #expect(solution == Solution(directions: [], isOptimal: true))
    }

    @Test func smallBoardsAreSolvedInTheirBreadthFirstDistance() throws {
        // 2×2: all 12 arrangements.
        for (key, distance) in Self.distances(side: 2) {
            let board = try #require(Board(side: 2, cells: Self.cells(key, count: 4).map(Int.init)))
            let solution = Solver.solve(board, clock: Self.noClock)
            #expect(solution.directions.count == distance)
            #expect(solution.isOptimal)
            #expect(Self.replaySolves(board, solution))
        }
        // 3×3: 181,440 arrangements; 150 shuffled boards.
        let distances = Self.distances(side: 3)
        #expect(distances.count == 181_440)
        for seed in UInt64(0)..<150 {
            let board = Puzzle.newGame(side: 3, seed: seed * 31 + 7).board
            let solution = Solver.solve(board, clock: Self.noClock)
            #expect(solution.directions.count == distances[Self.key(board.cells)], "seed \(seed)")
            #expect(solution.isOptimal)
            #expect(Self.replaySolves(board, solution), "seed \(seed)")
        }
    }

    @Test(arguments: 2...10)
    func everyAnswerSolvesItsBoard(side: Int) {
        let count = side <= 3 ? 40 : side == 4 ? 12 : side <= 6 ? 3 : 1
        var quickAnswers = 0
        defer {
            // Some random 4×4 boards need more than the two clock readings the tiny
            // budget allows: those must get the quick (reduction) answer.
            if side == 4 { #expect(quickAnswers > 0) }
        }
        for seed in UInt64(0)..<UInt64(count) {
            let board = Puzzle.newGame(side: side, seed: seed &* 0x9E37 &+ UInt64(side)).board
            // A tiny budget on 4×4: whether the optimal search finishes or the quick
            // reduction answers, the answer must solve the board.
            let solution = Solver.solve(board, budget: 0.002, clock: Self.wallClockless())
            #expect(Self.replaySolves(board, solution), "side \(side) seed \(seed)")
            #expect(solution.directions.count >= board.manhattanDistance)
            if solution.isOptimal { #expect(side <= 4 || solution.directions.count == board.manhattanDistance) }
            if !solution.isOptimal { quickAnswers += 1 }
        }
    }

    /// Big boards at the default budget, the clock ticking a millisecond a reading (so
    /// that the group searches, the corner's search and the windows run and some stop
    /// on the clock, the same way in every build): every answer is a full solution.
    @Test(arguments: [5, 6, 8, 10])
    func bigBoardAnswersAreFullSolutions(side: Int) {
        for seed in UInt64(0)..<UInt64(side <= 6 ? 4 : 2) {
            let board = Puzzle.newGame(side: side, seed: 0x7E57 &+ seed &* 31 &+ UInt64(side)).board
            let solution = Solver.solve(board, clock: Self.wallClockless())
            #expect(Self.replaySolves(board, solution), "side \(side) seed \(seed)")
            #expect(solution.directions.count >= board.manhattanDistance)
        }
    }

    /// A clock a second on at every reading: the group searches stop at their first look
    /// at it, the corner is not solved optimally and no window is tried; the answer
    /// (tile by tile, the corner reduced to 3×3) is still a full solution.
    @Test(arguments: [5, 10])
    func bigBoardAnswersAreFullSolutionsWhenTheClockRunsOut(side: Int) {
        let ticks = Ticks()
        let board = Puzzle.newGame(side: side, seed: 0x0C10C + UInt64(side)).board
        let solution = Solver.solve(board, clock: { ticks.next() * 1000 })
        #expect(Self.replaySolves(board, solution))
        #expect(!solution.isOptimal)
    }

    /// The quick 4×4 answer (top row and left column by the group searches, then the 3×3
    /// corner solved optimally) solves its board.
    @Test func quickFourByFourAnswersSolve() throws {
        for seed in UInt64(0)..<20 {
            let board = Puzzle.newGame(side: 4, seed: 0x4444 + seed).board
            let quick = Solver.reducingToThree(board.cells, clock: Self.noClock)
            #expect(try #require(Self.played(board, quick.path)) == (0..<16).map(UInt8.init), "seed \(seed)")
            #expect(Solver.withoutReturns(quick.path, start: board.emptyIndex) == quick.path, "seed \(seed)")
        }
    }

    /// A clock that advances a millisecond per call, so budgets expire the same way on
    /// every machine and in every build.
    static func wallClockless() -> @Sendable () -> Double {
        let ticks = Ticks()
        return { ticks.next() }
    }

    /// Read by one thread at a time (the searches here run alone or in turn).
    final class Ticks: @unchecked Sendable {
        var now = 0.0
        func next() -> Double { now += 0.001; return now }
    }

    @Test func fourByFourIsOptimalAndTheTablesAreAdmissible() {
        // Every board within 10 moves of solved, with its exact distance.
        let near = Self.distances(side: 4, depthLimit: 10)
        let database = PatternDatabase.shared
        for (key, distance) in near {
            let cells = Self.cells(key, count: 16)
            for partition in PatternDatabase.partitions.indices {
                #expect(database.lowerBound(cells: cells, partition: partition) <= distance)
                #expect(database.lowerBound(cells: Self.transposed(cells), partition: partition) <= distance)
            }
        }
        #expect(database.lowerBound(cells: Board(side: 4).cells) == 0)
        #expect(database.lowerBound(cells: Board(side: 4).cells, partition: 1) == 0)
        // Farther boards: the plain Manhattan/linear-conflict search gives the true
        // distance without the tables; the table-driven search must match it.
        for seed in UInt64(0)..<8 {
            let board = Self.walked(side: 4, steps: 26 + Int(seed % 8), seed: seed + 400)
            var reference = ManhattanSearch(cells: board.cells, side: 4)
            let distance = reference.solve(deadline: .infinity, clock: Self.noClock)!.count
            let solution = Solver.solve(board, budget: .infinity, clock: Self.noClock)
            #expect(solution.directions.count == distance, "seed \(seed)")
            #expect(solution.isOptimal)
            #expect(Self.replaySolves(board, solution))
            for partition in PatternDatabase.partitions.indices {
                #expect(database.lowerBound(cells: board.cells, partition: partition) <= distance)
                #expect(database.lowerBound(cells: Self.transposed(board.cells), partition: partition) <= distance)
            }
        }
    }

    /// The four-bit tables give back the builder's exact distances: for every
    /// placement, and for the placements of random boards.
    @Test(arguments: [0, 4])
    func compressedTablesRecoverTheExactDistances(table index: Int) {
        let group = PatternDatabase.groups[index]
        let exact = PatternDatabaseBuilder.table(for: group)!
        let table = PatternDatabase.shared.tables[index]
        var placements = 0
        var mismatches = 0
        for entry in exact.indices where exact[entry] != PatternDatabase.unused {
            placements += 1
            if table.distance(index: entry, group: group) != Int(exact[entry]) { mismatches += 1 }
        }
        #expect(placements == 16 * 15 * 14 * 13 * 12)
        #expect(mismatches == 0)
        var random = SeededRandom(seed: 0x7AB1E + UInt64(index))
        for _ in 0..<1_000 {
            let cells = Puzzle.newGame(side: 4, seed: random.next()).board.cells
            var cellOfTile = [Int](repeating: 0, count: 16)
            for (cell, tile) in cells.enumerated() { cellOfTile[Int(tile)] = cell }
            let entry = PatternDatabase.index(of: group, cellOfTile: cellOfTile)
            #expect(table.distance(index: entry, group: group) == Int(exact[entry]))
        }
    }

    /// The board mirrored across the main diagonal, tiles renamed to match.
    static func transposed(_ cells: [UInt8]) -> [UInt8] {
        func flip(_ v: Int) -> Int { v % 4 * 4 + v / 4 }
        var result = cells
        for cell in 0..<16 { result[flip(cell)] = UInt8(flip(Int(cells[cell]))) }
        return result
    }

    @Test func serialisedTablesRoundTripAndDamageIsRejected() throws {
        let database = PatternDatabase.shared
        let bytes = database.serialized()
        #expect(bytes.count == PatternDatabase.serializedCount)
        let loaded = try PatternDatabase(serialized: bytes)
        #expect(loaded.tables == database.tables)

        var flipped = bytes
        flipped[bytes.count / 2] ^= 0x10
        #expect(throws: PatternDatabase.LoadError.badChecksum) { try PatternDatabase(serialized: flipped) }
        var badSum = bytes
        badSum[bytes.count - 1] ^= 1
        #expect(throws: PatternDatabase.LoadError.badChecksum) { try PatternDatabase(serialized: badSum) }
        #expect(throws: PatternDatabase.LoadError.wrongLength(bytes.count - 1)) {
            try PatternDatabase(serialized: Array(bytes.dropLast()))
        }
        #expect(throws: PatternDatabase.LoadError.wrongLength(0)) { try PatternDatabase(serialized: []) }
        var otherVersion = bytes
        otherVersion[4] = PatternDatabase.formatVersion + 1
        #expect(throws: PatternDatabase.LoadError.otherVersion(PatternDatabase.formatVersion + 1)) {
            try PatternDatabase(serialized: otherVersion)
        }
        var notATable = bytes
        notATable[0] = UInt8(ascii: "X")
        #expect(throws: PatternDatabase.LoadError.notATable) { try PatternDatabase(serialized: notATable) }
        var otherGroups = bytes
        otherGroups[9] = 3
        #expect(throws: PatternDatabase.LoadError.otherGroups) { try PatternDatabase(serialized: otherGroups) }
        // An entry where no placement is (index 0: all five tiles in cell 0), under a
        // correct checksum.
        var badEntry = Array(bytes.dropLast(8))
        badEntry[PatternDatabase.header.count] = 0x0F
        var sum = Checksum.fnv1a(badEntry)
        for _ in 0..<8 {
            badEntry.append(UInt8(truncatingIfNeeded: sum))
            sum >>= 8
        }
        #expect(throws: PatternDatabase.LoadError.badEntry) { try PatternDatabase(serialized: badEntry) }
    }

    @Test func returnsToTheLastCellCancelOut() {
        // Empty at 8 on 3×3: 5, 8 (back), 7 → just 7.
        #expect(Solver.withoutReturns([5, 8, 7], start: 8) == [7])
        #expect(Solver.withoutReturns([5, 4, 5, 8], start: 8) == [])
        #expect(Solver.withoutReturns([5, 4, 3], start: 8) == [5, 4, 3])
    }

    @Test func linearConflictNeedsOnlyTheLongestOrderedRun() {
        // Row 0 of 3×3 holding 2, 1, 0: one tile may stay, two must leave: +4, not +6.
        let board = ManhattanSearch(cells: [2, 1, 0, 3, 4, 5, 6, 7, 8], side: 3)
        #expect(board.linearConflicts() == 4)
        #expect(ManhattanSearch.longestIncreasingRun([3, 1, 2, 0, 4]) == 3)
    }

    /// The board after the empty cell's moves along `path`, or nil at an illegal one.
    static func played(_ board: Board, _ path: [Int]) -> [UInt8]? {
        var board = board
        for direction in Solver.directions(path, start: board.emptyIndex, side: board.side) where board.tilt(direction) == nil {
            return nil
        }
        return board.cells
    }

    /// Lines put home a few tiles at a time: every tile outside the 4×4 corner home,
    /// in fewer moves than tile by tile (seeded 5×5 boards where that was measured).
    @Test(arguments: [UInt64(1), 2])
    func groupsPutTheLinesHomeInFewerMoves(seed: UInt64) throws {
        let board = Puzzle.newGame(side: 5, seed: seed).board
        var groups = Reduction(cells: board.cells, side: 5, groups: GroupSearch(side: 5, expansions: Solver.bigBoardExpansions))
        groups.reduce(to: 4)
        var tileByTile = Reduction(cells: board.cells, side: 5)
        tileByTile.reduce(to: 4)
        let after = try #require(Self.played(board, groups.path))
        #expect(after == groups.cells.map(UInt8.init))
        for cell in 0..<25 where cell % 5 == 0 || cell < 5 { #expect(after[cell] == UInt8(cell)) }
        #expect(groups.path.count < tileByTile.path.count)
    }

    /// Each group search runs under the settings it is given, whatever the searches
    /// before it on the same object ran under: a route under one set of costs after a
    /// search under another is the route a fresh object finds, and a search given a
    /// deadline already past stops without a route.
    @Test func aGroupSearchRunsUnderItsOwnSettings() {
        let board = Puzzle.newGame(side: 5, seed: 1).board
        let cells = board.cells.map(Int.init)
        let homes = [0, 1, 2]
        let tiles = homes.map { cells.firstIndex(of: $0)! }
        let fixed = [Bool](repeating: false, count: 25)
        let (first, second) = (Solver.groupVariants(side: 5)[0], Solver.groupVariants(side: 5)[4])
        func route(_ search: GroupSearch, _ settings: GroupSearch.Settings) -> [Int]? {
            search.route(empty: board.emptyIndex, tiles: tiles, homes: homes, fixed: fixed, perSearch: 20_000, settings: settings)
        }
        let shared = GroupSearch(side: 5, expansions: Solver.bigBoardExpansions)
        let afterFirst = route(shared, .init(weighting: first)).flatMap { _ in route(shared, .init(weighting: second)) }
        let fresh = route(GroupSearch(side: 5, expansions: Solver.bigBoardExpansions), .init(weighting: second))
        let underFirst = route(GroupSearch(side: 5, expansions: Solver.bigBoardExpansions), .init(weighting: first))
        #expect(afterFirst != nil && underFirst != nil)
        #expect(afterFirst == fresh)
        #expect(underFirst != fresh)
        let late = GroupSearch.Stop(clock: { 2 }, deadline: 1)
        #expect(route(GroupSearch(side: 5, expansions: Solver.bigBoardExpansions), .init(weighting: first, stop: late)) == nil)
    }

    /// A big board's answer (the reduction's path cleaned, then the windows) never
    /// tilts straight back.
    @Test(arguments: [5, 7])
    func bigBoardAnswersNeverTiltStraightBack(side: Int) {
        for seed in UInt64(1)...2 {
            // A fifth of the default budget's nodes, to keep the test short.
            let board = Puzzle.newGame(side: side, seed: seed).board
            let directions = Solver.solve(board, budget: Solver.defaultBudget / 5, clock: Self.noClock).directions
            #expect(!directions.isEmpty)
            #expect(zip(directions, directions.dropFirst()).allSatisfy { $0.opposite != $1 }, "seed \(seed)")
        }
    }

    /// A window re-solved shorter joins the same two boards: the shortened path ends
    /// on the board the original did, in fewer moves.
    @Test(arguments: [UInt64(3), 4])
    func windowsShortenAPathToTheSameBoard(seed: UInt64) throws {
        let board = Puzzle.newGame(side: 5, seed: seed).board
        var tileByTile = Reduction(cells: board.cells, side: 5)
        tileByTile.reduce(to: 4)
        let path = tileByTile.movesWithoutReturns
        var windows = PathShortening(side: 5)
        let shorter = windows.shorten(path, from: board.cells, window: 32, step: 8, nodesPerWindow: 20_000,
                                      nodeBudget: 100_000, deadline: .infinity, clock: { 0 })
        #expect(shorter.count < path.count)
        let after = try #require(Self.played(board, shorter))
        #expect(after == Self.played(board, path))
    }
}
