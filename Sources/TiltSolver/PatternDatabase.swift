// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore

/// Additive pattern databases for the 4×4 board (docs/solver.md, "4×4").
///
/// The fifteen tiles are split into three groups of five. For each group a table
/// holds, for every placement of its five tiles, the fewest moves *of those tiles*
/// that bring them home, whatever the other tiles do. Moves of different groups are
/// different moves, so the three values add up to a lower bound on the distance.
/// Two such partitions are kept, and each is also looked up on the board's mirror
/// image: the search takes the largest of the four sums.
///
/// A table is indexed by the five positions as 4-bit digits (2²⁰ entries), so a move
/// updates an index with one addition; each entry is half the group's distance over
/// its Manhattan distance, in four bits (`PatternTable`).
public struct PatternDatabase: Sendable {
    /// Partitions of the tiles into groups of five, each group's tiles in digit order
    /// (most significant first). Tile `v`'s home is cell `v`; the empty cell's home is
    /// 15. The first is the left column with its neighbour and two 2×3 blocks less
    /// those cells; the second the top row with the cell under its third tile, the
    /// two columns below its first two, and the rest: of the pairs measured, the
    /// fewest nodes (docs/solver.md).
    public static let partitions: [[[UInt8]]] = [
        [[0, 1, 4, 8, 12], [2, 3, 5, 6, 7], [9, 10, 11, 13, 14]],
        [[0, 1, 2, 3, 6], [4, 5, 8, 9, 12], [7, 10, 11, 13, 14]],
    ]
    /// Every group of every partition, one table each.
    static var groups: [[UInt8]] { partitions.flatMap { $0 } }
    static let side = 4
    static let tilesPerGroup = 5
    static let entriesPerTable = 1 << 20
    /// Marks an index whose digits repeat a cell: no placement.
    static let unused: UInt8 = 255

    /// One table per group of `groups`, in that order.
    let tables: [PatternTable]
    /// The duplicate paths the search skips; made with the tables (once per process),
    /// so that a hint's budget never pays for it.
    let moves = MoveAutomaton.shared

    /// Built on first use, about 1.5 s of CPU in a release build (docs/performance.md).
    public static let shared = PatternDatabase()

    /// Builds the tables by a breadth-first search backwards from the solved board.
    public init() {
        tables = Self.groups.map { PatternTable(distances: PatternDatabaseBuilder.table(for: $0)!, group: $0) }
    }

    /// Builds the tables unless `stop` says to give up (asked often while building): then nil.
    public init?(unless stop: () -> Bool) {
        var tables: [PatternTable] = []
        for group in Self.groups {
            guard let distances = PatternDatabaseBuilder.table(for: group, stop: stop) else { return nil }
            tables.append(PatternTable(distances: distances, group: group))
        }
        self.tables = tables
    }

    init(tables: [PatternTable]) { self.tables = tables }

    /// No tables, for the searches that do not use them.
    static let empty = PatternDatabase(tables: [])

    /// Bytes the tables take in memory.
    public var memoryBytes: Int { tables.reduce(0) { $0 + $1.entries.count } }

    /// The index of a group's placement in its table: its tiles' cells as 4-bit digits.
    static func index(of group: [UInt8], cellOfTile: [Int]) -> Int {
        var index = 0
        for tile in group { index = index << 4 | cellOfTile[Int(tile)] }
        return index
    }

    /// The additive bound of one partition for a 4×4 arrangement (`cells[i]` = tile at
    /// cell i, 15 = empty), without the mirror lookup; for tests and tools.
    public func lowerBound(cells: [UInt8], partition: Int = 0) -> Int {
        var cellOfTile = [Int](repeating: 0, count: 16)
        for (cell, tile) in cells.enumerated() { cellOfTile[Int(tile)] = cell }
        var total = 0
        for g in (3 * partition)..<(3 * partition + 3) {
            let group = Self.groups[g]
            total += tables[g].distance(index: Self.index(of: group, cellOfTile: cellOfTile), group: group)
        }
        return total
    }
}
