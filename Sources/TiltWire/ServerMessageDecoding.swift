// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore

extension ServerMessage {
    public struct DecodingFailure: Error, Equatable, CustomStringConvertible {
        /// What a client should do about it.
        public enum Kind: Sendable, Equatable {
            /// A line this protocol cannot read: the daemon garbled it.
            case malformed
            /// A message type a newer daemon sends: skip it (docs/protocol.md, Versioning).
            case unknownType
            /// The greeting names another protocol version.
            case otherProtocol
        }

        public var kind: Kind = .malformed
        public var message: String
        public var description: String { message }

        public init(_ kind: Kind = .malformed, message: String) {
            self.kind = kind
            self.message = message
        }
    }

    /// Decodes one line from the daemon; clients use it. Unknown fields are
    /// ignored (a newer daemon may add some); an unknown type is an error the
    /// client may skip.
    public static func decode(_ line: UnsafeBufferPointer<UInt8>) throws(DecodingFailure) -> ServerMessage {
        let value: JSONValue
        do throws(JSONParser.Failure) {
            value = try JSONParser.parse(line)
        } catch {
            throw DecodingFailure(message: "not JSON: \(error)")
        }
        guard let type = value["type"]?.string else { throw DecodingFailure(message: "no \"type\"") }
        func int(_ key: String) throws(DecodingFailure) -> Int {
            guard let n = value[key]?.int else { throw DecodingFailure(message: "\(type): \"\(key)\" is not an integer") }
            return n
        }
        func bool(_ key: String) throws(DecodingFailure) -> Bool {
            guard let b = value[key]?.bool else { throw DecodingFailure(message: "\(type): \"\(key)\" is not a boolean") }
            return b
        }
        func string(_ key: String) throws(DecodingFailure) -> String {
            guard let s = value[key]?.string else { throw DecodingFailure(message: "\(type): \"\(key)\" is not a string") }
            return s
        }
        func double(_ key: String) -> Double { value[key]?.double ?? 0 }
        func direction(_ key: String) throws(DecodingFailure) -> Direction {
            guard let d = Direction(rawValue: try string(key)) else {
                throw DecodingFailure(message: "\(type): unknown direction")
            }
            return d
        }
        switch type {
        case "hello":
            guard try int("protocol") == WireProtocol.version else {
                throw DecodingFailure(.otherProtocol, message: "the daemon speaks protocol \(value["protocol"]?.int ?? 0), this client \(WireProtocol.version)")
            }
            return .hello(version: value["version"]?.string ?? "?")
        case "state":
            guard case .array(let cells)? = value["board"] else { throw DecodingFailure(message: "state: no board") }
            let board = cells.compactMap(\.int)
            let size = try int("size")
            let empty = try int("empty")
            // Clients index the board with these: a state that does not add up is refused.
            guard Board.sides.contains(size), board.count == size * size, board.sorted() == Array(0..<board.count),
                  board.indices.contains(empty), board[empty] == board.count - 1 else {
                throw DecodingFailure(message: "state: the board is not a \(size)×\(size) arrangement")
            }
            var state = GameState(revision: try int("revision"), size: size, board: board,
                                  empty: empty, moves: try int("moves"), solved: try bool("solved"),
                                  canUndo: try bool("canUndo"), canRedo: try bool("canRedo"), time: double("time"))
            // Daemons before records: none.
            if case .array(let records)? = value["records"] { state.records = records.compactMap(SizeRecord.init(json:)) }
            return .state(state)
        case "move":
            guard let cause = MoveCause(rawValue: try string("cause")) else {
                throw DecodingFailure(message: "move: unknown cause")
            }
            return .move(revision: try int("revision"),
                         move: Move(from: try int("from"), to: try int("to"), direction: try direction("direction")),
                         cause: cause, moves: try int("moves"), solved: try bool("solved"),
                         // Daemons before these fields existed: unknown, read as false.
                         canUndo: value["canUndo"]?.bool ?? false, canRedo: value["canRedo"]?.bool ?? false)
        case "tilt":
            return .tilt(direction: try direction("direction"), moved: try bool("moved"))
        case "solved":
            return .solved(revision: try int("revision"), moves: try int("moves"), time: double("time"),
                           records: RecordNews(bestTime: value["newBestTime"]?.bool ?? false,
                                               fewestMoves: value["newFewestMoves"]?.bool ?? false))
        case "sensor":
            // A status from a newer daemon reads as an error state with its name.
            let text = try string("status")
            let status = SensorStatus(rawValue: text) ?? .error
            let message = value["message"]?.string ?? (status.rawValue == text ? nil : "sensor status \(text)")
            return .sensor(SensorReport(status: status, kind: value["kind"]?.string, name: value["name"]?.string,
                                        device: value["device"]?.string, rate: value["rate"]?.double, message: message))
        case "sample":
            return .sample(Sample(time: double("t"), x: double("x"), y: double("y"), z: double("z")))
        case "reply" where value["cmd"]?.string == "hint":
            guard case .array(let items)? = value["solution"] else { throw DecodingFailure(message: "hint: no solution") }
            var solution: [Direction] = []
            for item in items {
                guard let text = item.string, let direction = Direction(rawValue: text) else {
                    throw DecodingFailure(message: "hint: unknown direction in the solution")
                }
                solution.append(direction)
            }
            return .hint(id: value["id"], hint: Hint(solution: solution, optimal: try bool("optimal"),
                                                     revision: try int("revision")))
        case "pose":
            return .pose(PoseReport(x: double("x"), y: double("y"), armed: try bool("armed"),
                                    trigger: double("trigger"), release: double("release")))
        case "settings":
            return .settings(Sensitivity(trigger: double("trigger"), release: double("release")))
        case "screen":
            guard let rotation = ScreenRotation(rawValue: try int("rotation")) else {
                throw DecodingFailure(message: "screen: \"rotation\" is not \(ScreenRotation.allowedText)")
            }
            return .screen(rotation)
        case "calibrated":
            return .calibrated(auto: value["auto"]?.bool ?? false)
        case "reply":
            return .reply(id: value["id"], command: value["cmd"]?.string ?? "", moved: value["moved"]?.int)
        case "error":
            // A code from a newer daemon is kept in the message; the error still answers its request.
            let text = try string("code")
            let message = value["message"]?.string ?? ""
            guard let code = ErrorCode(rawValue: text) else {
                return .error(id: value["id"], code: .unknown, message: "\(message) (\(text))")
            }
            return .error(id: value["id"], code: code, message: message)
        default:
            throw DecodingFailure(.unknownType, message: "unknown message type \"\(type)\"")
        }
    }

    public static func decode(_ text: String) throws(DecodingFailure) -> ServerMessage {
        var copy = text
        let result = copy.withUTF8 { bytes in Result { () throws(DecodingFailure) in try decode(bytes) } }
        return try result.get()
    }
}
