// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltGUI
import TiltCore

@Suite struct LayoutTests {
    /// Down to 480×360: below that the panel's legible text and 9 mm buttons leave no room for a board.
    static let windows = [Size(width: 640, height: 800), Size(width: 1280, height: 720), Size(width: 800, height: 1280),
                          Size(width: 480, height: 360), Size(width: 500, height: 500)]

    @Test(arguments: windows)
    func boardIsASquareOfWholeCellsInsideTheWindow(window: Size) {
        for side in [2, 3, 4, 10] {
            let layout = Layout(window: window, side: side)
            #expect(layout.board.width == layout.board.height)
            #expect(layout.cellSize == layout.cellSize.rounded() && layout.cellSize >= 1)
            #expect(layout.board.x >= 0 && layout.board.y >= 0)
            #expect(layout.board.maxX <= window.width && layout.board.maxY <= window.height)
        }
    }

    @Test func orientationFollowsTheWindow() {
        let portrait = Layout(window: Size(width: 600, height: 900), side: 4)
        let landscape = Layout(window: Size(width: 900, height: 600), side: 4)
        #expect(portrait.orientation == .portrait)
        #expect(landscape.orientation == .landscape)
        // The panel goes below the board upright, beside it on its side.
        #expect(portrait.status.y >= portrait.board.maxY)
        #expect(landscape.status.x >= landscape.board.maxX)
        // Turning the tablet keeps the board about as big.
        #expect(abs(portrait.board.width - landscape.board.width) < 0.25 * portrait.board.width)
    }

    @Test(arguments: windows)
    func panelNeverCoversTheBoard(window: Size) {
        let layout = Layout(window: window, side: 4)
        for frame in layout.buttons.map(\.frame) + [layout.status] {
            let apart = frame.maxX <= layout.board.x || frame.x >= layout.board.maxX
                || frame.maxY <= layout.board.y || frame.y >= layout.board.maxY
            #expect(apart, "\(frame) overlaps the board \(layout.board)")
            #expect(frame.maxX <= window.width && frame.maxY <= window.height)
        }
        #expect(layout.buttons.map(\.control) == Control.allCases)
    }

    @Test(arguments: [2, 3, 4, 7, 10])
    func everyCellCentreHitsItsOwnIndex(side: Int) {
        let layout = Layout(window: Size(width: 700, height: 900), side: side)
        for index in 0..<side * side {
            #expect(layout.cellIndex(at: layout.cell(index).center) == index)
            // A tile is drawn inside its cell, with a gap around it.
            let tile = layout.tile(row: Double(index / side), column: Double(index % side))
            #expect(layout.cell(index).contains(Point(x: tile.x, y: tile.y)))
            #expect(tile.width < layout.cellSize)
        }
    }

    @Test func cellEdgesBelongToOneCell() {
        let layout = Layout(window: Size(width: 640, height: 800), side: 4)
        let edge = layout.board.x + layout.cellSize
        #expect(layout.cellIndex(at: Point(x: edge - 0.01, y: layout.board.y + 1)) == 0)
        #expect(layout.cellIndex(at: Point(x: edge, y: layout.board.y + 1)) == 1)
        #expect(layout.cellIndex(at: Point(x: layout.board.maxX - 0.01, y: layout.board.maxY - 0.01)) == 15)
    }

    @Test func pointsOffTheBoardHitNoCell() {
        let layout = Layout(window: Size(width: 640, height: 800), side: 4)
        #expect(layout.cellIndex(at: Point(x: layout.board.x - 1, y: layout.board.center.y)) == nil)
        #expect(layout.cellIndex(at: Point(x: layout.board.center.x, y: layout.board.maxY)) == nil)
        #expect(layout.cellIndex(at: Point(x: 1, y: 1)) == nil)
    }

    @Test func buttonsAreHitByTheirCentres() {
        for window in Self.windows {
            let layout = Layout(window: window, side: 4)
            for button in layout.buttons {
                #expect(layout.control(at: button.frame.center) == button.control)
            }
            #expect(layout.control(at: layout.board.center) == nil)
        }
    }

    @Test func tilesInMidSlideSitBetweenCells() {
        let layout = Layout(window: Size(width: 640, height: 800), side: 4)
        let half = layout.tile(row: 0, column: 0.5)
        #expect(half.x == (layout.tile(row: 0, column: 0).x + layout.tile(row: 0, column: 1).x) / 2)
    }

    /// Upright, the board is as wide as the window and the panel takes the rest: no empty
    /// band above, between or below them is bigger than a tile.
    @Test(arguments: [Size(width: 800, height: 1280), Size(width: 600, height: 960), Size(width: 768, height: 1024),
                      Size(width: 1200, height: 1920)])
    func portraitUsesTheHeight(window: Size) {
        for side in [3, 4, 6] {
            let layout = Layout(window: window, side: side)
            let margin = layout.board.x
            #expect(layout.board.width >= window.width - 2 * margin - Double(side), "as wide as the window at \(window)")
            let bottom = layout.buttons.map(\.frame.maxY).max() ?? 0
            let bands = [layout.board.y, layout.status.y - layout.board.maxY, window.height - bottom]
            for band in bands {
                #expect(band <= layout.cellSize, "an empty band of \(band) px at \(window), \(side)×\(side)")
            }
        }
    }

    /// The tops of the numbers of the row the solved panel's edge crossed showed above
    /// it: each number is wholly under the panel or wholly beside it.
    @Test(arguments: windows)
    func theSolvedPanelCutsThroughNoTileNumber(window: Size) {
        for side in Board.sides {
            let layout = Layout(window: window, side: side)
            let board = layout.board
            let panel = Rect(x: board.x + board.width * 0.06, y: board.center.y - board.height * 0.3,
                             width: board.width * 0.88, height: board.height * 0.6)
            let cover = layout.coveringTileNumbers(panel)
            #expect(cover.x <= panel.x && cover.y <= panel.y && cover.maxX >= panel.maxX && cover.maxY >= panel.maxY)
            #expect(cover.x >= board.x && cover.y >= board.y && cover.maxX <= board.maxX && cover.maxY <= board.maxY)
            // DejaVu Sans Bold's digits: 0.729 of the pixel size high, 0.696 wide.
            let digits = Double(String(side * side - 1).count)
            let height = 0.729 * layout.tileTextSize, width = 0.696 * layout.tileTextSize * digits
            // Numbers as wide as their cells (small windows, big boards) leave no room between them.
            guard width < 0.9 * layout.cellSize else { continue }
            for index in 0..<side * side {
                let centre = layout.cell(index).center
                let number = Rect(x: centre.x - width / 2, y: centre.y - height / 2, width: width, height: height)
                let inside = number.x >= cover.x && number.maxX <= cover.maxX && number.y >= cover.y && number.maxY <= cover.maxY
                let apart = number.maxX <= cover.x || number.x >= cover.maxX || number.maxY <= cover.y || number.y >= cover.maxY
                #expect(inside || apart, "\(side)×\(side) at \(window): cell \(index)'s number \(number) crosses \(cover)")
            }
        }
    }
}
