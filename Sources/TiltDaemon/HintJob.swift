// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltSolver

/// A hint to compute: the board as it was when the client asked (docs/protocol.md, "Hints").
public struct HintJob: Sendable, Equatable {
    /// Matches the answer to the request waiting for it.
    public var ticket: Int
    public var board: Board
    /// The game's revision at the request: the answer is for this board.
    public var revision: Int

    public init(ticket: Int, board: Board, revision: Int) {
        self.ticket = ticket
        self.board = board
        self.revision = revision
    }
}

/// The worker's answer to a `HintJob`.
public struct HintAnswer: Sendable, Equatable {
    public var ticket: Int
    public var revision: Int
    public var solution: Solution

    public init(ticket: Int, revision: Int, solution: Solution) {
        self.ticket = ticket
        self.revision = revision
        self.solution = solution
    }
}
