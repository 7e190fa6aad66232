// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import TiltDevices

@Suite struct ScanDecoderTests {
    static func format(_ text: String) throws -> ScanElementFormat { try ScanElementFormat(parsing: text) }

    @Test(arguments: [
        ("le:s16/32>>0", false, true, 16, 32, 0, 1),
        ("be:u12/16>>4\n", true, false, 12, 16, 4, 1),
        ("le:s64/64>>0", false, true, 64, 64, 0, 1),
        ("le:u10/16X3>>6", false, false, 10, 16, 6, 3),
        ("le:s8/8>>0", false, true, 8, 8, 0, 1),
    ])
    func parsesTheABIsTypeStrings(text: String, bigEndian: Bool, signed: Bool, bits: Int, storage: Int,
                                  shift: Int, repeatCount: Int) throws {
        let format = try Self.format(text)
        #expect(format.bigEndian == bigEndian)
        #expect(format.signed == signed)
        #expect(format.bits == bits)
        #expect(format.storageBits == storage)
        #expect(format.shift == shift)
        #expect(format.repeatCount == repeatCount)
        #expect(try Self.format(format.description) == format)
    }

    @Test(arguments: ["", "le:s16", "xe:s16/16>>0", "le:f16/16>>0", "le:s16/12>>0", "le:s16/16>>4",
                      "le:s0/16>>0", "le:s16/24>>0", "le:s16/128>>0", "le:sx/16>>0", "le:s16/16>>",
                      // Numbers that overflowed bits + shift and trapped instead of failing.
                      "le:s9223372036854775807/64>>1", "le:s1/64>>9223372036854775807",
                      // A repeat count beyond the kernel's byte overflowed the scan size.
                      "le:s8/8X256>>0", "le:s8/8X4611686018427387904>>0", "le:s8/8X0>>0"])
    func rejectsWhatIsNotAScanType(text: String) {
        #expect(throws: ScanFormatError.self) { try Self.format(text) }
    }

    /// The I2C accelerometers' layouts: 6 to 16 real bits, left-aligned or not, in 8 or
    /// 16 bits, either byte order (bmc150 le:s12/16>>4, mxc4005 be:s12/16>>4, stk8ba50
    /// le:s10/16>>6, kxsd9 be:u12/16>>4, mma7660 6 bits, mc3230 8 bits).
    @Test(arguments: 6...16)
    func realBitsFromSixToSixteenInEitherByteOrder(bits: Int) throws {
        let storage = bits <= 8 ? 8 : 16
        let shift = storage - bits
        let extremes: [Int64] = [-(1 << (bits - 1)), -1, 0, 1, (1 << (bits - 1)) - 1]
        for bigEndian in [false, true] {
            for signed in [true, false] {
                let format = try ScanElementFormat(bigEndian: bigEndian, signed: signed, bits: bits,
                                                   storageBits: storage, shift: shift)
                #expect(try Self.format(format.description) == format)
                for value in extremes {
                    let stored = UInt64(bitPattern: value) & ((1 << UInt64(bits)) - 1)
                    // The unused low bits carry noise; the value is left-aligned.
                    let word = stored << UInt64(shift) | ((1 << UInt64(shift)) - 1)
                    var bytes = (0..<storage / 8).map { UInt8(truncatingIfNeeded: word >> UInt64(8 * $0)) }
                    if bigEndian { bytes.reverse() }
                    let decoded = bytes.withUnsafeBytes { format.value(in: $0, at: 0) }
                    let want = signed ? value : Int64(stored)
                    #expect(decoded == want, "\(format) \(bytes)")
                }
            }
        }
    }

    @Test func masksGarbageUpperBitsAndSignExtends() throws {
        // le:s16/32: the real HID driver leaves the next axis's bytes in the upper half.
        let format = try Self.format("le:s16/32>>0")
        let cases: [([UInt8], Int64)] = [
            ([0x9C, 0xFF, 0xCD, 0xAB], -100),      // 0xABCDFF9C
            ([0x64, 0x00, 0xFF, 0xFF], 100),       // 0xFFFF0064
            ([0x00, 0x80, 0x34, 0x12], -32768),
            ([0xFF, 0x7F, 0x00, 0x80], 32767),
        ]
        for (bytes, expected) in cases {
            #expect(bytes.withUnsafeBytes { format.value(in: $0, at: 0) } == expected, "\(bytes)")
        }
    }

    @Test func shiftsBeforeMaskingAndReadsBigEndian() throws {
        // be:s12/16>>4: 12 significant bits in the top of a big-endian word; the low nibble is noise.
        let format = try Self.format("be:s12/16>>4")
        #expect([UInt8]([0x80, 0x0F]).withUnsafeBytes { format.value(in: $0, at: 0) } == -2048)
        #expect([UInt8]([0x7F, 0xF5]).withUnsafeBytes { format.value(in: $0, at: 0) } == 2047)
        #expect([UInt8]([0xFF, 0xFA]).withUnsafeBytes { format.value(in: $0, at: 0) } == -1)
        let unsigned = try Self.format("be:u12/16>>4")
        #expect([UInt8]([0xFF, 0xFA]).withUnsafeBytes { unsigned.value(in: $0, at: 0) } == 4095)
    }

    @Test func alignsEachElementToItsSizeAndPadsTheScan() throws {
        // Three s16 and a s64 timestamp: the timestamp moves to offset 8, the scan is 16 bytes.
        let short = ScanDecoder(formats: [try Self.format("le:s16/16>>0"), try Self.format("le:s16/16>>0"),
                                          try Self.format("le:s16/16>>0"), try Self.format("le:s64/64>>0")])
        #expect(short.offsets == [0, 2, 4, 8])
        #expect(short.scanSize == 16)
        // The HID layout: three 32-bit words, the timestamp at 16, 24 bytes.
        let hid = ScanDecoder(formats: [try Self.format("le:s16/32>>0"), try Self.format("le:s16/32>>0"),
                                        try Self.format("le:s16/32>>0"), try Self.format("le:s64/64>>0")])
        #expect(hid.offsets == [0, 4, 8, 16])
        #expect(hid.scanSize == 24)
        // Without a timestamp: a u8 then a s32 pads to 4, the scan to a multiple of 4.
        let odd = ScanDecoder(formats: [try Self.format("le:u8/8>>0"), try Self.format("le:s32/32>>0"),
                                        try Self.format("le:u8/8>>0")])
        #expect(odd.offsets == [0, 4, 8])
        #expect(odd.scanSize == 12)
    }

    @Test func feedsWholeScansAndKeepsAPartialOne() throws {
        var decoder = ScanDecoder(formats: [try Self.format("le:s16/16>>0"), try Self.format("le:s16/16>>0"),
                                            try Self.format("le:s16/16>>0"), try Self.format("le:s64/64>>0")])
        func scan(_ x: Int16, _ y: Int16, _ z: Int16, _ t: Int64) -> [UInt8] {
            withUnsafeBytes(of: x.littleEndian, Array.init) + withUnsafeBytes(of: y.littleEndian, Array.init)
                + withUnsafeBytes(of: z.littleEndian, Array.init) + [0xAA, 0xAA]
                + withUnsafeBytes(of: t.littleEndian, Array.init)
        }
        let bytes = scan(1, -2, 3, 1_000) + scan(-4, 5, -6, 2_000) + scan(7, 8, 9, 3_000)
        let first = bytes[..<20].withUnsafeBytes { decoder.feed($0) }
        #expect(first == [[1, -2, 3, 1_000]])
        #expect(decoder.pendingByteCount == 4)
        let rest = bytes[20...].withUnsafeBytes { decoder.feed($0) }
        #expect(rest == [[-4, 5, -6, 2_000], [7, 8, 9, 3_000]])
        #expect(decoder.pendingByteCount == 0)
        // Byte by byte gives the same.
        var slow = ScanDecoder(formats: decoder.formats)
        var scans: [[Int64]] = []
        for byte in bytes { scans += [byte].withUnsafeBytes { slow.feed($0) } }
        #expect(scans == first + rest)
    }
}
