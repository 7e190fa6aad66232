// SPDX-License-Identifier: GPL-3.0-or-later
import TiltClient
import TiltCore
import TiltSystem
import TiltWire

/// One line of the screen, and the columns of it drawn in reverse video.
public struct ScreenRow: Equatable, Sendable {
    public var text: String
    public var highlights: [Range<Int>]

    public init(_ text: String, highlights: [Range<Int>] = []) {
        self.text = text
        self.highlights = highlights
    }
}

/// Lays a live view out in a window: the board as large as fits, centred; the
/// last tilt as an arrow beside the edge it points to (a bump, when nothing could
/// slide, is the arrow and that edge in reverse video); the status lines under it.
/// Pure: a window size in, exactly that many rows out.
public enum BoardView {
    public struct Content: Sendable {
        public var title: String
        public var state: GameState?
        public var mark: ClientGame.TiltMark?
        /// Under the board: counters, last event, sensor, key help.
        public var lines: [String]
        /// The cell of the tile a hint says to slide next, drawn in reverse video.
        public var hintCell: Int?

        public init(title: String, state: GameState?, mark: ClientGame.TiltMark?, lines: [String]) {
            self.title = title
            self.state = state
            self.mark = mark
            self.lines = lines
        }
    }

    /// The size of one tile in character cells; square-looking, as cells are about twice as tall as wide.
    struct Tiles: Equatable {
        var width: Int
        var height: Int
        var bordered: Bool

        func boardWidth(side: Int) -> Int { bordered ? side * (width + 1) + 1 : side * width }
        func boardHeight(side: Int) -> Int { bordered ? side * (height + 1) + 1 : side * height }

        /// Largest first; the last, without borders, is for windows that fit nothing else.
        static func choices(side: Int) -> [Tiles] {
            (1...6).reversed().map { Tiles(width: 4 * $0 + 1, height: 2 * $0 - 1, bordered: true) }
                + [Tiles(width: BoardText.labelWidth(side: side) + 1, height: 1, bordered: false)]
        }
    }

    /// Title and blank, the arrow rows above and below the board, a blank before the lines.
    static let rowsAroundBoard = 5
    /// An arrow and a space on either side.
    static let columnsAroundBoard = 4

    public static func render(_ content: Content, width: Int, height: Int) -> [ScreenRow] {
        var rows: [ScreenRow]
        // A board that does not fit its size (a garbled message) is not drawn.
        if let state = content.state, state.size > 0, state.board.count == state.size * state.size {
            let side = state.size
            let fitting = Tiles.choices(side: side).first {
                $0.boardWidth(side: side) + columnsAroundBoard <= width
                    && $0.boardHeight(side: side) + rowsAroundBoard + content.lines.count <= height
            }
            if let tiles = fitting {
                rows = [ScreenRow(content.title), ScreenRow("")]
                    + board(state, tiles: tiles, mark: content.mark, hintCell: content.hintCell)
                    + [ScreenRow("")] + content.lines.map { ScreenRow($0) }
            } else {
                let smallest = Tiles.choices(side: side).last!
                // Short lines: the window that shows them is small.
                rows = [ScreenRow(L("window too small")),
                        ScreenRow(L("{0} needs {1}×{2}", "\(side)×\(side)", smallest.boardWidth(side: side) + columnsAroundBoard,
                                    smallest.boardHeight(side: side) + rowsAroundBoard + content.lines.count))]
            }
        } else {
            rows = [ScreenRow(content.title), ScreenRow(""), ScreenRow(L("waiting for the game…"))] + content.lines.map { ScreenRow($0) }
        }
        rows = Array(rows.prefix(height)).map { centred($0, width: width) }
        let top = (height - rows.count) / 2
        return Array(repeating: ScreenRow(""), count: top) + rows
            + Array(repeating: ScreenRow(""), count: height - top - rows.count)
    }

    /// The board with an arrow row above and below and an arrow column either side.
    static func board(_ state: GameState, tiles: Tiles, mark: ClientGame.TiltMark?, hintCell: Int? = nil) -> [ScreenRow] {
        let lines = boardLines(state, tiles: tiles)
        let boardWidth = tiles.boardWidth(side: state.size)
        let blockWidth = boardWidth + columnsAroundBoard
        let middle = lines.count / 2
        let bump = mark?.blocked == true
        let direction = mark?.direction
        // The board's edge columns within the block: an arrow and a space come before it.
        let leftEdge = columnsAroundBoard / 2, rightEdge = leftEdge + boardWidth - 1

        func arrowRow(_ arrow: Direction) -> ScreenRow {
            // As wide as the board rows, so that centring puts the arrow over the board's middle.
            let column = blockWidth / 2
            guard direction == arrow else { return ScreenRow(String(repeating: " ", count: blockWidth)) }
            let text = String(repeating: " ", count: column) + (arrow == .up ? "^" : "v")
                + String(repeating: " ", count: blockWidth - column - 1)
            return ScreenRow(text, highlights: bump ? [column ..< column + 1] : [])
        }

        var rows = [arrowRow(.up)]
        for (index, line) in lines.enumerated() {
            let arrowHere = index == middle
            let left = arrowHere && direction == .left ? "< " : "  "
            let right = arrowHere && direction == .right ? " >" : "  "
            var highlights: [Range<Int>] = []
            if bump {
                switch direction {
                case .left?:
                    if arrowHere { highlights.append(0 ..< 1) }
                    highlights.append(leftEdge ..< leftEdge + 1)
                case .right?:
                    highlights.append(rightEdge ..< rightEdge + 1)
                    if arrowHere { highlights.append(blockWidth - 1 ..< blockWidth) }
                case .up? where index == 0, .down? where index == lines.count - 1:
                    highlights.append(leftEdge ..< rightEdge + 1)
                default:
                    break
                }
            }
            if let span = hintSpan(hintCell, line: index, side: state.size, tiles: tiles) {
                highlights.append(leftEdge + span.lowerBound ..< leftEdge + span.upperBound)
            }
            rows.append(ScreenRow(left + line + right, highlights: highlights))
        }
        rows.append(arrowRow(.down))
        return rows
    }

    /// The columns of the hinted tile on one line of `boardLines`, if it is on that line.
    static func hintSpan(_ cell: Int?, line: Int, side: Int, tiles: Tiles) -> Range<Int>? {
        guard let cell, (0 ..< side * side).contains(cell) else { return nil }
        let row = cell / side, column = cell % side
        if tiles.bordered {
            let top = 1 + row * (tiles.height + 1)
            guard (top ..< top + tiles.height).contains(line) else { return nil }
            let start = 1 + column * (tiles.width + 1)
            return start ..< start + tiles.width
        }
        guard line == row else { return nil }
        return column * tiles.width ..< (column + 1) * tiles.width
    }

    /// The board alone: bordered tiles with the number in the middle, or a bare grid of numbers.
    static func boardLines(_ state: GameState, tiles: Tiles) -> [String] {
        let side = state.size
        func cell(_ row: Int, _ column: Int, line: Int) -> String {
            let label = line == tiles.height / 2 ? GameText.label(state.board[row * side + column], side: side) : ""
            guard tiles.bordered else { return BoardText.padded(label, to: tiles.width) }
            let space = tiles.width - label.count
            let right = space / 2
            return String(repeating: " ", count: space - right) + label + String(repeating: " ", count: right)
        }
        let separator = tiles.bordered ? "|" : ""
        let rule = "+" + String(repeating: String(repeating: "-", count: tiles.width) + "+", count: side)
        var lines = tiles.bordered ? [rule] : []
        for row in 0..<side {
            for line in 0..<tiles.height {
                lines.append(separator + (0..<side).map { cell(row, $0, line: line) + separator }.joined())
            }
            if tiles.bordered { lines.append(rule) }
        }
        return lines
    }

    /// `row` centred in `width` columns, cut to fit.
    static func centred(_ row: ScreenRow, width: Int) -> ScreenRow {
        let text = String(row.text.prefix(width))
        let shift = (width - text.count) / 2
        let highlights = row.highlights.compactMap { range -> Range<Int>? in
            let clipped = range.clamped(to: 0 ..< text.count)
            return clipped.isEmpty ? nil : clipped.lowerBound + shift ..< clipped.upperBound + shift
        }
        return ScreenRow(String(repeating: " ", count: shift) + text, highlights: highlights)
    }
}
