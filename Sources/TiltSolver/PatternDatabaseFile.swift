// SPDX-License-Identifier: GPL-3.0-or-later
/// The pattern databases as bytes, for a cache on disk (docs/solver.md, "Tables on disk").
/// The caller does the file I/O; this side checks everything it reads.
///
/// Layout: `TPDB`, format version, side, partition count, groups per partition, group
/// size, the groups' tiles, then each table's entries as held in memory (`PatternTable`,
/// 512 KiB each), then the FNV-1a 64 checksum of everything before it, little-endian.
extension PatternDatabase {
    /// 1: one partition, a byte per placement; 2: two partitions, four bits per entry.
    public static let formatVersion: UInt8 = 2
    static let magic: [UInt8] = Array("TPDB".utf8)

    public enum LoadError: Error, Equatable, CustomStringConvertible {
        case wrongLength(Int), notATable, otherVersion(UInt8), otherGroups, badChecksum, badEntry

        public var description: String {
            switch self {
            case .wrongLength(let n): "pattern database of \(n) bytes, expected \(PatternDatabase.serializedCount)"
            case .notATable: "not a pattern database file"
            case .otherVersion(let v): "pattern database format \(v), expected \(PatternDatabase.formatVersion)"
            case .otherGroups: "pattern database built for other tile groups"
            case .badChecksum: "pattern database checksum does not match (damaged file)"
            case .badEntry: "pattern database entry out of range"
            }
        }
    }

    static var header: [UInt8] {
        var bytes = magic
        bytes += [formatVersion, UInt8(side), UInt8(partitions.count), UInt8(partitions[0].count), UInt8(tilesPerGroup)]
        for group in groups { bytes += group }
        return bytes
    }

    /// The length of a serialised table set.
    public static var serializedCount: Int { header.count + groups.count * PatternTable.byteCount + 8 }

    public func serialized() -> [UInt8] {
        var bytes = Self.header
        bytes.reserveCapacity(Self.serializedCount)
        for table in tables { bytes += table.entries }
        var sum = Checksum.fnv1a(bytes)
        for _ in 0..<8 {
            bytes.append(UInt8(truncatingIfNeeded: sum))
            sum >>= 8
        }
        return bytes
    }

    /// Reads tables written by `serialized()`; throws on any damage or mismatch.
    public init(serialized bytes: [UInt8]) throws(LoadError) {
        let header = Self.header
        guard bytes.count == Self.serializedCount else {
            if bytes.count > 4, Array(bytes.prefix(4)) == Self.magic, bytes[4] != Self.formatVersion {
                throw .otherVersion(bytes[4])
            }
            throw .wrongLength(bytes.count)
        }
        guard Array(bytes.prefix(4)) == Self.magic else { throw .notATable }
        guard bytes[4] == Self.formatVersion else { throw .otherVersion(bytes[4]) }
        guard Array(bytes.prefix(header.count)) == header else { throw .otherGroups }
        let body = bytes.count - 8
        var stored: UInt64 = 0
        for i in (0..<8).reversed() { stored = stored << 8 | UInt64(bytes[body + i]) }
        guard Checksum.fnv1a(bytes[0..<body]) == stored else { throw .badChecksum }
        var tables: [PatternTable] = []
        var next = header.count
        for _ in Self.groups {
            let entries = Array(bytes[next..<(next + PatternTable.byteCount)])
            next += PatternTable.byteCount
            // Where no placement is (two tiles in one cell) the builder leaves 0.
            let stray = entries.withUnsafeBufferPointer { entries in
                (0..<Self.entriesPerTable).contains { index in
                    !PatternTable.isPlacement(index) && PatternTable.halfExcess(entries.baseAddress!, index: index) != 0
                }
            }
            guard !stray else { throw .badEntry }
            tables.append(PatternTable(entries: entries))
        }
        self.init(tables: tables)
    }
}
