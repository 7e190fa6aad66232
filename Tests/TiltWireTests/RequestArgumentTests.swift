// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCore
@testable import TiltWire

/// How a request's arguments are read (docs/protocol.md, "Client to server"): numbers
/// by their value, `null` as absent.
@Suite struct RequestArgumentTests {
    static func decode(_ line: String) throws(ClientRequest.Rejection) -> ClientRequest {
        var text = line
        let result = text.withUTF8 { bytes in
            Result { () throws(ClientRequest.Rejection) in try ClientRequest.decode(bytes) }
        }
        return try result.get()
    }

    @Test(arguments: [
        ("4", 4), ("4.0", 4), ("4e0", 4), ("4E+0", 4), ("40e-1", 4), ("0.4e1", 4), ("400e-2", 4),
        ("-0", 0), ("-0.0", 0), ("0e999999999999", 0), ("-7.00", -7),
        ("9223372036854775807", Int.max), ("-9223372036854775808", Int.min), ("9.223372036854775807e18", Int.max),
    ])
    func wholeValuesAreWholeNumbersInAnyForm(text: String, value: Int) {
        #expect(JSONValue.number(text).int == value)
    }

    @Test(arguments: ["4.5", "40e-2", "1e-999999999999", "1e400", "9223372036854775808", "-9223372036854775809",
                      "1e19", "0.1"])
    func fractionsAndOutOfRangeAreNotInts(text: String) {
        #expect(JSONValue.number(text).int == nil)
    }

    @Test func seedsStayExactAtTheTopOfTheRange() {
        #expect(JSONValue.number("18446744073709551615").uint64 == UInt64.max)
        #expect(JSONValue.number("1.8446744073709551615e19").uint64 == UInt64.max)
        #expect(JSONValue.number("18446744073709551615.000").uint64 == UInt64.max)
        #expect(JSONValue.number("1.8446744073709551616e19").uint64 == nil)
        #expect(JSONValue.number("-1").uint64 == nil)
        #expect(JSONValue.number("-0e5").uint64 == 0)
    }

    @Test func everyWholeArgumentTakesAnyForm() throws {
        #expect(try Self.decode(#"{"cmd":"new","size":3.0,"seed":1e3}"#).command
                == .new(size: 3, seed: 1000, shuffle: true))
        #expect(try Self.decode(#"{"cmd":"move","index":40e-1,"direction":"up"}"#).command
                == .move(index: 4, direction: .up))
        #expect(try Self.decode(#"{"cmd":"slide","index":1E1}"#).command == .slide(index: 10))
        let board = try Self.decode(#"{"cmd":"new","board":[0.0,1e0,30e-1,2]}"#)
        #expect(board.command == .new(size: nil, seed: nil, shuffle: false, board: try Board(cells: [0, 1, 3, 2])))
    }

    @Test(arguments: [
        #"{"cmd":"new","size":4.5}"#, #"{"cmd":"move","index":0.5,"direction":"up"}"#,
        #"{"cmd":"new","board":[0,1,3,2.5]}"#, #"{"cmd":"new","seed":1.5}"#, #"{"cmd":"new","size":"NaN"}"#,
        #"{"cmd":"new","size":1e400}"#,
    ])
    func notWholeIsABadArgument(line: String) {
        do {
            _ = try Self.decode(line)
            Issue.record("\(line) was accepted")
        } catch {
            #expect(error.code == .badArgument)
        }
    }

    @Test func nullIsAbsentForEveryArgument() throws {
        #expect(try Self.decode(#"{"cmd":"subscribe","samples":null,"pose":true}"#).command
                == .subscribe(samples: nil, pose: true))
        #expect(try Self.decode(#"{"cmd":"new","size":null,"seed":null,"shuffle":null}"#).command
                == .new(size: nil, seed: nil, shuffle: true))
        #expect(try Self.decode(#"{"cmd":"new","board":[0,1,3,2],"seed":null,"shuffle":null}"#).command
                == .new(size: nil, seed: nil, shuffle: false, board: try Board(cells: [0, 1, 3, 2])))
        #expect(try Self.decode(#"{"cmd":"configure","trigger":null,"release":5}"#).command
                == .configure(trigger: nil, release: 5))
        // Absent where one is needed: the same error as leaving it out.
        for line in [#"{"cmd":"tilt","direction":null}"#, #"{"cmd":"subscribe","samples":null}"#,
                     #"{"cmd":"slide","index":null}"#] {
            do {
                _ = try Self.decode(line)
                Issue.record("\(line) was accepted")
            } catch {
                #expect(error.code == .badArgument, "\(line)")
            }
        }
    }

    @Test func aNullIdIsEchoedAsSent() throws {
        #expect(try Self.decode(#"{"cmd":"state","id":null}"#).id == .null)
        #expect(try Self.decode(#"{"cmd":"state"}"#).id == nil)
    }

    @Test func anIdNestedTooDeeplyIsInvalidJSON() throws {
        func request(idDepth: Int) -> String {
            #"{"cmd":"state","id":"# + String(repeating: "[", count: idDepth) + String(repeating: "]", count: idDepth) + "}"
        }
        #expect(try Self.decode(request(idDepth: JSONParser.maxDepth - 1)).command == .state)
        do {
            _ = try Self.decode(request(idDepth: JSONParser.maxDepth))
            Issue.record("an id nested \(JSONParser.maxDepth) deep inside the request was accepted")
        } catch {
            #expect(error.code == .invalidJSON)
        }
    }
}
