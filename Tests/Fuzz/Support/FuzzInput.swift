// SPDX-License-Identifier: GPL-3.0-or-later
/// Reads a fuzzer's input as decisions (sizes, flags, choices) followed by payload,
/// so that one byte string drives both the shape of a test and its data.
/// Running out of bytes yields zeros: every input is a valid test.
public struct FuzzInput {
    public let bytes: UnsafeBufferPointer<UInt8>
    public private(set) var position = 0

    public init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = UnsafeBufferPointer(start: size > 0 ? data : nil, count: size)
    }

    public var isAtEnd: Bool { position >= bytes.count }

    public mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// A number in `range`, from one or two bytes.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        let span = range.upperBound - range.lowerBound + 1
        let raw = span > 256 ? Int(byte()) << 8 | Int(byte()) : Int(byte())
        return range.lowerBound + raw % span
    }

    public mutating func bool() -> Bool { byte() & 1 == 1 }

    /// The next `count` bytes (fewer at the end).
    public mutating func take(_ count: Int) -> UnsafeBufferPointer<UInt8> {
        let end = min(bytes.count, position + max(0, count))
        defer { position = end }
        return UnsafeBufferPointer(rebasing: bytes[position..<end])
    }

    /// Everything not read yet.
    public mutating func rest() -> UnsafeBufferPointer<UInt8> { take(bytes.count - position) }
}

/// Stops the run with a message when an invariant does not hold: libFuzzer sees
/// the crash and keeps the input that caused it.
public func require(_ condition: Bool, _ message: @autoclosure () -> String,
                    file: StaticString = #fileID, line: UInt = #line) {
    if !condition { fatalError("invariant broken: \(message())", file: file, line: line) }
}

/// The bytes copied into a heap block of exactly their size, so that AddressSanitizer
/// reports a read even one byte past them (an array's spare capacity would hide it).
public func withExactCopy<R>(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
    defer { copy.deallocate() }
    _ = copy.initialize(from: bytes)
    return body(UnsafeBufferPointer(copy))
}
