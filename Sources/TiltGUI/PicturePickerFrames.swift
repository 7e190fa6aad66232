// SPDX-License-Identifier: GPL-3.0-or-later
/// Where the picker's parts go (docs/gui.md, Pictures): a panel over the whole window
/// but a margin, the title at its top, the thumbnails in a grid, the page buttons under
/// them when they take more than one page, and the toggles' row at the bottom. Every
/// button and thumbnail is at least `layout.minimumTarget` both ways.
extension PicturePicker {
    public struct Thumbnail: Equatable, Sendable {
        /// The entry's index in `entries`.
        public var index: Int
        /// What a tap hits: the picture and its label.
        public var frame: Rect
        /// The square the picture is drawn in, at the top of `frame`.
        public var picture: Rect
        /// One line of text under it.
        public var label: Rect
        /// The picture the tiles show now.
        public var selected: Bool
        /// The keys' focus.
        public var focused: Bool
    }

    public struct Frames: Equatable, Sendable {
        public var panel: Rect
        public var title: Rect
        /// The current page's entries, row by row.
        public var thumbnails: [Thumbnail]
        /// The page buttons and the text between them ("2 / 5"); nil on a single page.
        public var previous: Rect?
        public var pageLabel: Rect?
        public var next: Rect?
        /// Whether each page button has a page to go to (greyed otherwise).
        public var hasPrevious: Bool
        public var hasNext: Bool
        public var numberCorners: Rect
        public var sound: Rect
        public var close: Rect

        /// What a tap at `point` chooses; nil for the panel's empty places (a tap there does nothing).
        public func choice(at point: Point) -> Choice? {
            if let hit = thumbnails.first(where: { $0.frame.contains(point) }) { return .entry(hit.index) }
            if let previous, previous.contains(point) { return .previousPage }
            if let next, next.contains(point) { return .nextPage }
            if numberCorners.contains(point) { return .numberCorners }
            if sound.contains(point) { return .sound }
            if close.contains(point) { return .close }
            return nil
        }
    }

    public func frames(in layout: Layout) -> Frames {
        let grid = Grid(layout: layout, count: entries.count)
        let page = focus / grid.perPage
        let shown = (page * grid.perPage)..<min(entries.count, (page + 1) * grid.perPage)
        let thumbnails = shown.map { index in
            let offset = index - shown.lowerBound
            let frame = grid.cell(row: offset / grid.columns, column: offset % grid.columns)
            return Thumbnail(index: index, frame: frame,
                             picture: Rect(x: frame.x, y: frame.y, width: frame.width, height: grid.side),
                             label: Rect(x: frame.x, y: frame.y + grid.side, width: frame.width, height: grid.labelHeight),
                             selected: index == selected, focused: index == focus)
        }
        return Frames(panel: grid.panel, title: grid.title, thumbnails: thumbnails,
                      previous: grid.pager?.previous, pageLabel: grid.pager?.label, next: grid.pager?.next,
                      hasPrevious: page > 0, hasNext: page + 1 < grid.pages,
                      numberCorners: grid.numberCorners, sound: grid.sound, close: grid.close)
    }

    /// The picker's geometry for a window and a number of entries.
    struct Grid {
        let panel: Rect
        let title: Rect
        let numberCorners: Rect
        let sound: Rect
        let close: Rect
        let pager: (previous: Rect, label: Rect, next: Rect)?
        let columns: Int
        let rows: Int
        /// A thumbnail's picture is a square this wide; its label below it this high.
        let side: Double
        let labelHeight: Double
        let gap: Double
        let origin: Point
        var perPage: Int { columns * rows }
        let pages: Int

        init(layout: Layout, count: Int) {
            let gap = max(8, (layout.textSize * 0.5).rounded())
            self.gap = gap
            let target = layout.minimumTarget
            let panel = Rect(x: gap, y: gap, width: layout.window.width - 2 * gap, height: layout.window.height - 2 * gap)
            self.panel = panel
            let inner = panel.insetBy(gap)
            title = Rect(x: inner.x, y: inner.y, width: inner.width, height: (Layout.lineHeight * layout.textSize).rounded(.up))
            // Buttons as tall as two lines of label, as the board's own are.
            let button = max(target, (2 * Layout.lineHeight * layout.buttonTextSize).rounded(.up))

            // The toggles in one row where "Numbers in corners: auto" fits a third on two
            // lines; else it takes a row and Sound and Close share the next; else a row each.
            let wide = max(target, 8.5 * layout.buttonTextSize), narrow = max(target, 5 * layout.buttonTextSize)
            let third = ((inner.width - 2 * gap) / 3).rounded(.down), half = ((inner.width - gap) / 2).rounded(.down)
            let rowsOfToggles = third >= wide ? 1 : half >= narrow ? 2 : 3
            let togglesTop = inner.maxY - Double(rowsOfToggles) * (button + gap) + gap
            switch rowsOfToggles {
            case 1:
                numberCorners = Rect(x: inner.x, y: togglesTop, width: third, height: button)
                sound = Rect(x: inner.x + third + gap, y: togglesTop, width: third, height: button)
                close = Rect(x: inner.maxX - third, y: togglesTop, width: third, height: button)
            case 2:
                numberCorners = Rect(x: inner.x, y: togglesTop, width: inner.width, height: button)
                sound = Rect(x: inner.x, y: togglesTop + button + gap, width: half, height: button)
                close = Rect(x: inner.maxX - half, y: togglesTop + button + gap, width: half, height: button)
            default:
                numberCorners = Rect(x: inner.x, y: togglesTop, width: inner.width, height: button)
                sound = Rect(x: inner.x, y: togglesTop + button + gap, width: inner.width, height: button)
                close = Rect(x: inner.x, y: togglesTop + 2 * (button + gap), width: inner.width, height: button)
            }

            // Thumbnails from the minimum target up to about 40 mm, at least three to a
            // row where that leaves each the minimum: large on a tablet, many on a monitor.
            let labelHeight = (Layout.lineHeight * layout.buttonTextSize).rounded(.up)
            self.labelHeight = labelHeight
            let largest = max(target, (40 * target / Layout.minimumTargetMillimetres).rounded())
            let top = title.maxY + gap
            func fit(height: Double) -> (columns: Int, rows: Int, side: Double) {
                let most = max(1, Int((inner.width + gap) / (target + gap)))
                let columns = min(most, max(3, Int(((inner.width + gap) / (largest + gap)).rounded(.up))))
                let across = ((inner.width - gap * Double(columns - 1)) / Double(columns)).rounded(.down)
                let side = max(target, min(largest, across, height - labelHeight))
                return (columns, max(1, Int((height + gap) / (side + labelHeight + gap))), side)
            }
            let single = fit(height: togglesTop - gap - top)
            let fits = count <= single.columns * single.rows
            let paged = fit(height: togglesTop - 2 * gap - button - top)
            let chosen = fits ? single : paged
            (columns, rows, side) = chosen
            pages = max(1, (count + chosen.columns * chosen.rows - 1) / (chosen.columns * chosen.rows))
            if fits {
                pager = nil
            } else {
                let y = togglesTop - gap - button
                let width = min(max(target, 6 * layout.buttonTextSize), ((inner.width - 2 * gap) / 3).rounded(.down))
                pager = (Rect(x: inner.x, y: y, width: width, height: button),
                         Rect(x: inner.x + width + gap, y: y, width: inner.width - 2 * (width + gap), height: button),
                         Rect(x: inner.maxX - width, y: y, width: width, height: button))
            }
            let used = Double(columns) * side + Double(columns - 1) * gap
            origin = Point(x: (inner.x + (inner.width - used) / 2).rounded(.down), y: top)
        }

        func cell(row: Int, column: Int) -> Rect {
            Rect(x: origin.x + Double(column) * (side + gap), y: origin.y + Double(row) * (side + labelHeight + gap),
                 width: side, height: side + labelHeight)
        }
    }
}
