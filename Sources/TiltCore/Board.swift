// SPDX-License-Identifier: GPL-3.0-or-later
/// The arrangement of an N×N sliding puzzle (docs/puzzle.md).
///
/// `cells[i]` is the value of the tile at position `i` (row-major); the value
/// `count - 1` is the empty cell. The only way to change an arrangement is a legal
/// move, so every board reachable through this API is solvable.
public struct Board: Equatable, Hashable, Sendable {
    public static let sides = 2...10

    public let side: Int
    public private(set) var cells: [UInt8]
    public private(set) var emptyIndex: Int

    /// A solved board.
    public init(side: Int = 4) {
        precondition(Board.sides.contains(side), "side must be in \(Board.sides)")
        self.side = side
        self.cells = (0..<side * side).map { UInt8($0) }
        self.emptyIndex = side * side - 1
    }

    /// A board from saved cells; nil unless they are a solvable permutation.
    public init?(side: Int, cells: [Int]) {
        guard Board.sides.contains(side), cells.count == side * side,
              Set(cells) == Set(0..<side * side) else { return nil }
        self.side = side
        self.cells = cells.map { UInt8($0) }
        self.emptyIndex = cells.firstIndex(of: side * side - 1)!
        guard isSolvable else { return nil }
    }

    public var count: Int { cells.count }
    public var emptyValue: Int { count - 1 }
    public subscript(index: Int) -> Int { Int(cells[index]) }
    public var values: [Int] { cells.map(Int.init) }

    public var isSolved: Bool {
        for i in cells.indices where cells[i] != UInt8(i) { return false }
        return true
    }

    /// The index of the tile that tilting in `direction` slides into the empty cell,
    /// or nil when no tile is on that side of it.
    public func tileIndex(tilting direction: Direction) -> Int? {
        let e = emptyIndex
        switch direction {
        case .up: return e + side < count ? e + side : nil
        case .down: return e - side >= 0 ? e - side : nil
        case .left: return (e + 1) % side != 0 ? e + 1 : nil
        case .right: return e % side != 0 ? e - 1 : nil
        }
    }

    /// Slides a tile into the empty cell in `direction`; nil (and no change) if none can.
    @discardableResult
    public mutating func tilt(_ direction: Direction) -> Move? {
        guard let from = tileIndex(tilting: direction) else { return nil }
        let to = emptyIndex
        cells.swapAt(from, to)
        emptyIndex = from
        return Move(from: from, to: to, direction: direction)
    }

    /// The direction and number of single moves that slide the tile at `index`
    /// (and every tile between it and the empty cell) towards the empty cell;
    /// nil unless `index` shares a row or column with the empty cell.
    public func slidePath(from index: Int) -> (direction: Direction, count: Int)? {
        guard cells.indices.contains(index), index != emptyIndex else { return nil }
        let (row, column) = (index / side, index % side)
        let (emptyRow, emptyColumn) = (emptyIndex / side, emptyIndex % side)
        if row == emptyRow {
            return column < emptyColumn ? (.right, emptyColumn - column) : (.left, column - emptyColumn)
        }
        if column == emptyColumn {
            return row < emptyRow ? (.down, emptyRow - row) : (.up, row - emptyRow)
        }
        return nil
    }

    /// Whether the arrangement can reach the solved one by legal moves.
    ///
    /// The classic invariant: the permutation's parity (tiles only) plus, on even
    /// sides, the empty cell's row distance from the bottom row, must be even.
    public var isSolvable: Bool {
        var inversions = 0
        let tiles = cells.filter { Int($0) != emptyValue }
        for i in tiles.indices {
            for j in (i + 1)..<tiles.count where tiles[i] > tiles[j] { inversions += 1 }
        }
        if side % 2 == 1 { return inversions % 2 == 0 }
        let rowsFromBottom = side - 1 - emptyIndex / side
        return (inversions + rowsFromBottom) % 2 == 0
    }

    /// Sum over all tiles of their distance from their solved position.
    public var manhattanDistance: Int {
        var total = 0
        for (index, value) in cells.enumerated() where Int(value) != emptyValue {
            let home = Int(value)
            total += abs(index / side - home / side) + abs(index % side - home % side)
        }
        return total
    }
}
