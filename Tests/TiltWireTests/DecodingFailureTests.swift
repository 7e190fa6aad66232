// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltWire

/// A client acts on the kind of a decoding failure, never on its wording.
@Suite struct DecodingFailureTests {
    @Test(arguments: [
        (#"{"type":"weather","sunny":true}"#, ServerMessage.DecodingFailure.Kind.unknownType),
        (#"{"type":"hello","protocol":2,"version":"9.0"}"#, .otherProtocol),
        (#"{"type":"move","revision":"x"}"#, .malformed),
        ("not json", .malformed),
        (#"{"no":"type"}"#, .malformed),
    ])
    func eachFailureHasAKind(line: String, kind: ServerMessage.DecodingFailure.Kind) {
        #expect(throws: ServerMessage.DecodingFailure.self) { try ServerMessage.decode(line) }
        do {
            _ = try ServerMessage.decode(line)
        } catch {
            #expect(error.kind == kind, "\(line): \(error.message)")
        }
    }
}
