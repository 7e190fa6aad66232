// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore

/// Shortest (or, on big boards, short) tilt sequences that solve a board
/// (docs/solver.md). Pure: the caller supplies a monotonic clock in seconds.
///
/// - 2×2 and 3×3: IDA* with Manhattan distance and linear conflicts; always optimal.
/// - 4×4: IDA* with the additive pattern databases and their mirror; optimal unless
///   the budget runs out, when a fast reduction to 3×3 answers instead.
/// - 5×5 to 10×10: lines are put home a few tiles at a time until a 4×4 corner is
///   left, which is then solved optimally within what is left of the budget (else
///   reduced to 3×3); windows of the path are then re-solved shorter where they can be.
///
/// Every answer is replayed on a copy of the board before it is returned.
public enum Solver {
    /// What the benchmark wants to know besides the answer.
    public struct Report: Sendable, Equatable {
        public var solution: Solution
        /// Search nodes expanded by the optimal searches.
        public var nodes: Int
        /// A lower bound on the distance: the best heuristic value at the start.
        public var lowerBound: Int
        /// Boards over 4×4: whether the 4×4 corner left by the reduction was solved
        /// optimally in time (else it was reduced to 3×3 in turn).
        public var cornerOptimal = false
    }

    public static func solve(_ board: Board, budget: Double = defaultBudget, database: @autoclosure () -> PatternDatabase? = nil,
                             team: SearchTeam = .alone, clock: @Sendable () -> Double) -> Solution {
        solveReporting(board, budget: budget, database: database(), team: team, clock: clock).solution
    }

    /// `solve` for a caller whose tables may not be there in time (the daemon builds them
    /// on a thread of their own): `tables(until)` gives them, waiting for them no later
    /// than `until` on `clock`, or nil. The budget then counts the wait: without the
    /// tables a 4×4 board gets the quick answer and a big board's corner is reduced to
    /// 3×3 (docs/solver.md, "Budget").
    public static func solve(_ board: Board, budget: Double = defaultBudget, tables: (_ until: Double) -> PatternDatabase?,
                             team: SearchTeam = .alone, clock: @Sendable () -> Double) -> Solution {
        solveReporting(board, budget: budget, tables: tables, team: team, clock: clock).solution
    }

    /// `solve`, with the search's statistics. `budget` is in seconds on `clock`; the
    /// pattern databases are `PatternDatabase.shared` (built on first use) unless given.
    /// They are asked for only when a 4×4 board (or a big board's 4×4 corner) is not
    /// solved by the plain search within `plainNodes`: a board a few dozen moves from
    /// solved needs no tables. A 4×4 board's search splits its larger iterations over
    /// `team`'s threads, which all read `clock` (big boards' corners are searched on
    /// the caller's thread alone, within their share of the budget).
    public static func solveReporting(_ board: Board, budget: Double = defaultBudget,
                                      database: @autoclosure () -> PatternDatabase? = nil,
                                      team: SearchTeam = .alone, clock: @Sendable () -> Double) -> Report {
        solveReporting(board, budget: budget, tables: { _ in database() ?? PatternDatabase.shared }, team: team, clock: clock)
    }

    /// `solveReporting` with tables that may come late (`solve(_:budget:tables:team:clock:)`).
    public static func solveReporting(_ board: Board, budget: Double = defaultBudget,
                                      tables: (_ until: Double) -> PatternDatabase?,
                                      team: SearchTeam = .alone, clock: @Sendable () -> Double) -> Report {
        let side = board.side
        if board.isSolved { return Report(solution: Solution(directions: [], isOptimal: true), nodes: 0, lowerBound: 0) }
        let deadline = clock() + budget
        var emptyPath: [Int]
        var nodes = 0
        var optimal = false
        var lowerBound = board.manhattanDistance
        var cornerOptimal = false
        switch side {
        case 2, 3:
            var search = ManhattanSearch(cells: board.cells, side: side)
            lowerBound = search.lowerBound()
            emptyPath = search.solve(deadline: .infinity, clock: clock)!
            nodes = search.nodes
            optimal = true
        case 4:
            // The tables are waited for until a tenth of the budget is left: the quick
            // answer's few milliseconds of CPU, however thin the thread's share of a core.
            let found = solveFour(board.cells, deadline: deadline, database: { tables(deadline - budget / 10) },
                                  team: team, clock: clock)
            if let path = found.path {
                emptyPath = path
                optimal = true
            } else {
                let quick = reducingToThree(board.cells, clock: clock)
                emptyPath = quick.path
                nodes += quick.nodes
            }
            nodes += found.nodes
            lowerBound = max(lowerBound, found.lowerBound)
        default:
            // The group searches and the windows get the default budget's share of
            // their nodes (counted, not timed: the same answer on every machine).
            let effort = min(1, budget / defaultBudget)
            // The corner's search leaves a quarter of the budget to the windows, and they
            // start none in its last twentieth (a window may take a few milliseconds).
            let finished = finishByReduction(board.cells, side: side, deadline: deadline - budget / 4,
                                             groupsDeadline: deadline - budget / 2, effort: effort,
                                             budget: budget, tables: tables, clock: clock)
            var windows = PathShortening(side: side)
            emptyPath = finished.path
            let plan = windowPlan(side: side)
            for pass in plan.passes {
                emptyPath = windows.shorten(emptyPath, from: board.cells, window: pass.window, step: pass.step,
                                            nodesPerWindow: pass.nodesPerWindow,
                                            nodeBudget: Int(Double(plan.nodes) * effort),
                                            deadline: deadline - budget / 20, clock: clock)
            }
            nodes = finished.nodes + windows.totalNodes
            cornerOptimal = finished.cornerOptimal
        }
        let directions = Self.directions(emptyPath, start: board.emptyIndex, side: side)
        var check = board
        for direction in directions { precondition(check.tilt(direction) != nil, "solver produced an illegal move") }
        precondition(check.isSolved, "solver produced a sequence that does not solve the board")
        optimal = optimal || directions.count == lowerBound
        return Report(solution: Solution(directions: directions, isOptimal: optimal), nodes: nodes, lowerBound: lowerBound,
                      cornerOptimal: cornerOptimal)
    }

    /// Seconds a hint may take (a 4×4 hint is given more: `HintWorker.budget`); the
    /// big boards' node counts are set for it.
    public static let defaultBudget = 0.1

    /// What the group searches of one big-board answer may expand in all at the default
    /// budget (a smaller budget gets proportionally fewer): a few tens of milliseconds
    /// at the most in a release build (docs/performance.md).
    static let bigBoardExpansions = 200_000

    /// The group searches' cost variants a reduction tries (docs/solver.md, "Big
    /// boards"): all on 5×5, three on 6×6, one on larger boards (whose lines cost more).
    static func groupVariants(side: Int) -> [GroupSearch.Costs] {
        let all = [(5, 3, 4), (4, 3, 4), (5, 4, 4), (5, 3, 3), (4, 3, 5), (6, 3, 4), (4, 3, 3), (5, 3, 5), (4, 4, 4)]
            .map { GroupSearch.Costs(straight: $0.0, turn: $0.1, weight: $0.2) }
        return Array(all.prefix(side == 5 ? all.count : side == 6 ? 3 : 1))
    }

    /// The windows of a big-board path (`PathShortening`), in passes over the whole
    /// path: their length, how far apart they start and the nodes one may search; and
    /// the nodes all of them may, at the default budget. 5×5 paths are short, so their
    /// windows are longer; on larger boards a second pass tries longer windows with the
    /// time the first leaves.
    static func windowPlan(side: Int) -> (passes: [(window: Int, step: Int, nodesPerWindow: Int)], nodes: Int) {
        side == 5 ? ([(40, 8, 100_000)], 2_000_000) : ([(32, 8, 20_000), (48, 16, 100_000)], 3_000_000)
    }

    /// Nodes the plain Manhattan search may take on a 4×4 board before the tables are
    /// asked for: a fraction of a millisecond in a release build.
    static let plainNodes = 4_096

    /// A shortest path for a 4×4 board: the plain search when it is quick, else the
    /// tables' search; nil past the deadline, or when `database` has no tables in time.
    static func solveFour(_ cells: [UInt8], deadline: Double, database: () -> PatternDatabase?, team: SearchTeam = .alone,
                          clock: @Sendable () -> Double) -> (path: [Int]?, nodes: Int, lowerBound: Int) {
        // Manhattan distance alone (the identity as target): linear conflicts would cost
        // more per node than these few nodes can gain.
        var plain = ManhattanSearch(cells: cells, side: 4, target: Array(0..<16))
        if let path = plain.solve(deadline: deadline, nodeLimit: plainNodes, clock: clock) {
            return (path, plain.nodes, path.count)
        }
        guard let tables = database() else { return (nil, plain.nodes, plain.lowerBound()) }
        var search = FifteenSearch(database: tables, automaton: tables.moves, team: team)
        let path = search.solve(cells, deadline: deadline, clock: clock)
        return (path, plain.nodes + search.nodes, max(plain.lowerBound(), tables.lowerBound(cells: cells)))
    }

    /// Reduces to a 4×4 corner solved optimally, or, past the deadline or with no
    /// tables in time, to a 3×3 corner; the path has no move straight back.
    /// The lines are chosen with the tables only if they are there at the start (no
    /// wait); the corner waits for them until a tenth of `budget` before `deadline`.
    static func finishByReduction(_ cells: [UInt8], side: Int, deadline: Double, groupsDeadline: Double, effort: Double,
                                  budget: Double, tables: (_ until: Double) -> PatternDatabase?,
                                  clock: @Sendable () -> Double) -> (path: [Int], nodes: Int, cornerOptimal: Bool) {
        let groups = GroupSearch(side: side, expansions: Int(Double(bigBoardExpansions) * effort),
                                 variants: groupVariants(side: side))
        var reduction = Reduction(cells: cells, side: side, groups: groups)
        // The last line is chosen by its moves plus the tables' bound on the corner it leaves.
        let ready = tables(clock())
        withoutActuallyEscaping(clock) { clock in
            // The group searches stop halfway through the budget, leaving time for the
            // tile-by-tile placement, the corner and the windows.
            reduction.reduce(to: 4, cornerCost: ready.map { ready in { ready.lowerBound(cells: $0) } },
                             stop: GroupSearch.Stop(clock: clock, deadline: groupsDeadline))
        }
        let corner = reduction.corner(4)
        let found = solveFour(corner, deadline: deadline, database: { ready ?? tables(deadline - budget / 10) }, clock: clock)
        if let path = found.path {
            reduction.play(cornerPath: path, remaining: 4)
            return (reduction.movesWithoutReturns, found.nodes, true)
        }
        // Out of time: the corner in turn loses a row and a column to lines put home.
        let quick = reducingToThree(corner, clock: clock)
        reduction.play(cornerPath: quick.path, remaining: 4)
        return (reduction.movesWithoutReturns, found.nodes + quick.nodes, false)
    }

    /// A 4×4 board solved fast: its top row and left column put home (by the group
    /// searches, else tile by tile), then the 3×3 corner solved optimally (milliseconds; valid, but longer than optimal),
    /// with no move straight back.
    static func reducingToThree(_ cells: [UInt8], clock: () -> Double) -> (path: [Int], nodes: Int) {
        var reduction = Reduction(cells: cells, side: 4, groups: GroupSearch(side: 4, expansions: 50_000, tableBits: 15))
        reduction.reduce(to: 3)
        var small = ManhattanSearch(cells: reduction.corner(3), side: 3)
        reduction.play(cornerPath: small.solve(deadline: .infinity, clock: clock)!, remaining: 3)
        return (reduction.movesWithoutReturns, small.nodes)
    }

    /// Drops every move straight back to where the empty cell just was (both cancel out).
    static func withoutReturns(_ path: [Int], start: Int) -> [Int] {
        var kept: [Int] = []
        for cell in path {
            let before = kept.count >= 2 ? kept[kept.count - 2] : start
            if !kept.isEmpty, cell == before { kept.removeLast() } else { kept.append(cell) }
        }
        return kept
    }

    /// Empty-cell positions → tilts: the tile slides opposite to the empty cell's step.
    static func directions(_ path: [Int], start: Int, side: Int) -> [Direction] {
        var from = start
        return path.map { to in
            defer { from = to }
            switch to - from {
            case side: return .up
            case -side: return .down
            case 1: return .left
            default: return .right
            }
        }
    }
}
