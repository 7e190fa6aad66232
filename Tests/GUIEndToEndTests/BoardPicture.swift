// SPDX-License-Identifier: GPL-3.0-or-later
import TiltClient
import TiltGUI
import TiltWire

/// Where a screenshot must show the tiles and the gap of a board in `layout`.
struct BoardPicture {
    let layout: Layout

    /// Points near the four corners of the tile at `index`, away from its number: all
    /// the tile's colour when a tile rests there (one still sliding leaves a corner
    /// uncovered), all the board's where the gap is.
    func probes(_ index: Int) -> [Point] {
        let tile = layout.tile(row: Double(index / layout.side), column: Double(index % layout.side))
        let inset = tile.width * 0.05
        return [(0.0, 0.0), (1, 0), (0, 1), (1, 1)].map { corner in
            Point(x: tile.x + inset + corner.0 * (tile.width - 2 * inset - 1),
                  y: tile.y + inset + corner.1 * (tile.height - 2 * inset - 1))
        }
    }

    /// What differs between the screenshot and `state`, cell by cell.
    func mismatches(_ shot: Screenshot, _ state: GameState) -> [String] {
        (0..<layout.side * layout.side).compactMap { index in
            let isGap = state.board[index] == layout.side * layout.side - 1
            let tile = layout.tile(row: Double(index / layout.side), column: Double(index % layout.side))
            let ink = shot.count(of: Palette.tileText, in: tile.insetBy(tile.width * 0.2), tolerance: 30)
            for point in probes(index) where !shot.pixel(at: point).isClose(to: isGap ? Palette.board : Palette.tile) {
                return "cell \(index): \(shot.pixel(at: point)) at \(point), expected the \(isGap ? "gap" : "tile") colour"
            }
            if isGap ? ink > 0 : ink == 0 {
                return "cell \(index): \(ink) pixels of number ink"
            }
            return nil
        }
    }
}
