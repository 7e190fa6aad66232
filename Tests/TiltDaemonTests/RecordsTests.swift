import Testing
import TiltCore
@testable import TiltDaemon
import TiltWire

/// Records of solved games (docs/protocol.md): per size, kept across new games and restarts.
@Suite struct RecordsTests {
    /// A 2×2 game one tilt from solved.
    static func nearlySolved() -> Game {
        var puzzle = Puzzle(side: 2)
        _ = puzzle.tilt(.right)
        return Game(puzzle: puzzle, detector: TiltDetector())
    }

    func solvedEvent(_ events: [ServerMessage]) -> (moves: Int, time: Double, news: RecordNews)? {
        for case .solved(_, let moves, let time, let news) in events { return (moves, time, news) }
        return nil
    }

    @Test func theFirstSolveSetsBothAndABetterOneIsNews() throws {
        var game = Self.nearlySolved()
        game.setAttached(true, at: 0)
        let first = try #require(solvedEvent(game.perform(.tilt(.left), at: 30)))
        #expect(first.news == RecordNews(bestTime: true, fewestMoves: true))
        #expect(game.records[2] == SizeRecord(size: 2, bestTime: 30, fewestMoves: 2))
        // Slower but the same moves: no news; the records stay.
        _ = game.perform(.undo, at: 31)
        let second = try #require(solvedEvent(game.perform(.redo, at: 50)))
        #expect(!second.news.isRecord)
        #expect(game.records[2] == SizeRecord(size: 2, bestTime: 30, fewestMoves: 2))
    }

    @Test func aNewGameKeepsThemAndStateCarriesThem() {
        var game = Self.nearlySolved()
        game.setAttached(true, at: 0)
        _ = game.perform(.tilt(.left), at: 12)
        _ = game.newGame(size: 3, seed: 1, at: 13)
        #expect(game.records[2] != nil)
        let state = game.state(at: 13)
        #expect(state.records == [SizeRecord(size: 2, bestTime: 12, fewestMoves: 2)])
        #expect(state.best == nil, "no 3×3 record yet")
    }

    @Test func theyAreSavedAndOldFilesLoadWithout() throws {
        var game = Self.nearlySolved()
        game.setAttached(true, at: 0)
        _ = game.perform(.tilt(.left), at: 12)
        let saved = SavedGame(game: game, at: 12)
        let restored = try SavedGame(json: saved.encoded())
        #expect(restored.records == [2: SizeRecord(size: 2, bestTime: 12, fewestMoves: 2)])
        let old = #"{"format":1,"revision":3,"time":1.5,"puzzle":{"size":2,"board":[0,1,3,2],"moves":1,"#
            + #""history":{"limit":10,"undo":"","redo":""}}}"#
        #expect(try SavedGame(json: Array(old.utf8)).records.isEmpty)
    }

    @Test func theSolvedEventAndStateSayItOnTheWire() throws {
        let line = String(decoding: ServerMessage.solved(revision: 3, moves: 9, time: 4,
                                                         records: RecordNews(bestTime: true)).encoded(), as: UTF8.self)
        #expect(line.contains(#""newBestTime":true,"newFewestMoves":false"#))
        var state = GameState(puzzle: Puzzle(side: 3), revision: 1, time: 0)
        state.records = [SizeRecord(size: 3, bestTime: 42.5, fewestMoves: 31)]
        let decoded = try ServerMessage.decode(String(decoding: ServerMessage.state(state).encoded().dropLast(), as: UTF8.self))
        #expect(decoded == .state(state))
    }
}
