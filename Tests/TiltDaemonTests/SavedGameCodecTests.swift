// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCore
import TiltDaemon

/// The puzzle through the saved game's codec, the one the daemon writes and reads.
@Suite struct SavedGameCodecTests {
    /// A file holding `puzzle` (the object `SavedGame.encoded()` writes under "puzzle").
    static func file(puzzle: String) -> [UInt8] {
        Array(#"{"format":1,"revision":0,"time":0,"puzzle":\#(puzzle)}"#.utf8)
    }

    @Test func puzzleRoundTripsThroughJSON() throws {
        var puzzle = Puzzle.newGame(side: 5, seed: 3, undoLimit: 50)
        for direction in [Direction.up, .left, .left, .down] { puzzle.tilt(direction) }
        puzzle.slide(index: puzzle.board.emptyIndex % 5)
        puzzle.undo()
        let saved = SavedGame(game: Game(puzzle: puzzle, detector: TiltDetector()), at: 0)
        let restored = try SavedGame(json: saved.encoded())
        #expect(restored.puzzle == puzzle)
        #expect(restored.puzzle.history.limit == 50)
    }

    @Test(arguments: [
        #"{"size":2,"board":[1,0,2,3],"moves":0,"history":{"limit":10,"undo":"","redo":""}}"#,  // unsolvable
        #"{"size":2,"board":[0,1,2,3],"moves":-1,"history":{"limit":10,"undo":"","redo":""}}"#, // negative counter
        #"{"size":2,"board":[0,1,2,3],"moves":1,"history":{"limit":10,"undo":"d","redo":""}}"#,  // undo not legal here
        #"{"size":2,"board":[0,1,3,2],"moves":0,"history":{"limit":10,"undo":"r","redo":""}}"#,  // undo past zero moves
        #"{"size":2,"board":[0,1,2,3],"moves":0,"history":{"limit":10,"undo":"","redo":"x"}}"#,  // bad token
        #"{"size":2,"board":[0,1,2,3],"moves":0,"history":{"limit":10,"undo":"","redo":"u"}}"#,  // redo not legal
        #"{"size":12,"board":[0],"moves":0,"history":{"limit":10,"undo":"","redo":""}}"#,
    ])
    func corruptSavesAreRefused(json: String) {
        #expect(throws: SavedGame.Problem.self) { try SavedGame(json: Self.file(puzzle: json)) }
    }

    @Test func acceptsAConsistentSave() throws {
        let json = #"{"size":2,"board":[0,1,3,2],"moves":1,"history":{"limit":10,"undo":"r","redo":""}}"#
        var puzzle = try SavedGame(json: Self.file(puzzle: json)).puzzle
        puzzle.undo()
        #expect(puzzle.isSolved && puzzle.moves == 0)
    }
}
