// SPDX-License-Identifier: GPL-3.0-or-later
/// What one tile shows: its number, or its piece of the picture with the number small in
/// a corner when the player wants it (docs/gui.md, Pictures). The painter switches on
/// this and nothing else, so another kind of face is a new case, not an edit of the painter.
public enum TileFace: Equatable, Sendable {
    case number(String)
    /// The part of the picture (in the picture's pixels) the tile shows, and the corner's number.
    case piece(source: Rect, corner: String?)

    /// The face of `tile` (its value: where it sits when solved) on a `side`×`side` board.
    /// `picture` is the shown picture's side in pixels (nil: numbers), `inset` how much
    /// of a cell the tile's edge leaves out on each side, so a piece is the part of the
    /// picture under the tile and the board between tiles is the picture's seams.
    public static func of(tile: Int, side: Int, label: String, picture: Double?, corners: NumberCorners,
                          inset: Double = 0) -> TileFace {
        guard let picture else { return .number(label) }
        return .piece(source: piece(tile, side: side, pictureSide: picture, inset: inset),
                      corner: corners.shows(side: side) ? label : nil)
    }

    /// The piece tile `tile` carries: the cell it fills on the solved board, in a
    /// square picture of `pictureSide` pixels, less `inset` (a fraction of a cell) all round.
    public static func piece(_ tile: Int, side: Int, pictureSide: Double, inset: Double = 0) -> Rect {
        let cell = pictureSide / Double(side)
        return Rect(x: Double(tile % side) * cell, y: Double(tile / side) * cell, width: cell, height: cell)
            .insetBy(inset * cell)
    }
}
