/// Additive pattern databases for the 4×4 board (docs/solver.md, "4×4").
///
/// The fifteen tiles are split into three groups of five. For each group a table
/// holds, for every placement of its five tiles, the fewest moves *of those tiles*
/// that bring them home, whatever the other tiles do. Moves of different groups are
/// different moves, so the three values add up to a lower bound on the distance.
///
/// A table is indexed by the five positions as 4-bit digits (2²⁰ entries, 1 MiB), so a
/// move updates an index with one addition; half the entries (repeated positions) are
/// unused and are left out of the serialised form.
public struct PatternDatabase: Sendable {
    /// The tiles of each group, in digit order (most significant first). Tile `v`'s home
    /// is cell `v`; the empty cell's home is 15. The left column with its neighbour, then
    /// two 2×3 blocks: of the partitions measured, the fewest nodes (docs/solver.md).
    public static let groups: [[UInt8]] = [[0, 1, 4, 8, 12], [2, 3, 5, 6, 7], [9, 10, 11, 13, 14]]
    static let side = 4
    static let tilesPerGroup = 5
    static let entriesPerTable = 1 << 20
    /// Placements of five tiles on distinct cells: 16·15·14·13·12.
    static let placementsPerTable = 524_160
    /// Marks an index whose digits repeat a cell: no placement.
    static let unused: UInt8 = 255

    /// The three tables one after the other, `entriesPerTable` bytes each.
    let tables: [UInt8]

    /// Built on first use, about 0.3 s in a release build (docs/performance.md).
    public static let shared = PatternDatabase()

    /// Builds the tables by a breadth-first search backwards from the solved board.
    public init() {
        var tables: [UInt8] = []
        tables.reserveCapacity(Self.groups.count * Self.entriesPerTable)
        for group in Self.groups { tables += PatternDatabaseBuilder.table(for: group) }
        self.tables = tables
    }

    init(tables: [UInt8]) { self.tables = tables }

    /// No tables, for the searches that do not use them.
    static let empty = PatternDatabase(tables: [])

    /// Bytes the tables take in memory.
    public var memoryBytes: Int { tables.count }

    /// The index of a group's placement in its table: its tiles' cells as 4-bit digits.
    static func index(of group: [UInt8], cellOfTile: [Int]) -> Int {
        var index = 0
        for tile in group { index = index << 4 | cellOfTile[Int(tile)] }
        return index
    }

    /// The additive bound for a 4×4 arrangement (`cells[i]` = tile at cell i, 15 = empty),
    /// without the mirror lookup; for tests and tools.
    public func lowerBound(cells: [UInt8]) -> Int {
        var cellOfTile = [Int](repeating: 0, count: 16)
        for (cell, tile) in cells.enumerated() { cellOfTile[Int(tile)] = cell }
        var total = 0
        for (g, group) in Self.groups.enumerated() {
            total += Int(tables[g * Self.entriesPerTable + Self.index(of: group, cellOfTile: cellOfTile)])
        }
        return total
    }
}
