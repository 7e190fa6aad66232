// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltSolver

/// The last hint computed, so that a player who follows it gets the rest of the same
/// answer at once (a tail of a shortest solution is a shortest solution), and asking
/// twice costs nothing (docs/protocol.md, "Hints").
struct HintMemory {
    private var start: Board?
    private var solution = Solution(directions: [], isOptimal: false)

    mutating func remember(_ solution: Solution, for board: Board) {
        start = board
        self.solution = solution
    }

    /// The rest of the remembered answer when `board` lies on its way.
    func answer(for board: Board) -> Solution? {
        guard var walk = start, walk.side == board.side else { return nil }
        for (done, direction) in solution.directions.enumerated() {
            if walk == board {
                return Solution(directions: Array(solution.directions[done...]), isOptimal: solution.isOptimal)
            }
            _ = walk.tilt(direction)
        }
        return nil
    }
}
