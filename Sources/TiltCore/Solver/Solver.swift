/// Shortest (or, on big boards, short) tilt sequences that solve a board
/// (docs/solver.md). Pure: the caller supplies a monotonic clock in seconds.
///
/// - 2×2 and 3×3: IDA* with Manhattan distance and linear conflicts; always optimal.
/// - 4×4: IDA* with the additive pattern databases and their mirror; optimal unless
///   the budget runs out, when a fast reduction to 3×3 answers instead.
/// - 5×5 to 10×10: lines are put home until a 4×4 corner is left, which is then
///   solved optimally within what is left of the budget (else reduced to 3×3).
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

    public static func solve(_ board: Board, budget: Double = 0.1, database: PatternDatabase? = nil,
                             clock: () -> Double) -> Solution {
        solveReporting(board, budget: budget, database: database, clock: clock).solution
    }

    /// `solve`, with the search's statistics. `budget` is in seconds on `clock`; the
    /// pattern databases are `PatternDatabase.shared` (built on first use) unless given.
    public static func solveReporting(_ board: Board, budget: Double = 0.1, database: PatternDatabase? = nil,
                                      clock: () -> Double) -> Report {
        let side = board.side
        if board.isSolved { return Report(solution: Solution(directions: [], isOptimal: true), nodes: 0, lowerBound: 0) }
        // Building the shared tables (once per process) is not part of the budget.
        let database = side >= 4 ? database ?? PatternDatabase.shared : PatternDatabase.empty
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
            lowerBound = max(lowerBound, database.lowerBound(cells: board.cells))
            var search = FifteenSearch(database: database)
            if let path = search.solve(board.cells, deadline: deadline, clock: clock) {
                emptyPath = path
                optimal = true
            } else {
                let quick = reducingToThree(board.cells, clock: clock)
                emptyPath = quick.path
                nodes += quick.nodes
            }
            nodes += search.nodes
        default:
            let finished = finishByReduction(board.cells, side: side, deadline: deadline, database: database, clock: clock)
            emptyPath = finished.path
            nodes = finished.nodes
            cornerOptimal = finished.cornerOptimal
        }
        emptyPath = withoutReturns(emptyPath, start: board.emptyIndex)
        let directions = Self.directions(emptyPath, start: board.emptyIndex, side: side)
        var check = board
        for direction in directions { precondition(check.tilt(direction) != nil, "solver produced an illegal move") }
        precondition(check.isSolved, "solver produced a sequence that does not solve the board")
        optimal = optimal || directions.count == lowerBound
        return Report(solution: Solution(directions: directions, isOptimal: optimal), nodes: nodes, lowerBound: lowerBound,
                      cornerOptimal: cornerOptimal)
    }

    /// Reduces to a 4×4 corner solved optimally, or, past the deadline, to a 3×3 corner.
    static func finishByReduction(_ cells: [UInt8], side: Int, deadline: Double, database: PatternDatabase,
                                  clock: () -> Double) -> (path: [Int], nodes: Int, cornerOptimal: Bool) {
        var reduction = Reduction(cells: cells, side: side)
        reduction.reduce(to: 4)
        var search = FifteenSearch(database: database)
        let corner = reduction.corner(4)
        if let path = search.solve(corner, deadline: deadline, clock: clock) {
            reduction.play(cornerPath: path, remaining: 4)
            return (reduction.path, search.nodes, true)
        }
        // Out of time: the corner in turn loses a row and a column to lines put home.
        let quick = reducingToThree(corner, clock: clock)
        reduction.play(cornerPath: quick.path, remaining: 4)
        return (reduction.path, search.nodes + quick.nodes, false)
    }

    /// A 4×4 board solved fast: its top row and left column put home, then the 3×3
    /// corner solved optimally (milliseconds; valid, but longer than optimal).
    static func reducingToThree(_ cells: [UInt8], clock: () -> Double) -> (path: [Int], nodes: Int) {
        var reduction = Reduction(cells: cells, side: 4)
        reduction.reduce(to: 3)
        var small = ManhattanSearch(cells: reduction.corner(3), side: 3)
        reduction.play(cornerPath: small.solve(deadline: .infinity, clock: clock)!, remaining: 3)
        return (reduction.path, small.nodes)
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
