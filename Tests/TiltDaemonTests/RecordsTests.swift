// SPDX-License-Identifier: GPL-3.0-or-later
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

    @Test func theFirstSolveSetsBothAndABetterGameIsNews() throws {
        var game = Self.nearlySolved()
        game.setAttached(true, at: 0)
        _ = game.perform(.tilt(.down), at: 10)
        _ = game.perform(.tilt(.up), at: 20)
        let first = try #require(solvedEvent(game.perform(.tilt(.left), at: 30)))
        #expect(first.news == RecordNews(bestTime: true, fewestMoves: true))
        #expect(game.records[2] == SizeRecord(size: 2, bestTime: 30, fewestMoves: 4))
        // The next game, faster and shorter: news on both.
        var next = Game(puzzle: Self.nearlySolved().puzzle, detector: TiltDetector(), records: game.records)
        next.setAttached(true, at: 100)
        let better = try #require(solvedEvent(next.perform(.tilt(.left), at: 110)))
        #expect(better.news == RecordNews(bestTime: true, fewestMoves: true))
        #expect(next.records[2] == SizeRecord(size: 2, bestTime: 10, fewestMoves: 2))
    }

    /// A game sets records once, at its first solve: undo and redo onto solved again,
    /// even in fewer moves, are `solved` without news.
    @Test func onlyTheFirstSolveOfAGameCounts() throws {
        var game = Self.nearlySolved()
        game.setAttached(true, at: 0)
        _ = game.perform(.tilt(.down), at: 1)
        _ = game.perform(.tilt(.up), at: 2)
        _ = try #require(solvedEvent(game.perform(.tilt(.left), at: 30)))
        let record = SizeRecord(size: 2, bestTime: 30, fewestMoves: 4)
        #expect(game.records[2] == record)
        for _ in 0..<3 { _ = game.perform(.undo, at: 31) }
        let again = try #require(solvedEvent(game.perform(.tilt(.left), at: 32)), "solved again in 2 moves")
        #expect(again.moves == 2 && !again.news.isRecord)
        _ = game.perform(.undo, at: 33)
        let redone = try #require(solvedEvent(game.perform(.redo, at: 34)))
        #expect(!redone.news.isRecord)
        #expect(game.records[2] == record)
        // Nor after a restart: whether the game may still record is saved with it.
        let saved = try SavedGame(json: SavedGame(game: game, at: 34).encoded())
        var restored = Game(puzzle: saved.puzzle, detector: TiltDetector(), records: saved.records,
                            mayRecord: saved.mayRecord)
        restored.setAttached(true, at: 40)
        _ = restored.perform(.undo, at: 41)
        #expect(try #require(solvedEvent(restored.perform(.redo, at: 42))).news == RecordNews())
        #expect(restored.records[2] == record)
    }

    /// `new` with `shuffle: false` (or a solved board), a tilt, an undo: solved, no record.
    @Test(arguments: [false, true])
    func aGameThatBeganSolvedSetsNoRecord(fromBoard: Bool) throws {
        var game = Self.nearlySolved()
        game.setAttached(true, at: 0)
        _ = game.newGame(size: 3, seed: nil, board: fromBoard ? Board(side: 3) : nil, at: 1)
        #expect(game.puzzle.isSolved)
        _ = game.perform(.tilt(.right), at: 2)
        let solved = try #require(solvedEvent(game.perform(.undo, at: 3)))
        #expect(solved.moves == 0)
        #expect(!solved.news.isRecord)
        #expect(game.records[3] == nil)
        _ = game.perform(.redo, at: 4)
        let again = try #require(solvedEvent(game.perform(.undo, at: 5)))
        #expect(!again.news.isRecord)
        #expect(game.records.isEmpty)
    }

    /// Earlier versions recorded games that began solved, with 0 moves: such a record
    /// cannot be beaten, so reading drops it and says which.
    @Test func zeroMoveRecordsAreDroppedOnLoad() throws {
        let file = #"{"format":1,"revision":3,"time":1.5,"puzzle":{"size":2,"board":[0,1,3,2],"moves":1,"#
            + #""history":{"limit":10,"undo":"","redo":""}},"records":[{"size":3,"bestTime":0.5,"fewestMoves":0},"#
            + #"{"size":4,"bestTime":61.5,"fewestMoves":98}]}"#
        let saved = try SavedGame(json: Array(file.utf8))
        #expect(saved.records == [4: SizeRecord(size: 4, bestTime: 61.5, fewestMoves: 98)])
        #expect(saved.droppedRecords == [3])
        #expect(saved.mayRecord == nil, "an old file: the game decides from its board")
        #expect(Game(puzzle: saved.puzzle, detector: TiltDetector(), mayRecord: saved.mayRecord).mayRecord)
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
