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
    /// The pixel size of status and button text.
    public let textSize: Double

    public init(window: Size, side: Int) {
        precondition(side >= 2, "a board has at least 2×2 cells")
        self.window = window
        self.side = side
        let orientation: Orientation = window.height >= window.width ? .portrait : .landscape
        self.orientation = orientation
        let margin = max(4, (min(window.width, window.height) * 0.025).rounded())
        // Text scales with the side the buttons line up along, so five labels fit in a row.
        let along = orientation == .portrait ? window.width : window.height
        let textSize = min(32, max(10, (along / 26).rounded()))
        self.textSize = textSize
        let statusHeight = 3 * textSize
        let buttonHeight = 2 * textSize
        let gap = (margin / 2).rounded()

        let boardArea: Rect
        switch orientation {
        case .portrait:
            let panelHeight = statusHeight + gap + buttonHeight
            boardArea = Rect(x: margin, y: margin, width: window.width - 2 * margin,
                             height: window.height - 3 * margin - panelHeight)
            let row = Rect(x: margin, y: window.height - margin - panelHeight, width: window.width - 2 * margin,
                           height: statusHeight)
            status = Rect(x: row.x, y: row.y, width: row.width - statusHeight - gap, height: statusHeight)
            gauge = Rect(x: row.maxX - statusHeight, y: row.y, width: statusHeight, height: statusHeight)
            buttons = Layout.row(Control.allCases, in: Rect(x: margin, y: row.maxY + gap, width: row.width,
                                                           height: buttonHeight), gap: gap)
        case .landscape:
            let panelWidth = max(10 * textSize, (window.width * 0.25).rounded())
            boardArea = Rect(x: margin, y: margin, width: window.width - 3 * margin - panelWidth,
                             height: window.height - 2 * margin)
            let status = Rect(x: window.width - margin - panelWidth, y: margin, width: panelWidth, height: statusHeight)
            self.status = status
            let buttons = Control.allCases.enumerated().map { offset, control in
                Button(control: control, frame: Rect(x: status.x, y: status.maxY + gap + Double(offset) * (buttonHeight + gap),
                                                     width: panelWidth, height: buttonHeight))
            }
            self.buttons = buttons
            let below = (buttons.last?.frame.maxY ?? status.maxY) + gap
            let side = max(0, min(panelWidth, 2 * statusHeight, window.height - margin - below))
            gauge = Rect(x: status.x + (panelWidth - side) / 2, y: below, width: side, height: side)
        }
        let cell = max(1, (min(boardArea.width, boardArea.height) / Double(side)).rounded(.down))
        let boardSide = cell * Double(side)
        board = Rect(x: (boardArea.x + (boardArea.width - boardSide) / 2).rounded(.down),
                     y: (boardArea.y + (boardArea.height - boardSide) / 2).rounded(.down),
                     width: boardSide, height: boardSide)
    }

    private static func row(_ controls: [Control], in area: Rect, gap: Double) -> [Button] {
        let count = Double(controls.count)
        let width = ((area.width - gap * (count - 1)) / count).rounded(.down)
        return controls.enumerated().map { offset, control in
            Button(control: control, frame: Rect(x: area.x + Double(offset) * (width + gap), y: area.y,
                                                 width: width, height: area.height))
        }
    }

    public var cellSize: Double { board.width / Double(side) }
    /// The board shows through between tiles, so they read as separate pieces.
    public var tileGap: Double { max(2, (cellSize * 0.05).rounded()) }
    public var tileTextSize: Double { (cellSize * 0.42).rounded() }

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
