// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltClient
import TiltCore
import TiltTerminal

struct KeyReaderTests {
    static func keys(_ text: String) -> [Key] {
        var reader = KeyReader()
        return reader.feed(Array(text.utf8))
    }

    @Test(arguments: [
        ("\u{1B}[A", Key.arrow(.up)), ("\u{1B}[B", .arrow(.down)), ("\u{1B}[C", .arrow(.right)), ("\u{1B}[D", .arrow(.left)),
        // Application cursor mode, as some terminals send after a full-screen program asks for it.
        ("\u{1B}OA", .arrow(.up)), ("\u{1B}OD", .arrow(.left)),
        // Ctrl-Right and Shift-Up carry modifiers that do not change the direction.
        ("\u{1B}[1;5C", .arrow(.right)), ("\u{1B}[1;2A", .arrow(.up)),
        ("q", .character("q")), ("u", .character("u")), ("\r", .control(13)), ("\u{7F}", .control(0x7F)),
        ("\u{1B}[3~", .other), ("\u{1B}[15~", .other), ("\u{1B}OP", .other),
    ])
    func decodesOneKey(input: String, key: Key) {
        #expect(Self.keys(input) == [key])
    }

    @Test func decodesARunOfKeys() {
        #expect(Self.keys("u\u{1B}[Cr\u{1B}OBq") == [.character("u"), .arrow(.right), .character("r"), .arrow(.down), .character("q")])
    }

    /// Over a slow link an escape sequence can arrive in pieces: it waits, no key is guessed.
    @Test func completesASequenceSplitAcrossReads() {
        var reader = KeyReader()
        #expect(reader.feed([0x1B]) == [])
        #expect(reader.feed(Array("[".utf8)) == [])
        #expect(reader.feed(Array("1;5".utf8)) == [])
        #expect(reader.feed(Array("Dq".utf8)) == [.arrow(.left), .character("q")])
    }

    @Test func escapeFollowedByAnotherKeyIsEscapeThenThatKey() {
        #expect(Self.keys("\u{1B}q") == [.escape, .character("q")])
        #expect(Self.keys("\u{1B}\u{1B}[A") == [.escape, .arrow(.up)])
    }

    @Test func nonASCIIBytesAreOtherKeys() {
        #expect(Self.keys("é") == [.other, .other])
    }
}
