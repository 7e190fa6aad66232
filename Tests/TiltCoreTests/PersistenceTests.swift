import Foundation
import Testing
@testable import TiltCore

@Suite struct PersistenceTests {
    @Test func puzzleRoundTripsThroughJSON() throws {
        var puzzle = Puzzle.newGame(side: 5, seed: 3, undoLimit: 50)
        for direction in [Direction.up, .left, .left, .down] { puzzle.tilt(direction) }
        puzzle.slide(index: puzzle.board.emptyIndex % 5)
        puzzle.undo()
        let data = try JSONEncoder().encode(puzzle)
        let restored = try JSONDecoder().decode(Puzzle.self, from: data)
        #expect(restored == puzzle)
        #expect(restored.history.limit == 50)
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
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Puzzle.self, from: Data(json.utf8)) }
    }

    @Test func acceptsAConsistentSave() throws {
        let json = #"{"size":2,"board":[0,1,3,2],"moves":1,"history":{"limit":10,"undo":"r","redo":""}}"#
        let puzzle = try JSONDecoder().decode(Puzzle.self, from: Data(json.utf8))
        var copy = puzzle
        copy.undo()
        #expect(copy.isSolved && copy.moves == 0)
    }
}
