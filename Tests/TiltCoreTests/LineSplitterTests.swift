// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import TiltCore

/// Line framing: a stream of chunks into lines, overlong ones reported once.
@Suite struct LineSplitterTests {
    func split(_ chunks: [String], max: Int = 10) -> [String] {
        var splitter = LineSplitter(maxLineLength: max)
        var out: [String] = []
        func take(_ piece: LineSplitter.Piece) {
            switch piece {
            case .line(let bytes): out.append(String(decoding: bytes, as: UTF8.self))
            case .tooLong: out.append("<too long>")
            }
        }
        for chunk in chunks {
            Array(chunk.utf8).withUnsafeBufferPointer { splitter.feed($0, take) }
        }
        splitter.finish(take)
        return out
    }

    @Test func linesAcrossChunkBoundaries() {
        #expect(split(["ab\ncd", "ef\n", "\ng"]) == ["ab", "cdef", "", "g"])
        #expect(split(["a", "b", "c", "\n"]) == ["abc"])
    }

    @Test func overlongLinesAreReportedOnceAndSkipped() {
        #expect(split(["0123456789A\nok\n"]) == ["<too long>", "ok"])
        #expect(split(["012345", "6789AB", "CDEF\nok\n"]) == ["<too long>", "ok"])
        #expect(split(["0123456789"]) == ["0123456789"])
        #expect(split(["01234567890"]) == ["<too long>"])
    }

    /// A reader that stops after a line gets back where it stopped; the rest,
    /// fed later, continues the stream (a line cut before the stop included).
    @Test func feedingStopsAfterTheLineThatAskedAndResumesWhereItStopped() {
        var splitter = LineSplitter(maxLineLength: 10)
        var out: [String] = []
        let first = Array("ab".utf8), second = Array("c\nde\nfg\nh".utf8)
        _ = first.withUnsafeBufferPointer { splitter.feed($0, until: { _ in true }) }
        var rest = second[...]
        while !rest.isEmpty {
            let taken = Array(rest).withUnsafeBufferPointer { chunk in
                splitter.feed(chunk, until: { piece in
                    if case .line(let bytes) = piece { out.append(String(decoding: bytes, as: UTF8.self)) }
                    return false
                })
            }
            out.append("|")
            rest = rest.dropFirst(taken)
        }
        #expect(out == ["abc", "|", "de", "|", "fg", "|", "|"])
        #expect(splitter.pendingCount == 1, "the unterminated h is held")
    }
}
