// SPDX-License-Identifier: GPL-3.0-or-later
/// Shortens a solution by windows (docs/solver.md, "Big boards"): the boards before
/// and after a window of the path are fixed, and the plain IDA* (`ManhattanSearch`,
/// bounded by the Manhattan distance of every tile from where the later board has it)
/// looks for a shorter way between them. Whatever it finds joins the same two boards,
/// so the path stays a path that solves the board, only shorter.
struct PathShortening {
    let side: Int
    /// Nodes searched in all windows so far.
    private(set) var totalNodes = 0

    init(side: Int) { self.side = side }

    /// `path` (empty-cell positions from `start`) with each window of `window` moves
    /// replaced by a shorter way between the same boards when one is found within
    /// `nodesPerWindow`; stops once `totalNodes` passes `nodeBudget` or `clock`
    /// passes `deadline` (read once a window).
    mutating func shorten(_ path: [Int], from start: [UInt8], window: Int, step: Int, nodesPerWindow: Int,
                          nodeBudget: Int, deadline: Double, clock: () -> Double) -> [Int] {
        let blankTile = UInt8(side * side - 1)
        func play(_ cells: inout [UInt8], _ blank: inout Int, _ moves: ArraySlice<Int>) {
            for cell in moves { cells[blank] = cells[cell]; cells[cell] = blankTile; blank = cell }
        }
        var path = path
        var board = start
        var blank = Int(board.firstIndex(of: blankTile)!)
        var i = 0
        while i + window <= path.count && totalNodes < nodeBudget && clock() <= deadline {
            // The board after the window: where each tile must be.
            var after = board
            var e = blank
            play(&after, &e, path[i..<(i + window)])
            var target = [Int](repeating: 0, count: side * side)
            for (cell, tile) in after.enumerated() { target[Int(tile)] = cell }
            var search = ManhattanSearch(cells: board, side: side, target: target)
            let shorter = search.solve(deadline: deadline, nodeLimit: min(nodesPerWindow, nodeBudget - totalNodes),
                                       longest: window - 2, clock: clock)
            totalNodes += search.nodes
            if let shorter {
                path.replaceSubrange(i..<(i + window), with: shorter)
                // Look again from a little earlier: the change may have opened others.
                i = max(0, i - step)
                board = start
                blank = Int(board.firstIndex(of: blankTile)!)
                play(&board, &blank, path[0..<i])
                continue
            }
            play(&board, &blank, path[i..<(i + step)])
            i += step
        }
        return path
    }
}
