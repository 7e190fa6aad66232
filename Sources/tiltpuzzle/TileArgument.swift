// SPDX-License-Identifier: GPL-3.0-or-later
import TiltClient
import TiltCommandLine
import TiltCore
import TiltSystem
import TiltWire

/// The TILE of `move` and `slide`: a tile's number as on screen, or with `--cell` a
/// cell index for scripts, 0 at the top left, row by row (docs/client.md, "Tiles and
/// cells"). Its form is checked before connecting, the board's range after.
struct TileArgument {
    static let cellFlag = OptionSpec("--cell", help: L("TILE is a cell index instead (0 at the top left, row by row), as the protocol numbers cells."))
    static let spec = ArgumentSpec("TILE", help: L("The tile's number as on screen (with --cell: its cell)."))

    static var boardHint: String { L("'tiltpuzzle status' shows the board") }

    var number: Int
    var isCell: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        isCell = arguments.flag(Self.cellFlag)
        let text = arguments.argument(0) ?? ""
        guard let number = Int(text), number >= (isCell ? 0 : 1) else {
            throw UsageError(isCell ? L("with --cell, TILE must be a cell index from 0, not '{0}'", text)
                                    : L("TILE must be a tile's number as on screen, from 1, not '{0}'", text))
        }
        self.number = number
    }

    /// The cell this names on `state`'s board.
    func cell(on state: GameState) throws(UsageError) -> Int {
        let side = state.size, last = side * side - 1
        if isCell {
            guard number <= last else {
                throw UsageError(L("there is no cell {0} on the {1} board: its cells are 0 to {2}", number, GameText.sizeText(side), last),
                                 hint: Self.boardHint)
            }
            return number
        }
        guard let cell = BoardNotation.cell(ofTile: number, cells: state.board, side: side) else {
            throw UsageError(L("there is no tile {0} on the {1} board: its tiles are 1 to {2}", number, GameText.sizeText(side), last),
                             hint: Self.boardHint)
        }
        return cell
    }
}
