// SPDX-License-Identifier: GPL-3.0-or-later
/// One scan element's layout, as `scan_elements/*_type` states it in the IIO ABI:
/// `[be|le]:[s|u]bits/storagebits[Xrepeat]>>shift`, e.g. `le:s16/32>>0`.
public struct ScanElementFormat: Equatable, Sendable, CustomStringConvertible {
    public var bigEndian: Bool
    public var signed: Bool
    /// Significant bits ("realbits").
    public var bits: Int
    /// Bits the element occupies in the scan.
    public var storageBits: Int
    /// Right shift that drops unused low bits before masking.
    public var shift: Int
    public var repeatCount: Int

    public init(bigEndian: Bool = false, signed: Bool, bits: Int, storageBits: Int, shift: Int = 0,
                repeatCount: Int = 1) throws(ScanFormatError) {
        guard [8, 16, 32, 64].contains(storageBits) else {
            throw ScanFormatError("storage of \(storageBits) bits is not 8, 16, 32 or 64")
        }
        // Compared one at a time, never summed: the text may hold any Int, and a sum could overflow.
        guard bits >= 1, bits <= storageBits, shift >= 0, shift <= storageBits - bits else {
            throw ScanFormatError("\(bits) bits shifted by \(shift) do not fit in \(storageBits) bits of storage")
        }
        // The kernel's repeat is a byte (struct iio_scan_type); a larger one would only
        // overflow the scan size.
        guard (1...255).contains(repeatCount) else { throw ScanFormatError("repeat count \(repeatCount)") }
        self.bigEndian = bigEndian
        self.signed = signed
        self.bits = bits
        self.storageBits = storageBits
        self.shift = shift
        self.repeatCount = repeatCount
    }

    /// Parses the sysfs text (a trailing newline is ignored).
    public init(parsing text: String) throws(ScanFormatError) {
        let trimmed = text.trimmingWhitespace
        func fail() -> ScanFormatError { ScanFormatError("not an IIO scan type: '\(trimmed)'") }
        let parts = trimmed.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == "le" || parts[0] == "be", let sign = parts[1].first,
              sign == "s" || sign == "u" else { throw fail() }
        var rest = parts[1].dropFirst()
        var shift = 0
        // ">>" by hand: substring search is in _StringProcessing, which the daemon's
        // modules do not import (docs/performance.md, memory).
        if let marker = rest.firstIndex(of: ">") {
            let second = rest.index(after: marker)
            guard second < rest.endIndex, rest[second] == ">", let value = Int(rest[rest.index(after: second)...]) else {
                throw fail()
            }
            shift = value
            rest = rest[..<marker]
        }
        var repeatCount = 1
        if let x = rest.firstIndex(of: "X") {
            guard let value = Int(rest[rest.index(after: x)...]) else { throw fail() }
            repeatCount = value
            rest = rest[..<x]
        }
        let sizes = rest.split(separator: "/", omittingEmptySubsequences: false)
        guard sizes.count == 2, let bits = Int(sizes[0]), let storage = Int(sizes[1]) else { throw fail() }
        try self.init(bigEndian: parts[0] == "be", signed: sign == "s", bits: bits, storageBits: storage,
                      shift: shift, repeatCount: repeatCount)
    }

    public var storageBytes: Int { storageBits / 8 }
    /// Bytes of the whole element, repeats included; also its alignment in the scan.
    public var size: Int { storageBytes * repeatCount }

    public var description: String {
        (bigEndian ? "be" : "le") + ":" + (signed ? "s" : "u") + "\(bits)/\(storageBits)"
            + (repeatCount > 1 ? "X\(repeatCount)" : "") + ">>\(shift)"
    }

    /// The value stored at `offset`: shifted, masked to `bits` and sign-extended,
    /// so bits the driver left in the upper part of the storage never leak in.
    public func value(in bytes: UnsafeRawBufferPointer, at offset: Int) -> Int64 {
        var raw: UInt64 = 0
        for i in 0..<storageBytes {
            let byte = UInt64(bytes[offset + (bigEndian ? i : storageBytes - 1 - i)])
            raw = raw << 8 | byte
        }
        raw >>= UInt64(shift)
        guard bits < 64 else { return Int64(bitPattern: raw) }
        let mask: UInt64 = (1 << UInt64(bits)) - 1
        raw &= mask
        if signed, raw & (1 << UInt64(bits - 1)) != 0 { raw |= ~mask }
        return Int64(bitPattern: raw)
    }
}

public struct ScanFormatError: Error, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Splits an IIO buffer's byte stream into scans and decodes each element.
///
/// The layout is the kernel's: the enabled elements in increasing scan index,
/// each aligned to its own size, and the scan padded to a multiple of the largest
/// element. Bytes of an incomplete scan are kept for the next `feed`.
public struct ScanDecoder: Sendable {
    public let formats: [ScanElementFormat]
    /// Byte offset of each element within a scan.
    public let offsets: [Int]
    /// Bytes per scan.
    public let scanSize: Int
    private var partial: [UInt8] = []

    /// `formats` in scan order (increasing `scan_elements/*_index`).
    public init(formats: [ScanElementFormat]) {
        var offsets: [Int] = []
        var size = 0
        var largest = 1
        for format in formats {
            size = Self.align(size, to: format.size)
            offsets.append(size)
            size += format.size
            largest = max(largest, format.size)
        }
        self.formats = formats
        self.offsets = offsets
        scanSize = Self.align(size, to: largest)
    }

    private static func align(_ value: Int, to alignment: Int) -> Int {
        (value + alignment - 1) / alignment * alignment
    }

    /// One scan's element values (the first of any repeats), in scan order.
    public func decodeScan(_ bytes: UnsafeRawBufferPointer) -> [Int64] {
        precondition(bytes.count >= scanSize, "a scan needs \(scanSize) bytes")
        return zip(formats, offsets).map { $0.value(in: bytes, at: $1) }
    }

    /// Decodes every scan completed by `bytes`, in order.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) -> [[Int64]] {
        guard scanSize > 0 else { return [] }
        var scans: [[Int64]] = []
        var start = 0
        if !partial.isEmpty {
            let needed = min(scanSize - partial.count, bytes.count)
            partial.append(contentsOf: bytes[0..<needed])
            start = needed
            guard partial.count == scanSize else { return [] }
            scans.append(partial.withUnsafeBytes { decodeScan($0) })
            partial.removeAll(keepingCapacity: true)
        }
        while bytes.count - start >= scanSize {
            scans.append(decodeScan(UnsafeRawBufferPointer(rebasing: bytes[start..<start + scanSize])))
            start += scanSize
        }
        partial.append(contentsOf: bytes[start...])
        return scans
    }

    /// Bytes held back from an incomplete scan.
    public var pendingByteCount: Int { partial.count }
}
