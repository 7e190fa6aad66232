// SPDX-License-Identifier: GPL-3.0-or-later
/// Where everything goes in a window of a given size: the board as large a square
/// as fits, and a panel with the status lines and the buttons beside it (landscape)
/// or below it (portrait), so turning the tablet keeps the board as big as possible.
public struct Layout: Equatable, Sendable {
    public enum Orientation: Equatable, Sendable { case portrait, landscape }

    public struct Button: Equatable, Sendable {
        public var control: Control
        public var frame: Rect
    }

    public let window: Size
    public let side: Int
    public let orientation: Orientation
    /// The square of cells; whole pixels, so every cell has the same integer size.
    public let board: Rect
    /// Two lines of status text.
    public let status: Rect
    /// The square of the tilt gauge, at the end of the status lines.
    public let gauge: Rect
    public let buttons: [Button]
    /// The pixel size of status text.
    public let textSize: Double
    /// The pixel size of button labels (a little smaller than the status text, never below the legible size).
    public let buttonTextSize: Double
    /// The smallest pixel size any text is drawn at (docs/gui.md, Text).
    public let minimumText: Double
    /// The smallest side of a button: 9 mm at the display's density (docs/gui.md).
    public let minimumTarget: Double

    /// Lines of status text the panel holds: three under a portrait board, four in the
    /// narrower landscape panel where the height leaves room for them; longer texts
    /// wrap, then end with "…".
    public let statusLines: Int
    /// A line of text is this many times its pixel size high.
    public static let lineHeight = 1.25

    /// Text is legible when its capitals are 16 px and 2.5 mm tall; a font's capitals
    /// are about 0.73 of its pixel size (DejaVu Sans Bold, the default, is 0.729).
    public static func minimumTextSize(pointsPerMillimetre: Double) -> Double {
        (max(16, 2.5 * pointsPerMillimetre) / 0.72).rounded(.up)
    }

    /// A finger needs about 9 mm to hit a button reliably.
    public static let minimumTargetMillimetres = 9.0
    /// 96 dots per inch, the density windowing systems assume when a display does not say.
    public static let fallbackPointsPerMillimetre = 96 / 25.4

    /// The window's points per millimetre from a display's dots per inch and how many
    /// pixels a window point has; the fallback when the display reports nonsense.
    public static func pointsPerMillimetre(dpi: Double?, pixelsPerPoint: Double = 1) -> Double {
        guard let dpi, dpi.isFinite, (50...1000).contains(dpi), pixelsPerPoint > 0 else { return fallbackPointsPerMillimetre }
        return dpi / 25.4 / pixelsPerPoint
    }

    public init(window: Size, side: Int, pointsPerMillimetre: Double = Layout.fallbackPointsPerMillimetre) {
        precondition(side >= 2, "a board has at least 2×2 cells")
        self.window = window
        self.side = side
        let orientation: Orientation = window.height >= window.width ? .portrait : .landscape
        self.orientation = orientation
        let margin = max(4, (min(window.width, window.height) * 0.025).rounded())
        let minimumText = Self.minimumTextSize(pointsPerMillimetre: pointsPerMillimetre)
        self.minimumText = minimumText
        // Text scales with the side the buttons line up along, never below the legible size.
        let along = orientation == .portrait ? window.width : window.height
        let textSize = max(minimumText, min(32, (along / 26).rounded()))
        self.textSize = textSize
        let minimumTarget = (Self.minimumTargetMillimetres * pointsPerMillimetre).rounded(.up)
        self.minimumTarget = minimumTarget
        let buttonTextSize = max(minimumText, textSize * 0.8)
        self.buttonTextSize = buttonTextSize
        // Room for a label on two lines: "Tilt:" over "normal" (docs/gui.md, Text).
        let compactHeight = max(2 * textSize, minimumTarget)
        let buttonHeight = max(compactHeight, (2 * Self.lineHeight * buttonTextSize).rounded(.up))
        let gap = (margin / 2).rounded()
        let controls = Control.allCases
        // On its side a window too low for four status lines above two columns of such
        // buttons keeps three, so the buttons' labels keep their second line.
        let twoColumns = Double((controls.count + 1) / 2) * (buttonHeight + gap) - gap
        let fourLines = (4 * Self.lineHeight * textSize).rounded(.up)
        let statusLines = orientation == .portrait || window.height - 2 * margin - gap - fourLines < twoColumns ? 3 : 4
        self.statusLines = statusLines
        let statusHeight = (Double(statusLines) * Self.lineHeight * textSize).rounded(.up)
        // A button at least as wide as a label's widest word needs: "Calibrate" is 5.13
        // times the pixel size in the default font, beside the padding on each side.
        let wordWidth = 5.2 * buttonTextSize + 2 * Self.buttonPadding(textSize)

        switch orientation {
        case .portrait:
            // Rows of equal length (the last one shorter when the count does not divide),
            // as few as keep each button at least the minimum target wide and wide
            // enough for its label to stay legible.
            let width = window.width - 2 * margin
            let narrowest = max(minimumTarget, 5.5 * textSize, wordWidth)
            let fit = Int((width + gap) / (narrowest + gap))
            let count = controls.count
            let rows = (count + max(1, fit) - 1) / max(1, fit)
            let columns = (count + rows - 1) / rows
            // The gauge beside the status lines takes a little more than their height.
            let rowHeight = (statusHeight * 4 / 3).rounded()
            let smallestPanel = rowHeight + gap + Double(rows) * buttonHeight + Double(rows - 1) * gap
            // The board as wide as the window allows, at the top; the panel takes the rest
            // of the height, its buttons growing (up to a cell) so no empty band is left.
            let boardSide = min(width, window.height - 3 * margin - smallestPanel)
            let cell = max(1, (boardSide / Double(side)).rounded(.down))
            board = Rect(x: (margin + (width - cell * Double(side)) / 2).rounded(.down), y: margin,
                         width: cell * Double(side), height: cell * Double(side))
            let panelTop = board.maxY + margin
            let spare = max(0, window.height - margin - panelTop - smallestPanel)
            let grown = min(max(buttonHeight, cell), buttonHeight + spare / Double(rows))
            let buttonsHeight = Double(rows) * grown + Double(rows - 1) * gap
            let row = Rect(x: margin, y: panelTop, width: width, height: rowHeight)
            status = Rect(x: row.x, y: row.y + (rowHeight - statusHeight) / 2, width: row.width - rowHeight - gap,
                          height: statusHeight)
            gauge = Rect(x: row.maxX - rowHeight, y: row.y, width: rowHeight, height: rowHeight)
            buttons = Layout.grid(controls, in: Rect(x: margin, y: row.maxY + gap, width: width, height: buttonsHeight),
                                  columns: columns, rowHeight: grown, gap: gap)
        case .landscape:
            // As wide as the board leaves free: the board's side is the height either way.
            let widest = max(10 * textSize, 2 * wordWidth + gap, (window.width * 0.25).rounded(),
                             window.width - window.height - margin)
            // One column while the buttons fit under the status lines with room left for
            // the gauge; else two, or three in a window too low for two-line buttons in
            // two columns (the panel widens for them: every label stays whole).
            let statusTop = margin + statusHeight
            let available = window.height - margin - statusTop - gap
            let oneColumn = Double(controls.count) * (buttonHeight + gap) - gap
            let gaugeRoom = gap + min(widest, 2 * statusHeight, 4 * textSize)
            let columns = oneColumn + gaugeRoom <= available || widest < 2 * minimumTarget + gap ? 1
                : twoColumns <= available ? 2 : 3
            let panelWidth = max(widest, Double(columns) * wordWidth + Double(columns - 1) * gap)
            let boardArea = Rect(x: margin, y: margin, width: window.width - 3 * margin - panelWidth,
                                 height: window.height - 2 * margin)
            let status = Rect(x: window.width - margin - panelWidth, y: margin, width: panelWidth, height: statusHeight)
            self.status = status
            let rows = (controls.count + columns - 1) / columns
            // Two lines' room where the height allows it, else as tall as the rows fit.
            let fitting = ((available - Double(rows - 1) * gap) / Double(rows)).rounded(.down)
            let rowHeight = max(compactHeight, min(buttonHeight, fitting))
            let buttons = Layout.grid(controls, in: Rect(x: status.x, y: status.maxY + gap, width: panelWidth,
                                                         height: Double(rows) * (rowHeight + gap) - gap),
                                      columns: columns, rowHeight: rowHeight, gap: gap)
            self.buttons = buttons
            let below = (buttons.last?.frame.maxY ?? status.maxY) + gap
            let gaugeSide = max(0, min(panelWidth, 2 * statusHeight, window.height - margin - below))
            gauge = Rect(x: status.x + (panelWidth - gaugeSide) / 2, y: below, width: gaugeSide, height: gaugeSide)
            let cell = max(1, (min(boardArea.width, boardArea.height) / Double(side)).rounded(.down))
            let boardSide = cell * Double(side)
            board = Rect(x: (boardArea.x + (boardArea.width - boardSide) / 2).rounded(.down),
                         y: (boardArea.y + (boardArea.height - boardSide) / 2).rounded(.down),
                         width: boardSide, height: boardSide)
        }
    }

    /// Buttons row by row, `columns` to a row, each row `rowHeight` high.
    private static func grid(_ controls: [Control], in area: Rect, columns: Int, rowHeight: Double, gap: Double) -> [Button] {
        let count = Double(columns)
        let width = ((area.width - gap * (count - 1)) / count).rounded(.down)
        return controls.enumerated().map { offset, control in
            let column = Double(offset % columns), row = Double(offset / columns)
            return Button(control: control, frame: Rect(x: area.x + column * (width + gap), y: area.y + row * (rowHeight + gap),
                                                        width: width, height: rowHeight))
        }
    }

    /// The space between a button's edge and its label, on either side.
    public var buttonPadding: Double { Self.buttonPadding(textSize) }
    static func buttonPadding(_ textSize: Double) -> Double { textSize * 0.3 }

    public var cellSize: Double { board.width / Double(side) }
    /// The board shows through between tiles, so they read as separate pieces.
    public var tileGap: Double { max(2, (cellSize * 0.05).rounded()) }
    /// Tile numbers at 0.42 of the cell, not below the legible size while the cell leaves room.
    public var tileTextSize: Double { max(min(minimumText, cellSize * 0.7), cellSize * 0.42).rounded() }

    /// `rect` grown so that none of its edges cuts through a tile's number: an edge that
    /// would is moved out past the number, within the board (the solved panel hides the
    /// tiles under it, docs/gui.md, Solved).
    public func coveringTileNumbers(_ rect: Rect) -> Rect {
        // A number's half height and half width in cells, with a little to spare: digits
        // are 0.73 of the pixel size high and about 0.7 of it wide (DejaVu Sans Bold).
        let size = tileTextSize / cellSize
        let digits = Double(String(side * side - 1).count)
        let halfHeight = 0.73 * size / 2 + 0.04, halfWidth = 0.7 * size * digits / 2 + 0.04
        func out(_ edge: Double, from origin: Double, half: Double, before: Bool) -> Double {
            let cells = (edge - origin) / cellSize
            let index = cells.rounded(.down)
            guard abs(cells - index - 0.5) < half else { return edge }
            return origin + (index + 0.5 + (before ? -half : half)) * cellSize
        }
        let top = max(board.y, out(rect.y, from: board.y, half: halfHeight, before: true))
        let bottom = min(board.maxY, out(rect.maxY, from: board.y, half: halfHeight, before: false))
        let left = max(board.x, out(rect.x, from: board.x, half: halfWidth, before: true))
        let right = min(board.maxX, out(rect.maxX, from: board.x, half: halfWidth, before: false))
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// The whole cell at `index` (row-major).
    public func cell(_ index: Int) -> Rect {
        tile(row: Double(index / side), column: Double(index % side)).insetBy(-tileGap / 2)
    }

    /// A tile drawn at a fractional cell position (a tile in mid-slide sits between two cells).
    public func tile(row: Double, column: Double) -> Rect {
        Rect(x: board.x + column * cellSize, y: board.y + row * cellSize, width: cellSize, height: cellSize)
            .insetBy(tileGap / 2)
    }

    /// The cell under `point`, if it is on the board.
    public func cellIndex(at point: Point) -> Int? {
        guard board.contains(point) else { return nil }
        let column = min(side - 1, Int((point.x - board.x) / cellSize))
        let row = min(side - 1, Int((point.y - board.y) / cellSize))
        return row * side + column
    }

    public func control(at point: Point) -> Control? {
        buttons.first { $0.frame.contains(point) }?.control
    }
}
