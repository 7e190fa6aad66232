// SPDX-License-Identifier: GPL-3.0-or-later
import FuzzSupport
import TiltCore
import TiltDaemon

/// The saved-game file as the daemon loads it at start. A game that loads is one
/// play could reach: every undo and redo applies, undoing everything then redoing
/// everything comes back to the same board, and the file written for it loads
/// back to the same game, less the records dropped on reading.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSavedGame(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    guard let saved = try? SavedGame(json: Array(input.bytes)) else { return 0 }
    require(saved.time.isFinite && saved.time >= 0 && saved.revision >= 0 && saved.puzzle.moves >= 0,
            "counters out of range were accepted")
    require(saved.puzzle.board.isSolvable, "an unsolvable board was accepted")
    let written = saved.encoded()
    require(written.last == UInt8(ascii: "\n"), "the file does not end its line")
    let again = try? SavedGame(json: written)
    // Records dropped on reading (0 moves) are not written back: nothing to drop again.
    var kept = saved
    kept.droppedRecords = []
    require(again == kept, "the game is written as \(String(decoding: written, as: UTF8.self)), which loads differently")

    var puzzle = saved.puzzle
    let undos = puzzle.history.undoCount
    let redos = puzzle.history.redoCount
    while puzzle.canUndo { puzzle.undo() }
    require(puzzle.moves >= 0, "undoing went below zero moves")
    require(puzzle.history.redoCount == undos + redos, "an undo was lost")
    while puzzle.canRedo { puzzle.redo() }
    require(puzzle.history.undoCount == min(undos + redos, puzzle.history.limit), "a redo was lost")
    // Back to the saved position, then the saved redos applied on top.
    var expected = saved.puzzle
    while expected.canRedo { expected.redo() }
    require(puzzle.board == expected.board && puzzle.moves == expected.moves, "undo then redo does not come back")
    return 0
}
