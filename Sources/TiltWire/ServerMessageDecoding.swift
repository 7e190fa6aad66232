import TiltCore

extension ServerMessage {
    public struct DecodingFailure: Error, Equatable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
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
                throw DecodingFailure(message: "the daemon speaks protocol \(value["protocol"]?.int ?? 0), this client \(WireProtocol.version)")
            }
            return .hello(version: value["version"]?.string ?? "?")
        case "state":
            guard case .array(let cells)? = value["board"] else { throw DecodingFailure(message: "state: no board") }
            let board = cells.compactMap(\.int)
            guard board.count == cells.count else { throw DecodingFailure(message: "state: board is not integers") }
            return .state(GameState(revision: try int("revision"), size: try int("size"), board: board,
                                    empty: try int("empty"), moves: try int("moves"), solved: try bool("solved"),
                                    canUndo: try bool("canUndo"), canRedo: try bool("canRedo"), time: double("time")))
        case "move":
            guard let cause = MoveCause(rawValue: try string("cause")) else {
                throw DecodingFailure(message: "move: unknown cause")
            }
            return .move(revision: try int("revision"),
                         move: Move(from: try int("from"), to: try int("to"), direction: try direction("direction")),
                         cause: cause, moves: try int("moves"), solved: try bool("solved"))
        case "tilt":
            return .tilt(direction: try direction("direction"), moved: try bool("moved"))
        case "solved":
            return .solved(revision: try int("revision"), moves: try int("moves"), time: double("time"))
        case "sensor":
            guard let status = SensorStatus(rawValue: try string("status")) else {
                throw DecodingFailure(message: "sensor: unknown status")
            }
            return .sensor(SensorReport(status: status, kind: value["kind"]?.string, name: value["name"]?.string,
                                        device: value["device"]?.string, rate: value["rate"]?.double,
                                        message: value["message"]?.string))
        case "sample":
            return .sample(Sample(time: double("t"), x: double("x"), y: double("y"), z: double("z")))
        case "reply":
            return .reply(id: value["id"], command: value["cmd"]?.string ?? "", moved: value["moved"]?.int)
        case "error":
            guard let code = ErrorCode(rawValue: try string("code")) else {
                throw DecodingFailure(message: "error: unknown code \(value["code"]?.string ?? "")")
            }
            return .error(id: value["id"], code: code, message: value["message"]?.string ?? "")
        default:
            throw DecodingFailure(message: "unknown message type \"\(type)\"")
        }
    }

    public static func decode(_ text: String) throws(DecodingFailure) -> ServerMessage {
        var copy = text
        let result = copy.withUTF8 { bytes in Result { () throws(DecodingFailure) in try decode(bytes) } }
        return try result.get()
    }
}
