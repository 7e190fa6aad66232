// SPDX-License-Identifier: GPL-3.0-or-later
import FuzzSupport
import TiltCore

/// The splitter fed a stream in random chunks gives the same pieces as a plain
/// split of the whole stream: each `\n`-terminated line, or `.tooLong` once for a
/// line over the limit; the unterminated end at `finish`. No line it hands out is
/// longer than the limit, and it never holds more than the limit.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLineSplitter(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let maxLineLength = input.int(in: 0...40)
    // Chunk sizes cycle through a few fuzzer-chosen lengths (0 included: empty reads).
    let chunkSizes = (0..<input.int(in: 1...4)).map { _ in input.int(in: 0...50) }
    let stream = input.rest()

    enum Piece: Equatable { case line([UInt8]), tooLong }
    var expected: [Piece] = []
    var start = 0
    for i in 0...stream.count where i == stream.count || stream[i] == UInt8(ascii: "\n") {
        let length = i - start
        if i < stream.count || length > 0 {
            expected.append(length > maxLineLength ? .tooLong : .line(Array(stream[start..<i])))
        }
        start = i + 1
    }

    var splitter = LineSplitter(maxLineLength: maxLineLength)
    var pieces: [Piece] = []
    func take(_ piece: LineSplitter.Piece) {
        switch piece {
        case .line(let line):
            require(line.count <= maxLineLength, "a line of \(line.count) bytes passed a limit of \(maxLineLength)")
            require(!line.contains(UInt8(ascii: "\n")), "a line holds a newline")
            pieces.append(.line(Array(line)))
        case .tooLong:
            pieces.append(.tooLong)
        }
    }
    var offset = 0
    var turn = 0
    while offset < stream.count {
        let length = min(chunkSizes[turn % chunkSizes.count], stream.count - offset)
        turn += 1
        withExactCopy(UnsafeBufferPointer(rebasing: stream[offset..<offset + length])) { splitter.feed($0, take) }
        offset += length
        require(splitter.pendingCount <= maxLineLength, "holds \(splitter.pendingCount) bytes, limit \(maxLineLength)")
        if turn > stream.count + 8 { break }   // only empty chunks: nothing more to learn
    }
    guard offset == stream.count else { return 0 }
    splitter.finish(take)
    require(splitter.pendingCount == 0, "bytes held after finish")
    require(pieces == expected, "chunks \(chunkSizes), limit \(maxLineLength): \(pieces) instead of \(expected)")
    return 0
}
