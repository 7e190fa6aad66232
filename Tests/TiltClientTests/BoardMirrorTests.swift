// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltClient
import TiltCore
import TiltWire

@Suite struct BoardMirrorTests {
    static func solved(revision: Int = 1) -> ServerMessage {
        .state(GameState(revision: revision, size: 2, board: [0, 1, 2, 3], empty: 3, moves: 0, solved: true,
                         canUndo: false, canRedo: false, time: 0))
    }

    @Test func followsMovesAndTheirUndoState() {
        var mirror = BoardMirror()
        #expect(mirror.apply(Self.solved()) == .updated)
        let right = ServerMessage.move(revision: 2, move: Move(from: 2, to: 3, direction: .right), cause: .command,
                                       moves: 1, solved: false, canUndo: true, canRedo: false)
        #expect(mirror.apply(right) == .updated)
        #expect(mirror.state?.board == [0, 1, 3, 2] && mirror.state?.empty == 2 && mirror.state?.canUndo == true)
        let undo = ServerMessage.move(revision: 3, move: Move(from: 3, to: 2, direction: .left), cause: .undo,
                                      moves: 0, solved: true, canUndo: false, canRedo: true)
        #expect(mirror.apply(undo) == .updated)
        #expect(mirror.state?.canUndo == false && mirror.state?.canRedo == true && mirror.state?.solved == true)
    }

    @Test func aMoveThatDoesNotFitAsksForTheState() {
        var mirror = BoardMirror()
        _ = mirror.apply(Self.solved())
        let gap = ServerMessage.move(revision: 3, move: Move(from: 2, to: 3, direction: .right), cause: .tilt,
                                     moves: 1, solved: false)
        #expect(mirror.apply(gap) == .needsState)
        let wrongCell = ServerMessage.move(revision: 2, move: Move(from: 0, to: 1, direction: .right), cause: .tilt,
                                           moves: 1, solved: false)
        #expect(mirror.apply(wrongCell) == .needsState, "the tile must move into the empty cell")
        #expect(mirror.state?.board == [0, 1, 2, 3])
    }

    /// A solve that set a record makes it the mirror's, as the daemon now holds it; one
    /// that set none (the game's second solve) changes nothing.
    @Test func aRecordASolveSetIsKept() {
        var mirror = BoardMirror()
        var state = GameState(revision: 4, size: 2, board: [0, 1, 2, 3], empty: 3, moves: 3, solved: true,
                              canUndo: true, canRedo: false, time: 9)
        state.records = [SizeRecord(size: 2, bestTime: 5, fewestMoves: 7), SizeRecord(size: 3, bestTime: 41, fewestMoves: 27)]
        _ = mirror.apply(.state(state))
        #expect(mirror.apply(.solved(revision: 4, moves: 3, time: 9, records: RecordNews(fewestMoves: true))) == .updated)
        #expect(mirror.state?.records == [SizeRecord(size: 2, bestTime: 5, fewestMoves: 3), SizeRecord(size: 3, bestTime: 41, fewestMoves: 27)])
        #expect(mirror.apply(.solved(revision: 4, moves: 1, time: 1, records: RecordNews())) == .unchanged)
        #expect(mirror.state?.best == SizeRecord(size: 2, bestTime: 5, fewestMoves: 3))
        // The first solve of a size sets both.
        _ = mirror.apply(Self.solved(revision: 9))
        #expect(mirror.apply(.solved(revision: 9, moves: 4, time: 2.5, records: RecordNews(bestTime: true, fewestMoves: true))) == .updated)
        #expect(mirror.state?.best == SizeRecord(size: 2, bestTime: 2.5, fewestMoves: 4))
    }
}
