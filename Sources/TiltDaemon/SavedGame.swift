// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltWire

/// What the daemon saves: everything a restart needs to continue the game.
///
/// The file is one JSON object, the format `encoded()` shows. It is written and read
/// with the protocol's own JSON code, so the daemon needs no Foundation.
public struct SavedGame: Sendable, Equatable {
    public static let currentFormat = 1

    public var revision: Int
    /// Seconds of play so far.
    public var time: Double
    public var puzzle: Puzzle
    /// The calibrated neutral pose (device frame), if any.
    public var neutral: Vector3?
    /// The player's trigger and release angles, if chosen (files from before have none).
    public var sensitivity: Sensitivity?
    /// The best results by board side (files from before have none).
    public var records: [Int: SizeRecord] = [:]
    /// Whether the game may still set a record (`Game.mayRecord`); nil in files from
    /// before, where an unsolved game may.
    public var mayRecord: Bool?
    /// The sizes whose saved record was dropped on reading: 0 moves, set by a game that
    /// began solved, which earlier versions counted (docs/protocol.md, `solved`).
    public var droppedRecords: [Int] = []

    public init(game: Game, at now: Double) {
        revision = game.revision
        time = game.playTime(at: now)
        puzzle = game.puzzle
        neutral = game.detector.neutral == .flat ? nil : game.detector.neutral
        sensitivity = game.sensitivity
        records = game.records
        mayRecord = game.mayRecord
    }

    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// `{"format":1,"revision":…,"time":…,"puzzle":{"size":…,"board":[…],"moves":…,
    /// "history":{"limit":…,"undo":"rd3","redo":""}},"neutral":[x,y,z],"sensitivity":{…},
    /// "records":[…],"mayRecord":true}` and a newline.
    public func encoded() -> [UInt8] {
        let history = puzzle.history
        var w = JSONWriter()
        w.field("format", Self.currentFormat)
        w.field("revision", revision)
        w.field("time", time)
        w.field("puzzle", raw: .object([
            ("size", .number(String(puzzle.side))),
            ("board", .array(puzzle.board.values.map { .number(String($0)) })),
            ("moves", .number(String(puzzle.moves))),
            ("history", .object([
                ("limit", .number(String(history.limit))),
                ("undo", .string(history.undoActions.map(\.token).joined())),
                ("redo", .string(history.redoActions.map(\.token).joined())),
            ])),
        ]))
        if let neutral { w.field("neutral", [neutral.x, neutral.y, neutral.z]) }
        if let sensitivity {
            w.field("sensitivity", raw: .object([("trigger", .number(String(sensitivity.trigger))),
                                                 ("release", .number(String(sensitivity.release)))]))
        }
        if !records.isEmpty {
            w.field("records", raw: .array(records.values.sorted { $0.size < $1.size }.map(\.json)))
        }
        if let mayRecord { w.field("mayRecord", mayRecord) }
        return w.line()
    }

    /// Reads a saved game, checking that it could have been reached by play.
    public init(json bytes: [UInt8]) throws(Problem) {
        let value: JSONValue
        do throws(JSONParser.Failure) {
            value = try bytes.withUnsafeBufferPointer { (buffer) throws(JSONParser.Failure) in try JSONParser.parse(buffer) }
        } catch {
            throw Problem(description: "not JSON: \(error)")
        }
        func require<T>(_ found: T?, _ what: String) throws(Problem) -> T {
            guard let found else { throw Problem(description: "missing or malformed \(what)") }
            return found
        }
        let format = try require(value["format"]?.int, "format")
        guard format == Self.currentFormat else { throw Problem(description: "unknown format \(format)") }
        revision = try require(value["revision"]?.int, "revision")
        time = try require(value["time"]?.double, "time")
        let saved = try require(value["puzzle"], "puzzle")
        guard case .array(let cells)? = saved["board"] else { throw Problem(description: "missing or malformed puzzle.board") }
        let side = try require(saved["size"]?.int, "puzzle.size")
        let board = try require(Board(side: side, cells: cells.compactMap(\.int)),
                                "puzzle.board (not a solvable \(side)×\(side) arrangement)")
        let moves = try require(saved["moves"]?.int, "puzzle.moves")
        let history = try require(saved["history"], "puzzle.history")
        let limit = try require(history["limit"]?.int, "puzzle.history.limit")
        let undo = try require(history["undo"]?.string.flatMap(Action.parse(tokens:)), "puzzle.history.undo")
        let redo = try require(history["redo"]?.string.flatMap(Action.parse(tokens:)), "puzzle.history.redo")
        // Counters a game could reach: a file with more would overflow on the next move.
        let plausible = 0...(1 << 53)
        guard plausible.contains(limit), plausible.contains(revision), plausible.contains(moves),
              time >= 0, time.isFinite else {
            throw Problem(description: "counters out of range")
        }
        do throws(Puzzle.RestoreError) {
            puzzle = try Puzzle(board: board, moves: moves, history: History(limit: limit, undo: undo, redo: redo))
        } catch {
            throw Problem(description: error.description)
        }
        neutral = nil
        if case .array(let pose)? = value["neutral"] {
            let numbers = pose.compactMap(\.double)
            guard numbers.count == 3 else { throw Problem(description: "malformed neutral") }
            neutral = Vector3(numbers[0], numbers[1], numbers[2])
        }
        sensitivity = nil
        if let saved = value["sensitivity"] {
            guard let trigger = saved["trigger"]?.double, let release = saved["release"]?.double,
                  Sensitivity(trigger: trigger, release: release).problem == nil else {
                throw Problem(description: "malformed sensitivity")
            }
            sensitivity = Sensitivity(trigger: trigger, release: release)
        }
        records = [:]
        if let saved = value["records"] {
            guard case .array(let entries) = saved else { throw Problem(description: "malformed records") }
            for entry in entries {
                guard let record = SizeRecord(json: entry), Board.sides.contains(record.size) else {
                    throw Problem(description: "malformed records")
                }
                if record.fewestMoves == 0 {
                    droppedRecords.append(record.size)
                } else {
                    records[record.size] = record
                }
            }
        }
        mayRecord = nil
        if let saved = value["mayRecord"] {
            guard let flag = saved.bool else { throw Problem(description: "malformed mayRecord") }
            mayRecord = flag
        }
    }
}
