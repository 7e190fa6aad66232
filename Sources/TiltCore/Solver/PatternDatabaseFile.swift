/// The pattern databases as bytes, for a cache on disk (docs/solver.md, "Tables on disk").
/// The caller does the file I/O; this side checks everything it reads.
///
/// Layout: `TPDB`, format version, side, group count, group size, the groups' tiles,
/// then each table's entries for the placements with five distinct cells in index
/// order (524,160 bytes per table), then the FNV-1a 64 checksum of everything before
/// it, little-endian.
extension PatternDatabase {
    public static let formatVersion: UInt8 = 1
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
        bytes += [formatVersion, UInt8(side), UInt8(groups.count), UInt8(tilesPerGroup)]
        for group in groups { bytes += group }
        return bytes
    }

    /// The length of a serialised table set.
    public static var serializedCount: Int { header.count + groups.count * placementsPerTable + 8 }

    public func serialized() -> [UInt8] {
        var bytes = Self.header
        bytes.reserveCapacity(Self.serializedCount)
        tables.withUnsafeBufferPointer { tables in
            for base in stride(from: 0, to: tables.count, by: Self.entriesPerTable) {
                Self.forEachPlacement { bytes.append(tables[base + $0]) }
            }
        }
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
            if bytes.count >= 4, Array(bytes.prefix(4)) == Self.magic, bytes.count > 4, bytes[4] != Self.formatVersion {
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
        var tables = [UInt8](repeating: Self.unused, count: Self.groups.count * Self.entriesPerTable)
        var next = header.count
        var largest: UInt8 = 0
        tables.withUnsafeMutableBufferPointer { tables in
            bytes.withUnsafeBufferPointer { bytes in
                for base in stride(from: 0, to: tables.count, by: Self.entriesPerTable) {
                    Self.forEachPlacement { index in
                        tables[base + index] = bytes[next]
                        largest = max(largest, bytes[next])
                        next += 1
                    }
                }
            }
        }
        // No placement of five tiles is more than a few dozen of their moves from home.
        guard largest < 100 else { throw .badEntry }
        self.init(tables: tables)
    }

    /// Calls `body` with the index of every placement of five tiles on distinct cells,
    /// in increasing order.
    static func forEachPlacement(_ body: (Int) -> Void) {
        for a in 0..<16 {
            for b in 0..<16 where b != a {
                for c in 0..<16 where c != a && c != b {
                    let abc = (a << 8 | b << 4 | c) << 8
                    for d in 0..<16 where d != a && d != b && d != c {
                        for e in 0..<16 where e != a && e != b && e != c && e != d {
                            body(abc | d << 4 | e)
                        }
                    }
                }
            }
        }
    }
}
