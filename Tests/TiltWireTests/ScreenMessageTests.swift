// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCore
import TiltWire

/// `screen` (docs/protocol.md, "Screen rotation"): the request, its one argument and the event.
@Suite struct ScreenMessageTests {
    @Test(arguments: [("0", ScreenRotation.upright), ("90", .quarter), ("180", .half), ("270", .threeQuarters),
                      ("90.0", .quarter), ("2.7e2", .threeQuarters)])
    func everyQuarterTurnIsRead(text: String, rotation: ScreenRotation) throws {
        let request = try RequestArgumentTests.decode(#"{"cmd":"screen","rotation":\#(text),"id":3}"#)
        #expect(request.command == .screen(rotation))
        #expect(request.id == .number("3"))
    }

    @Test(arguments: ["45", "-90", "360", "450", "90.5", "1e400", #""90""#, "true", "[90]", #"{"r":90}"#])
    func anyOtherRotationIsABadArgument(text: String) {
        #expect(throws: ClientRequest.Rejection.self) {
            try RequestArgumentTests.decode(#"{"cmd":"screen","rotation":\#(text)}"#)
        }
        do {
            _ = try RequestArgumentTests.decode(#"{"cmd":"screen","rotation":\#(text),"id":1}"#)
        } catch {
            #expect(error.code == .badArgument)
            #expect(error.message == #""rotation" must be 0, 90, 180 or 270 (degrees counter-clockwise)"#)
            #expect(error.id == .number("1"))
        }
    }

    @Test func withoutARotationOrWithNullItAsks() throws {
        #expect(try RequestArgumentTests.decode(#"{"cmd":"screen"}"#).command == .screen(nil))
        #expect(try RequestArgumentTests.decode(#"{"cmd":"screen","rotation":null}"#).command == .screen(nil))
    }

    @Test func theRequestAndTheEventRoundTrip() throws {
        for rotation in ScreenRotation.allCases {
            let request = ClientRequest(id: .number("7"), command: .screen(rotation))
            let line = String(decoding: request.encoded().dropLast(), as: UTF8.self)
            #expect(line == #"{"cmd":"screen","id":7,"rotation":\#(rotation.degrees)}"#)
            #expect(try RequestArgumentTests.decode(line) == request)

            let event = String(decoding: ServerMessage.screen(rotation).encoded(), as: UTF8.self)
            #expect(event == #"{"type":"screen","rotation":\#(rotation.degrees)}"# + "\n")
            #expect(try ServerMessage.decode(String(event.dropLast())) == .screen(rotation))
        }
        let asking = String(decoding: ClientRequest(command: .screen(nil)).encoded(), as: UTF8.self)
        #expect(asking == #"{"cmd":"screen"}"# + "\n")
    }

    @Test func anEventWithAnotherRotationIsMalformed() {
        #expect(throws: ServerMessage.DecodingFailure.self) { try ServerMessage.decode(#"{"type":"screen","rotation":45}"#) }
        #expect(throws: ServerMessage.DecodingFailure.self) { try ServerMessage.decode(#"{"type":"screen"}"#) }
    }
}
