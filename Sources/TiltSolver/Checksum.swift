// SPDX-License-Identifier: GPL-3.0-or-later
/// FNV-1a, 64 bits: a short, well-known hash that catches truncated or damaged
/// table files (docs/solver.md, "Tables on disk"). Not a defence against tampering:
/// the tables only steer a search, and every answer is replayed before it is trusted.
enum Checksum {
    static let offsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325
    static let prime: UInt64 = 0x0000_0100_0000_01B3

    static func fnv1a(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.withUnsafeBufferPointer { bytes in
            var hash = offsetBasis
            for byte in bytes {
                hash ^= UInt64(byte)
                hash &*= prime
            }
            return hash
        }
    }

    static func fnv1a(_ bytes: [UInt8]) -> UInt64 { fnv1a(bytes[...]) }
}
