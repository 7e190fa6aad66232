// SPDX-License-Identifier: GPL-3.0-or-later
/// The best results of solved games on one board size (docs/protocol.md): the best
/// time and the fewest moves, each from whichever game set it.
public struct SizeRecord: Equatable, Sendable {
    public var size: Int
    /// Seconds of play.
    public var bestTime: Double
    public var fewestMoves: Int

    public init(size: Int, bestTime: Double, fewestMoves: Int) {
        self.size = size
        self.bestTime = bestTime
        self.fewestMoves = fewestMoves
    }

    /// `{"size":4,"bestTime":61.5,"fewestMoves":98}`, as `state` and the saved game carry it.
    public var json: JSONValue {
        .object([("size", .number(String(size))), ("bestTime", .number(String(bestTime))),
                 ("fewestMoves", .number(String(fewestMoves)))])
    }

    public init?(json: JSONValue) {
        guard let size = json["size"]?.int, let time = json["bestTime"]?.double, time.isFinite, time >= 0,
              let moves = json["fewestMoves"]?.int, moves >= 0 else { return nil }
        self.init(size: size, bestTime: time, fewestMoves: moves)
    }
}

/// Which records a solve set, as the `solved` event tells it.
public struct RecordNews: Equatable, Sendable {
    public var bestTime: Bool
    public var fewestMoves: Bool

    public init(bestTime: Bool = false, fewestMoves: Bool = false) {
        self.bestTime = bestTime
        self.fewestMoves = fewestMoves
    }

    public var isRecord: Bool { bestTime || fewestMoves }

    /// The news for a solve of `size` in `time` and `moves`, and the records after it.
    public static func solving(size: Int, time: Double, moves: Int,
                               records: [Int: SizeRecord]) -> (news: RecordNews, record: SizeRecord) {
        guard let old = records[size] else {
            // The first solve of a size sets both.
            return (RecordNews(bestTime: true, fewestMoves: true), SizeRecord(size: size, bestTime: time, fewestMoves: moves))
        }
        let news = RecordNews(bestTime: time < old.bestTime, fewestMoves: moves < old.fewestMoves)
        return (news, SizeRecord(size: size, bestTime: min(time, old.bestTime), fewestMoves: min(moves, old.fewestMoves)))
    }
}
