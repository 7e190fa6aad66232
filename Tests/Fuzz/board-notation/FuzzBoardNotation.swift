// SPDX-License-Identifier: GPL-3.0-or-later
import FuzzSupport
import TiltCore

/// A board as a player types it after `new --board` (docs/client.md, "Boards"). A board
/// that reads is solvable, has one cell per word, and prints as text that reads back
/// as the same board; a refusal is one line that says what is allowed.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBoardNotation(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: FuzzInput(data, size).bytes, as: UTF8.self)
    do throws(BoardNotation.Problem) {
        let board = try BoardNotation.board(text)
        require(board.isSolvable, "\(text) read as an unsolvable board")
        let words = text.split(whereSeparator: BoardNotation.isSeparator)
        require(words.count == board.count, "\(words.count) words read as \(board.count) cells")
        let printed = BoardNotation.text(board)
        let again = try? BoardNotation.board(printed)
        require(again == board, "\(text) prints as \(printed), which reads differently")
    } catch {
        let message = error.description
        require(!message.isEmpty && !message.contains("\n"), "the reason is not one line: \(message)")
    }
    return 0
}
