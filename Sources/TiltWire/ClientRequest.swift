// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore

/// A client's command (docs/protocol.md).
public enum Command: Equatable, Sendable {
    case state
    case tilt(Direction)
    case move(index: Int, direction: Direction)
    case slide(index: Int)
    case undo
    case redo
    /// With `board`, the game starts from that position (size, seed and shuffle unused).
    case new(size: Int?, seed: UInt64?, shuffle: Bool, board: Board? = nil)
    case calibrate
    /// Turns streams on or off; nil leaves that stream as it is.
    case subscribe(samples: Bool? = nil, pose: Bool? = nil)
    case sensor
    /// Tilts that solve the board from here (docs/protocol.md, "Hints").
    case hint
    /// The detector's angles; nil leaves that one as it is.
    case configure(trigger: Double?, release: Double?)
    /// How the picture is turned; nil asks for the rotation in force (docs/protocol.md, "Screen rotation").
    case screen(ScreenRotation?)

    /// The commands' names, written once: what a request's "cmd" says, the list an
    /// unknown command's reply gives, and (by the exhaustive switches over it) what
    /// `decode` reads, so a new command cannot be named without being decoded.
    public enum Name: String, CaseIterable, Sendable {
        case state, tilt, move, slide, undo, redo, new, calibrate, subscribe, sensor, configure, hint, screen
    }

    public var name: String { commandName.rawValue }

    public var commandName: Name {
        switch self {
        case .state: .state
        case .tilt: .tilt
        case .move: .move
        case .slide: .slide
        case .undo: .undo
        case .redo: .redo
        case .new: .new
        case .calibrate: .calibrate
        case .subscribe: .subscribe
        case .sensor: .sensor
        case .hint: .hint
        case .configure: .configure
        case .screen: .screen
        }
    }

    public static let names = Name.allCases.map(\.rawValue)
}

/// A request: a command and the id to echo in its reply.
public struct ClientRequest: Equatable, Sendable {
    public var id: JSONValue?
    public var command: Command

    public init(id: JSONValue? = nil, command: Command) {
        self.id = id
        self.command = command
    }

    /// Why a line is not a valid request, and the id to echo if one could be read.
    public struct Rejection: Error, Equatable {
        public var id: JSONValue?
        public var code: ErrorCode
        public var message: String
    }

    /// Decodes one line (without its `\n`).
    public static func decode(_ line: UnsafeBufferPointer<UInt8>) throws(Rejection) -> ClientRequest {
        guard String(validating: line, as: UTF8.self) != nil else {
            throw Rejection(id: nil, code: .invalidUTF8, message: "the line is not valid UTF-8")
        }
        let value: JSONValue
        do throws(JSONParser.Failure) {
            value = try JSONParser.parse(line)
        } catch {
            throw Rejection(id: nil, code: .invalidJSON, message: "not JSON: \(error)")
        }
        guard case .object = value else {
            throw Rejection(id: nil, code: .notAnObject, message: "a request is a JSON object, not \(value.typeName)")
        }
        let id = value["id"]
        /// An argument as given; `null` is the same as leaving it out (docs/protocol.md).
        func argument(_ key: String) -> JSONValue? {
            guard let field = value[key], field != .null else { return nil }
            return field
        }
        func reject(_ code: ErrorCode, _ message: String) -> Rejection { Rejection(id: id, code: code, message: message) }
        guard let name = value["cmd"]?.string else {
            throw reject(.missingCommand, "a request needs a \"cmd\" string")
        }
        func direction() throws(Rejection) -> Direction {
            guard let text = argument("direction")?.string else {
                throw reject(.badArgument, "\(name) needs \"direction\": up, down, left or right")
            }
            guard let direction = Direction(rawValue: text) else {
                throw reject(.badArgument, "unknown direction \"\(text)\": use up, down, left or right")
            }
            return direction
        }
        func index() throws(Rejection) -> Int {
            guard let index = argument("index")?.int, index >= 0 else {
                throw reject(.badArgument, "\(name) needs \"index\", a cell index from 0")
            }
            return index
        }
        guard let known = Command.Name(rawValue: name) else {
            let shown = name.count > 64 ? String(name.prefix(64)) + "…" : name
            throw reject(.unknownCommand, "unknown command \"\(shown)\"; known: \(Command.names.joined(separator: ", "))")
        }
        let command: Command
        switch known {
        case .state: command = .state
        case .tilt: command = .tilt(try direction())
        case .move: command = .move(index: try index(), direction: try direction())
        case .slide: command = .slide(index: try index())
        case .undo: command = .undo
        case .redo: command = .redo
        case .calibrate: command = .calibrate
        case .sensor: command = .sensor
        case .hint: command = .hint
        case .new:
            var size: Int?
            if let field = argument("size") {
                guard let n = field.int, Board.sides.contains(n) else {
                    throw reject(.badArgument, "\"size\" must be a whole number from \(Board.sides.lowerBound) to \(Board.sides.upperBound)")
                }
                size = n
            }
            var seed: UInt64?
            if let field = argument("seed") {
                guard let s = field.uint64 else { throw reject(.badArgument, "\"seed\" must be a whole number from 0 to 2^64-1") }
                seed = s
            }
            var shuffle = true
            if let field = argument("shuffle") {
                guard let b = field.bool else { throw reject(.badArgument, "\"shuffle\" must be true or false") }
                shuffle = b
            }
            var board: Board?
            if let field = argument("board") {
                guard case .array(let items) = field, items.allSatisfy({ $0.int != nil }) else {
                    throw reject(.badArgument, "\"board\" must be an array of whole numbers")
                }
                do throws(Board.Problem) {
                    board = try Board(cells: items.map { $0.int! })
                } catch {
                    throw reject(.badArgument, "\"board\": \(error)")
                }
                if let size, size != board!.side {
                    throw reject(.badArgument, "\"size\" is \(size) but the board is \(board!.side)×\(board!.side)")
                }
                if argument("seed") != nil || argument("shuffle") != nil {
                    throw reject(.badArgument, "a \"board\" is played as given: no \"seed\" or \"shuffle\" with it")
                }
            }
            // A board is played as given: never shuffled.
            command = .new(size: size, seed: seed, shuffle: board == nil && shuffle, board: board)
        case .configure:
            var angles: [Double?] = []
            for key in ["trigger", "release"] {
                guard let field = argument(key) else { angles.append(nil); continue }
                guard let degrees = field.double, degrees.isFinite else {
                    throw reject(.badArgument, "\"\(key)\" must be a number of degrees")
                }
                angles.append(degrees)
            }
            guard angles.contains(where: { $0 != nil }) else {
                throw reject(.badArgument, "configure needs \"trigger\" or \"release\" (degrees)")
            }
            command = .configure(trigger: angles[0], release: angles[1])
        case .subscribe:
            var streams: [Bool?] = []
            for key in ["samples", "pose"] {
                guard let field = argument(key) else { streams.append(nil); continue }
                guard let on = field.bool else { throw reject(.badArgument, "\"\(key)\" must be true or false") }
                streams.append(on)
            }
            guard streams.contains(where: { $0 != nil }) else {
                throw reject(.badArgument, "subscribe needs \"samples\" or \"pose\": true or false")
            }
            command = .subscribe(samples: streams[0], pose: streams[1])
        case .screen:
            var rotation: ScreenRotation?
            if let field = argument("rotation") {
                // Only the four quarter turns, as written: 360 or -90 is no rotation a display has.
                guard let degrees = field.int, let quarter = ScreenRotation(rawValue: degrees) else {
                    throw reject(.badArgument, "\"rotation\" must be \(ScreenRotation.allowedText) (degrees counter-clockwise)")
                }
                rotation = quarter
            }
            command = .screen(rotation)
        }
        return ClientRequest(id: id, command: command)
    }

    /// The request as a line, for clients.
    public func encoded() -> [UInt8] {
        var w = JSONWriter()
        w.field("cmd", command.name)
        if let id { w.field("id", raw: id) }
        switch command {
        case .tilt(let d): w.field("direction", d.rawValue)
        case .move(let index, let d):
            w.field("index", index)
            w.field("direction", d.rawValue)
        case .slide(let index): w.field("index", index)
        case .new(let size, let seed, let shuffle, let board):
            if let board {
                w.field("board", board.values)
            } else {
                if let size { w.field("size", size) }
                if let seed { w.field("seed", seed) }
                w.field("shuffle", shuffle)
            }
        case .subscribe(let samples, let pose):
            if let samples { w.field("samples", samples) }
            if let pose { w.field("pose", pose) }
        case .configure(let trigger, let release):
            if let trigger { w.field("trigger", trigger) }
            if let release { w.field("release", release) }
        case .screen(let rotation):
            if let rotation { w.field("rotation", rotation.degrees) }
        case .state, .undo, .redo, .calibrate, .sensor, .hint: break
        }
        return w.line()
    }
}
