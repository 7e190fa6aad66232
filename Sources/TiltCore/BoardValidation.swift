// SPDX-License-Identifier: GPL-3.0-or-later
/// Checking cells that come from outside (a client's `new` with a `board`) before
/// a game starts from them: each way they can be wrong has its own reason.
extension Board {
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        /// The count is not side² for a side in `Board.sides`.
        case wrongLength(Int)
        case valueOutOfRange(index: Int, value: Int)
        /// A value appears twice (so another is missing): not a permutation.
        case repeatedValue(Int)
        /// A permutation no sequence of moves can solve (docs/protocol.md).
        case unsolvable

        public var description: String {
            switch self {
            case .wrongLength(let count):
                let squares = Board.sides.map { String($0 * $0) }.joined(separator: ", ")
                return "a board has size² values for a size from \(Board.sides.lowerBound) to \(Board.sides.upperBound) "
                    + "(\(squares)), not \(count)"
            case .valueOutOfRange(let index, let value):
                return "the value \(value) at index \(index) is out of range"
            case .repeatedValue(let value):
                return "the value \(value) appears more than once: each value must appear exactly once"
            case .unsolvable:
                return "the board cannot be solved (swapping two tiles makes it solvable)"
            }
        }
    }

    /// A board from cells in the protocol's numbering (value size²−1 is the empty
    /// cell); the side follows from their count.
    public init(cells: [Int]) throws(Problem) {
        var side = 0
        while side * side < cells.count { side += 1 }
        guard side * side == cells.count, Board.sides.contains(side) else { throw .wrongLength(cells.count) }
        var seen = [Bool](repeating: false, count: cells.count)
        for (index, value) in cells.enumerated() {
            guard value >= 0, value < cells.count else { throw .valueOutOfRange(index: index, value: value) }
            guard !seen[value] else { throw .repeatedValue(value) }
            seen[value] = true
        }
        guard let board = Board(side: side, cells: cells) else { throw .unsolvable }
        self = board
    }
}
