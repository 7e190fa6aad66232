// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCore
@testable import TiltWire

@Suite struct JSONTests {
    @Test(arguments: [
        (#"{"a":1,"b":[true,false,null],"c":"x\"y\\z\u00e9\ud83d\ude00"}"#, true),
        (#"  [ ]  "#, true),
        (#"-0.5e+3"#, true),
        (#"{"a":1,}"#, false),
        (#"{"a" 1}"#, false),
        (#"[1,2"#, false),
        (#"01"#, false),
        (#"1."#, false),
        (#""\ud83d""#, false),
        ("\"tab\there\"", false),
        (#"{"a":1} x"#, false),
        (#"nul"#, false),
        ("", false),
    ])
    func parsesStrictJSON(text: String, valid: Bool) {
        let parsed = (try? JSONParser.parse(text)) != nil
        #expect(parsed == valid)
    }

    @Test func decodesEscapesAndKeepsNumbersExact() throws {
        let value = try JSONParser.parse(#"{"s":"x\"y\\z\u00e9\ud83d\ude00\n","n":18446744073709551615,"f":-2.5}"#)
        #expect(value["s"]?.string == "x\"y\\zé😀\n")
        #expect(value["n"]?.uint64 == UInt64.max)
        #expect(value["n"]?.int == nil)
        #expect(value["f"]?.double == -2.5)
        #expect(value["f"]?.int == nil)
    }

    @Test func nestingIsLimited() {
        let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(deep) }
        let fine = String(repeating: "[", count: 20) + String(repeating: "]", count: 20)
        #expect((try? JSONParser.parse(fine)) != nil)
    }

    @Test func writerEscapesAndRoundTrips() throws {
        var writer = JSONWriter()
        writer.field("text", "quote\" backslash\\ newline\n control\u{01} é")
        writer.field("n", -3)
        writer.field("d", 0.1)
        writer.field("nan", Double.nan)
        writer.field("list", [1, 2])
        let line = writer.line()
        #expect(line.last == UInt8(ascii: "\n"))
        let value = try line.dropLast().withUnsafeBufferPointer { try JSONParser.parse($0) }
        #expect(value["text"]?.string == "quote\" backslash\\ newline\n control\u{01} é")
        #expect(value["n"]?.int == -3)
        #expect(value["d"]?.double == 0.1)
        #expect(value["nan"] == .null)
    }
}

@Suite struct MessageTests {
    static let messages: [ServerMessage] = [
        .hello(version: "1.2"),
        .state(GameState(revision: 3, size: 2, board: [0, 1, 3, 2], empty: 2, moves: 1, solved: false,
                         canUndo: true, canRedo: false, time: 1.5)),
        .move(revision: 4, move: Move(from: 3, to: 2, direction: .left), cause: .undo, moves: 0, solved: true),
        .tilt(direction: .up, moved: false),
        .solved(revision: 4, moves: 0, time: 2.25),
        .sensor(SensorReport(status: .active, kind: "iio", name: "accel \"3d\"", device: "/dev/iio:device0", rate: 100)),
        .sensor(SensorReport(status: .absent)),
        .sensor(SensorReport(status: .disabled, message: "no sensor by choice (source none)")),
        .sample(Sample(time: 0.01, x: 0.1, y: -0.2, z: 9.8)),
        .reply(id: .string("a"), command: "undo", moved: 1),
        .reply(id: nil, command: "state", moved: nil),
        .hint(id: .number("3"), hint: Hint(solution: [.left, .up, .right, .down], optimal: true, revision: 12)),
        .hint(id: nil, hint: Hint(solution: [], optimal: false, revision: 0)),
        .error(id: .number("7"), code: .badArgument, message: "no"),
    ]

    /// What the daemon encodes, a client decodes to the same message.
    @Test(arguments: MessageTests.messages)
    func serverMessagesRoundTrip(message: ServerMessage) throws {
        let line = message.encoded()
        #expect(line.last == UInt8(ascii: "\n"))
        #expect(line.dropLast().allSatisfy { $0 != UInt8(ascii: "\n") }, "one message, one line")
        let decoded = try line.dropLast().withUnsafeBufferPointer { try ServerMessage.decode($0) }
        #expect(decoded == message)
    }

    /// The hint's reply is a `reply` an older client reads as such (it ignores the extra fields).
    @Test func aHintReplyIsAReplyWithItsAnswer() throws {
        let line = String(decoding: ServerMessage.hint(id: .number("1"), hint: Hint(solution: [.up], optimal: true, revision: 4))
            .encoded().dropLast(), as: UTF8.self)
        #expect(line == #"{"type":"reply","id":1,"cmd":"hint","ok":true,"solution":["up"],"optimal":true,"revision":4}"#)
        #expect(throws: ServerMessage.DecodingFailure.self) {
            try ServerMessage.decode(#"{"type":"reply","cmd":"hint","ok":true,"solution":["sideways"],"optimal":true,"revision":4}"#)
        }
    }

    @Test func helloOfAnotherVersionIsRefused() {
        #expect(throws: ServerMessage.DecodingFailure.self) {
            try ServerMessage.decode(#"{"type":"hello","protocol":2,"version":"9"}"#)
        }
    }

    static let requests: [ClientRequest] = [
        ClientRequest(id: .number("1"), command: .state),
        ClientRequest(id: .string("x"), command: .tilt(.right)),
        ClientRequest(command: .move(index: 14, direction: .right)),
        ClientRequest(command: .slide(index: 3)),
        ClientRequest(command: .undo),
        ClientRequest(id: .number("2"), command: .hint),
        ClientRequest(command: .redo),
        ClientRequest(command: .new(size: 5, seed: UInt64.max, shuffle: true)),
        ClientRequest(command: .new(size: nil, seed: nil, shuffle: false)),
        ClientRequest(command: .new(size: nil, seed: nil, shuffle: false, board: try! Board(cells: [0, 1, 3, 2]))),
        ClientRequest(command: .calibrate),
        ClientRequest(command: .subscribe(samples: true)),
        ClientRequest(command: .subscribe(pose: true)),
        ClientRequest(command: .subscribe(samples: false, pose: false)),
        ClientRequest(command: .sensor),
    ]

    @Test(arguments: MessageTests.requests)
    func clientRequestsRoundTrip(request: ClientRequest) throws {
        let line = request.encoded()
        let decoded = try line.dropLast().withUnsafeBufferPointer { try ClientRequest.decode($0) }
        #expect(decoded == request)
    }
}

@Suite struct ForwardCompatibilityTests {
    @Test func unknownErrorCodesStillAnswerTheirRequest() throws {
        let message = try ServerMessage.decode(#"{"type":"error","id":4,"code":"frobnicated","message":"new"}"#)
        #expect(message == .error(id: .number("4"), code: .unknown, message: "new (frobnicated)"))
    }

    @Test func unknownSensorStatusesReadAsErrors() throws {
        guard case .sensor(let report) = try ServerMessage.decode(#"{"type":"sensor","status":"sleeping"}"#) else {
            Issue.record("not a sensor message")
            return
        }
        #expect(report.status == .error && report.message == "sensor status sleeping")
    }

    @Test(arguments: [
        #"{"type":"state","revision":1,"size":2,"board":[0,1,2],"empty":2,"moves":0,"solved":true,"canUndo":false,"canRedo":false}"#,
        #"{"type":"state","revision":1,"size":2,"board":[0,1,2,2],"empty":3,"moves":0,"solved":true,"canUndo":false,"canRedo":false}"#,
        #"{"type":"state","revision":1,"size":2,"board":[0,1,2,3],"empty":0,"moves":0,"solved":true,"canUndo":false,"canRedo":false}"#,
        #"{"type":"state","revision":1,"size":11,"board":[0],"empty":0,"moves":0,"solved":true,"canUndo":false,"canRedo":false}"#,
    ])
    func statesThatDoNotAddUpAreRefused(line: String) {
        #expect(throws: ServerMessage.DecodingFailure.self) { try ServerMessage.decode(line) }
    }
}
