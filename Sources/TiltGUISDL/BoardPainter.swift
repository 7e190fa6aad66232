// SPDX-License-Identifier: GPL-3.0-or-later
import TiltClient
import TiltGUI
import TiltWire

/// The picture the tiles are cut from, as the painter draws it.
struct BoardPicture {
    let texture: Texture
    /// Its side in pixels (it is square).
    let side: Double
    var corners: NumberCorners
}

/// Draws a `BoardScene` in a `Layout`: the board with its tiles where the animator
/// has them, the status lines, the buttons, and a banner when there is news.
struct BoardPainter {
    let renderer: Renderer
    let text: TextCache

    func draw(_ scene: BoardScene, in layout: Layout, picture: BoardPicture? = nil, peeking: Bool = false,
              dialog: NewGameDialog? = nil, picker: (PicturePicker, [PictureChoice: Texture?])? = nil, welcoming: Bool = false) {
        renderer.clear(Palette.background)
        drawBoard(scene, layout, picture: picture, peeking: peeking)
        drawStatus(scene, layout)
        drawButtons(scene, layout, hasPicture: picture != nil)
        drawGauge(scene, layout)
        if let dialog { drawDialog(dialog, layout) }
        if let (picker, thumbnails) = picker { drawPicker(picker, thumbnails: thumbnails, layout) }
        if welcoming { drawWelcome(layout) }
    }

    /// The first-start card (FirstStart): opaque over the whole window, large text.
    private func drawWelcome(_ layout: Layout) {
        let margin = (min(layout.window.width, layout.window.height) * 0.05).rounded()
        let card = Rect(x: margin, y: margin, width: layout.window.width - 2 * margin, height: layout.window.height - 2 * margin)
        renderer.fill(card.insetBy(-3), Palette.bannerText)
        renderer.fill(card, Palette.bannerBackground)
        let size = max(layout.textSize, (min(card.width, card.height) / 20).rounded())
        let inner = card.insetBy(size)
        var y = inner.y
        label(FirstStart.title, size: size * 1.5, Palette.bannerText,
              centeredIn: Rect(x: inner.x, y: y, width: inner.width, height: size * 2), minimum: size)
        y += size * 2.5
        for paragraph in FirstStart.paragraphs {
            let lines = TextWrap.lines(paragraph, width: inner.width, maxLines: 6) { text.width(of: $0, size: size) }
            for line in lines {
                if let texture = text.texture(line, size: size, color: Palette.statusText, renderer: renderer) {
                    renderer.draw(texture, leftIn: Rect(x: inner.x, y: y, width: inner.width, height: Layout.lineHeight * size))
                }
                y += Layout.lineHeight * size
            }
            y += size * 0.6
        }
        let button = Rect(x: inner.x, y: max(y, inner.maxY - 2.4 * size), width: inner.width, height: 2.4 * size)
        renderer.fill(button, Palette.gaugeArmed)
        label(FirstStart.dismiss, size: size, Palette.tileText, centeredIn: button, minimum: size)
    }

    /// The tilt gauge: rings at the release and trigger angles, the bubble coloured by
    /// the detector's state (docs/gui.md). Nothing without a running sensor.
    private func drawGauge(_ scene: BoardScene, _ layout: Layout) {
        guard let (pose, state) = scene.gauge, layout.gauge.width >= 8 else { return }
        let g = GaugeGeometry(pose: pose, in: layout.gauge)
        let line = max(1, (g.radius / 24).rounded())
        disc(g.center, g.radius, Palette.gaugeFace)
        ring(g.center, g.triggerRadius, line, Palette.gaugeTrigger)
        ring(g.center, g.releaseRadius, line, Palette.gaugeRing)
        let color = switch state {
        case .fired: Palette.gaugeFired
        case .armed: Palette.gaugeArmed
        case .waiting: Palette.gaugeWaiting
        }
        disc(g.bubbleCenter, g.bubbleRadius, color)
    }

    private func disc(_ center: Point, _ radius: Double, _ color: Color) {
        for span in GaugeGeometry.spans(center: center, radius: radius) {
            renderer.fill(Rect(x: span.from, y: span.y, width: span.to - span.from, height: 1), color)
        }
    }

    /// A circle's outline `width` wide, as the spans of the outer disc less the inner one.
    private func ring(_ center: Point, _ radius: Double, _ width: Double, _ color: Color) {
        let inner = Dictionary(GaugeGeometry.spans(center: center, radius: radius - width).map { ($0.y, $0) },
                               uniquingKeysWith: { a, _ in a })
        for span in GaugeGeometry.spans(center: center, radius: radius) {
            if let hole = inner[span.y] {
                renderer.fill(Rect(x: span.from, y: span.y, width: hole.from - span.from, height: 1), color)
                renderer.fill(Rect(x: hole.to, y: span.y, width: span.to - hole.to, height: 1), color)
            } else {
                renderer.fill(Rect(x: span.from, y: span.y, width: span.to - span.from, height: 1), color)
            }
        }
    }

    /// Every label fitted to its button, never below the legible size: a label too wide
    /// loses its key, then wraps onto two lines (ButtonLabel, docs/gui.md, Text).
    private func drawButtons(_ scene: BoardScene, _ layout: Layout, hasPicture: Bool) {
        for button in layout.buttons {
            let enabled = button.control == .peek ? hasPicture && scene.connection == .connected : isEnabled(button.control, scene)
            renderer.fill(button.frame, enabled ? Palette.button : Palette.buttonDisabled)
            let color = enabled ? Palette.buttonText : Palette.buttonTextDisabled
            let fitted = ButtonLabel.fit(full: scene.label(for: button.control), short: scene.shortLabel(for: button.control),
                                         width: button.frame.width - 2 * layout.buttonPadding, height: button.frame.height,
                                         size: layout.buttonTextSize, minimum: layout.minimumText) { text.width(of: $0, size: $1) }
            centred(fitted.lines, size: fitted.size, color, in: button.frame)
        }
    }

    /// `content` wrapped to `width` at `size`, the lines centred in `rect` one under another.
    private func paragraph(_ content: String, size: Double, _ color: Color, in rect: Rect, width: Double, maxLines: Int) {
        centred(TextWrap.lines(content, width: width, maxLines: maxLines) { text.width(of: $0, size: size) },
                size: size, color, in: rect)
    }

    /// `lines` centred in `rect` one under another.
    private func centred(_ lines: [String], size: Double, _ color: Color, in rect: Rect) {
        let lineHeight = Layout.lineHeight * size
        let top = rect.y + (rect.height - Double(lines.count) * lineHeight) / 2
        for (offset, line) in lines.enumerated() {
            label(line, size: size, color, centeredIn: Rect(x: rect.x, y: top + Double(offset) * lineHeight,
                                                           width: rect.width, height: lineHeight), minimum: size)
        }
    }

    /// The question New asks (NewGameDialog): opaque over the board, every answer a button.
    private func drawDialog(_ dialog: NewGameDialog, _ layout: Layout) {
        let frames = NewGameDialog.frames(in: layout)
        renderer.fill(frames.panel.insetBy(-2), Palette.bannerText)
        renderer.fill(frames.panel, Palette.bannerBackground)
        let size = layout.textSize
        let heading = Rect(x: frames.text.x, y: frames.text.y, width: frames.text.width, height: Layout.lineHeight * size)
        label(dialog.title, size: size, Palette.bannerText, centeredIn: heading, minimum: size)
        paragraph(dialog.message, size: size, Palette.statusText,
                  in: Rect(x: frames.text.x, y: heading.maxY, width: frames.text.width, height: frames.text.height - heading.height),
                  width: frames.text.width, maxLines: 3)
        for (boardSize, frame) in frames.sizes {
            let chosen = boardSize == dialog.selected
            renderer.fill(frame, chosen ? Palette.hintTile : Palette.button)
            label(GameText.sizeText(boardSize), size: size, chosen ? Palette.tileText : Palette.buttonText, centeredIn: frame,
                  minimum: size)
        }
        renderer.fill(frames.cancel, Palette.button)
        paragraph(dialog.cancelLabel, size: size, Palette.buttonText, in: frames.cancel, width: frames.cancel.width - size / 2,
                  maxLines: 2)
        renderer.fill(frames.start, Palette.gaugeArmed)
        paragraph(dialog.startLabel, size: size, Palette.tileText, in: frames.start, width: frames.start.width - size / 2,
                  maxLines: 2)
    }

    /// The picture picker (PicturePicker): opaque over the window, every part a fingertip big.
    private func drawPicker(_ picker: PicturePicker, thumbnails: [PictureChoice: Texture?], _ layout: Layout) {
        let frames = picker.frames(in: layout)
        renderer.fill(frames.panel.insetBy(-2), Palette.bannerText)
        renderer.fill(frames.panel, Palette.bannerBackground)
        let size = layout.textSize
        label(PicturePicker.title, size: size, Palette.bannerText, centeredIn: frames.title, minimum: size)
        for thumbnail in frames.thumbnails {
            let entry = picker.entries[thumbnail.index]
            if thumbnail.selected { renderer.fill(thumbnail.frame, Palette.hintGlow) }
            else if thumbnail.focused { renderer.fill(thumbnail.frame, Palette.button) }
            switch thumbnails[entry.choice] {
            case .some(.some(let texture)):
                renderer.draw(texture, from: Rect(x: 0, y: 0, width: texture.width, height: texture.height), into: thumbnail.picture)
            case .some(.none):
                renderer.fill(thumbnail.picture, Palette.board)
                label("?", size: thumbnail.picture.height * 0.4, Palette.statusText, centeredIn: thumbnail.picture)
            case .none where entry.choice == .numbers:
                renderer.fill(thumbnail.picture, Palette.tile)
                label("1 2 3", size: thumbnail.picture.height * 0.25, Palette.tileText, centeredIn: thumbnail.picture)
            case .none:
                renderer.fill(thumbnail.picture, Palette.board)
            }
            let name = TextWrap.lines(entry.label, width: thumbnail.label.width, maxLines: 1) { text.width(of: $0, size: size * 0.8) }
            label(name.first ?? "", size: size * 0.8, thumbnail.selected ? Palette.tileText : Palette.statusText,
                  centeredIn: thumbnail.label, minimum: layout.minimumText)
        }
        if let previous = frames.previous {
            button(PicturePicker.previousLabel, in: previous, enabled: frames.hasPrevious, layout)
        }
        if let next = frames.next { button(PicturePicker.nextLabel, in: next, enabled: frames.hasNext, layout) }
        if let pageLabel = frames.pageLabel {
            label(picker.pageLabel(in: layout), size: size, Palette.statusText, centeredIn: pageLabel, minimum: layout.minimumText)
        }
        button(picker.numberCornersLabel, in: frames.numberCorners, enabled: true, layout)
        button(picker.soundLabel, in: frames.sound, enabled: true, layout)
        button(PicturePicker.closeLabel, in: frames.close, enabled: true, layout)
    }

    /// A button of a panel: its label wrapped onto two lines where it needs them.
    private func button(_ title: String, in frame: Rect, enabled: Bool, _ layout: Layout) {
        renderer.fill(frame, enabled ? Palette.button : Palette.buttonDisabled)
        paragraph(title, size: layout.buttonTextSize, enabled ? Palette.buttonText : Palette.buttonTextDisabled, in: frame,
                  width: frame.width - 2 * layout.buttonPadding, maxLines: 2)
    }

    private func drawBoard(_ scene: BoardScene, _ layout: Layout, picture: BoardPicture?, peeking: Bool) {
        let offset: (x: Double, y: Double) = scene.animator?.boardOffset ?? (0, 0)
        let push = (x: offset.x * layout.cellSize, y: offset.y * layout.cellSize)
        renderer.fill(layout.board.offsetBy(dx: push.x, dy: push.y), Palette.board)
        // Solved, the missing piece comes in and the picture shows whole, with no seams;
        // a peek shows it whole whatever the board.
        if let picture, peeking || scene.solvedBanner != nil {
            renderer.draw(picture.texture, from: Rect(x: 0, y: 0, width: picture.side, height: picture.side), into: layout.board)
        } else {
            drawTiles(scene, layout, picture: picture, push: push)
        }
        if scene.connection != .connected {
            renderer.fill(layout.board, Palette.dim)
            banner("connecting…", layout)
        } else if let celebration = scene.celebration {
            celebrate(celebration, layout)
        }
    }

    private func drawTiles(_ scene: BoardScene, _ layout: Layout, picture: BoardPicture?, push: (x: Double, y: Double)) {
        let hinted = scene.hintedTile
        let side = scene.animator?.side ?? layout.side
        let inset = layout.tileGap / 2 / layout.cellSize
        for placement in scene.animator?.placements ?? [] {
            let tile = layout.tile(row: placement.row, column: placement.column).offsetBy(dx: push.x, dy: push.y)
            let glows = placement.tile == hinted
            if glows { renderer.fill(tile.insetBy(-layout.cellSize * 0.04), Palette.hintGlow) }
            switch TileFace.of(tile: placement.tile, side: side, label: scene.label(placement.tile), picture: picture?.side,
                               corners: picture?.corners ?? .automatic, inset: inset) {
            case .number(let number):
                renderer.fill(tile, glows ? Palette.hintTile : Palette.tile)
                label(number, size: layout.tileTextSize, Palette.tileText, centeredIn: tile)
            case .piece(let source, let corner):
                guard let picture else { continue }
                renderer.draw(picture.texture, from: source, into: tile)
                if glows { renderer.fill(tile, Palette.hintVeil) }
                if let corner { cornerNumber(corner, in: tile, layout) }
            }
        }
    }

    /// A piece's number, small in its top left corner on a dark patch that any picture leaves legible.
    private func cornerNumber(_ number: String, in tile: Rect, _ layout: Layout) {
        let size = max(min(layout.minimumText, tile.height * 0.45), (tile.height * 0.22).rounded())
        let width = text.width(of: number, size: size) + size * 0.5
        let patch = Rect(x: tile.x, y: tile.y, width: min(tile.width, width), height: min(tile.height, size * 1.25))
        renderer.fill(patch, Palette.cornerPatch)
        label(number, size: size, Palette.bannerText, centeredIn: patch)
    }

    /// The solved panel: it grows in from the middle of the board, with the time and
    /// moves, the records, and how to start again (docs/gui.md).
    private func celebrate(_ c: BoardScene.Celebration, _ layout: Layout) {
        let eased = 1 - (1 - c.progress) * (1 - c.progress)
        let board = layout.board
        // Rows of 0.6 of the board, as many as the lines and the title's two; the lines
        // wrap at the legible size, and the panel grows taller (up to the board) to hold them.
        let row = board.height * 0.6 / (Double(c.lines.count) + 2)
        let pad = row * 0.3
        let width = board.width * 0.88
        let size = max(layout.minimumText, row * 0.55)
        let lineHeight = Layout.lineHeight * size
        let wrapped = c.lines.map { line in
            TextWrap.lines(line, width: width - 2 * pad, maxLines: 3) { text.width(of: $0, size: size) }
        }
        let needed = row * 2 + Double(wrapped.joined().count) * lineHeight + Double(wrapped.count) * size * 0.4 + pad
        let height = min(board.height, max(board.height * 0.6, needed))
        let full = Rect(x: board.x + board.width * 0.06, y: board.center.y - height / 2, width: width, height: height)
        // Its edges clear of the tiles' numbers, so no part of one shows beside it.
        let cover = layout.coveringTileNumbers(full)
        let panel = Rect(x: cover.center.x - cover.width * eased / 2, y: cover.center.y - cover.height * eased / 2,
                         width: cover.width * eased, height: cover.height * eased)
        renderer.fill(panel, Palette.bannerBackground)
        guard c.progress >= 1 else { return }
        label(c.title, size: row * 1.2, c.isRecord ? Palette.gaugeFired : Palette.bannerText,
              centeredIn: Rect(x: full.x, y: full.y + row * 0.2, width: full.width, height: row * 1.6), minimum: layout.minimumText)
        var y = full.y + row * 2 + (height - needed) / 2
        for lines in wrapped {
            for line in lines {
                label(line, size: size, Palette.statusText,
                      centeredIn: Rect(x: full.x + pad, y: y, width: width - 2 * pad, height: lineHeight), minimum: size)
                y += lineHeight
            }
            y += size * 0.4
        }
    }

    /// A band across the middle of the board.
    private func banner(_ message: String, _ layout: Layout) {
        let height = max(2.5 * layout.textSize, min(layout.cellSize, layout.board.height / 3))
        let band = Rect(x: layout.board.x, y: layout.board.center.y - height / 2, width: layout.board.width, height: height)
        renderer.fill(band, Palette.bannerBackground)
        label(message, size: max(layout.minimumText, height * 0.4), Palette.bannerText, centeredIn: band.insetBy(height * 0.15),
              minimum: layout.minimumText)
    }

    /// The game line (the hint, what was refused), then the sensor line, wrapped at
    /// words into the panel's lines: the game line first, the sensor line keeps one.
    private func drawStatus(_ scene: BoardScene, _ layout: Layout) {
        let size = layout.textSize
        let measure = { (line: String) in text.width(of: line, size: size) }
        let width = layout.status.width
        let sensorText = scene.sensorLine
        let game = TextWrap.lines(scene.gameLine, width: width, maxLines: layout.statusLines - (sensorText.isEmpty ? 0 : 1),
                                  measure: measure)
        let sensor = TextWrap.lines(sensorText, width: width, maxLines: layout.statusLines - game.count, measure: measure)
        let lineHeight = Layout.lineHeight * size
        for (offset, line) in (game + sensor).enumerated() {
            guard let texture = text.texture(line, size: size, color: Palette.statusText, renderer: renderer) else { continue }
            renderer.draw(texture, leftIn: Rect(x: layout.status.x, y: layout.status.y + Double(offset) * lineHeight,
                                                width: width, height: lineHeight))
        }
    }

    /// `content` centred in `rect`, shrunk to fit it but not below `minimum` pixels.
    private func label(_ content: String, size: Double, _ color: Color, centeredIn rect: Rect, minimum: Double = 0) {
        guard let texture = text.texture(content, size: size, color: color, renderer: renderer) else { return }
        renderer.draw(texture, centeredIn: rect, minimumScale: min(1, minimum / size))
    }

    private func isEnabled(_ control: Control, _ scene: BoardScene) -> Bool {
        guard scene.connection == .connected else { return control == .quit }
        switch control {
        case .undo: return scene.state?.canUndo ?? false
        case .redo: return scene.state?.canRedo ?? false
        case .calibrate: return scene.sensor?.status == .active
        case .hint: return scene.state.map { !$0.solved } ?? false
        case .sensitivity: return scene.settings != nil
        case .newGame, .size, .quit, .picture, .peek: return true
        }
    }
}
