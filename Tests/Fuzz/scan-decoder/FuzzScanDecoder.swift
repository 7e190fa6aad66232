// SPDX-License-Identifier: GPL-3.0-or-later
import FuzzSupport
import TiltDevices

/// The IIO scan decoder with a random layout (one to six elements of any storage
/// size, width, shift, repeat count and byte order) fed random bytes in random
/// chunks. Elements are aligned inside the scan and never overlap; each value
/// equals a bit-by-bit reference and lies in its width's range; chunking changes
/// nothing. Every chunk sits in a block of exactly its size, so AddressSanitizer
/// catches a read outside the scan. The type strings of sysfs parse and print back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScanDecoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    if input.byte() & 0x80 != 0 {
        checkTypeText(input.rest())
        return 0
    }
    var formats: [ScanElementFormat] = []
    for _ in 0..<input.int(in: 1...6) {
        let storageBits = [8, 16, 32, 64][input.int(in: 0...3)]
        let bits = input.int(in: 1...storageBits)
        let shift = input.int(in: 0...(storageBits - bits))
        guard let format = try? ScanElementFormat(bigEndian: input.bool(), signed: input.bool(), bits: bits,
                                                  storageBits: storageBits, shift: shift,
                                                  repeatCount: input.int(in: 1...4)) else {
            fatalError("a valid layout was refused: \(storageBits) bits, \(bits) used, shift \(shift)")
        }
        formats.append(format)
    }
    let chunkSizes = (0..<input.int(in: 1...3)).map { _ in input.int(in: 1...40) }
    // A few dozen scans show every alignment and chunk boundary; longer inputs only slow the run.
    let stream = input.take(512)

    var decoder = ScanDecoder(formats: formats)
    var end = 0
    for (format, offset) in zip(formats, decoder.offsets) {
        require(offset % format.size == 0, "\(format) at offset \(offset) is not aligned")
        require(offset >= end, "\(format) at offset \(offset) overlaps the element before")
        end = offset + format.size
    }
    require(decoder.scanSize >= end && decoder.scanSize % formats.map(\.size).max()! == 0,
            "a scan of \(decoder.scanSize) bytes for elements ending at \(end)")

    var scans: [[Int64]] = []
    var offset = 0
    var turn = 0
    while offset < stream.count {
        let length = min(chunkSizes[turn % chunkSizes.count], stream.count - offset)
        turn += 1
        withExactCopy(UnsafeBufferPointer(rebasing: stream[offset..<offset + length])) { chunk in
            scans += decoder.feed(UnsafeRawBufferPointer(chunk))
        }
        offset += length
        require(decoder.pendingByteCount < decoder.scanSize, "holds \(decoder.pendingByteCount) bytes, a whole scan")
    }
    require(scans.count == stream.count / decoder.scanSize, "\(scans.count) scans from \(stream.count) bytes")
    require(decoder.pendingByteCount == stream.count % decoder.scanSize, "wrong number of bytes held back")
    for (n, values) in scans.enumerated() {
        for (element, (format, position)) in zip(formats, decoder.offsets).enumerated() {
            let start = n * decoder.scanSize + position
            let expected = reference(format, Array(stream[start..<start + format.storageBytes]))
            require(values[element] == expected, "scan \(n) element \(element) \(format): \(values[element]), expected \(expected)")
            if format.signed {
                let half = Int64(1) << (format.bits - 1)   // 2^63 wraps to Int64.min: the whole range
                require(format.bits == 64 || (-half..<half).contains(values[element]), "\(values[element]) does not fit \(format)")
            } else if format.bits < 64 {
                require(UInt64(bitPattern: values[element]) >> UInt64(format.bits) == 0, "\(values[element]) does not fit \(format)")
            }
        }
    }
    return 0
}

/// The value bit by bit: the storage as a bit string, the shifted field, sign-extended.
private func reference(_ format: ScanElementFormat, _ bytes: [UInt8]) -> Int64 {
    let ordered = format.bigEndian ? bytes : bytes.reversed()
    var bitsMostSignificantFirst: [Bool] = []
    for byte in ordered { for bit in (0..<8).reversed() { bitsMostSignificantFirst.append(byte >> UInt8(bit) & 1 == 1) } }
    let field = bitsMostSignificantFirst.dropLast(format.shift).suffix(format.bits)
    let negative = format.signed && field.first == true
    var value: Int64 = 0
    for bit in field { value = value &* 2 &+ (bit != negative ? 1 : 0) }
    return negative ? -value - 1 : value
}

/// `scan_elements/*_type` text: parsed formats print as text that parses to them.
private func checkTypeText(_ bytes: UnsafeBufferPointer<UInt8>) {
    let text = String(decoding: bytes, as: UTF8.self)
    guard let format = try? ScanElementFormat(parsing: text) else { return }
    require(format.bits >= 1 && format.bits + format.shift <= format.storageBits, "\(format) does not fit its storage")
    require(format.size > 0, "\(format) takes no room")
    require((try? ScanElementFormat(parsing: format.description)) == format, "\(format) does not read back")
}
