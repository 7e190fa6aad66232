import TiltGUI
import TiltWire

/// Draws a `BoardScene` in a `Layout`: the board with its tiles where the animator
/// has them, the status lines, the buttons, and a banner when there is news.
struct BoardPainter {
    let renderer: Renderer
    let text: TextCache

    func draw(_ scene: BoardScene, in layout: Layout) {
        renderer.clear(Palette.background)
        drawBoard(scene, layout)
        drawStatus(scene, layout)
        drawButtons(scene, layout)
        drawGauge(scene, layout)
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

    /// All labels at one size, the largest at which the longest fits, so the row looks even.
    private func drawButtons(_ scene: BoardScene, _ layout: Layout) {
        let labels = layout.buttons.map { button -> (Rect, Texture?) in
            let enabled = isEnabled(button.control, scene)
            renderer.fill(button.frame, enabled ? Palette.button : Palette.buttonDisabled)
            let texture = text.texture(scene.label(for: button.control), size: layout.textSize * 0.8,
                                       color: enabled ? Palette.buttonText : Palette.buttonTextDisabled, renderer: renderer)
            return (button.frame.insetBy(layout.textSize * 0.3), texture)
        }
        let scale = labels.compactMap { frame, texture in texture.map { Renderer.fit($0, in: frame) } }.min() ?? 1
        for (frame, texture) in labels {
            if let texture { renderer.draw(texture, centeredIn: frame, scale: scale) }
        }
    }

    private func drawBoard(_ scene: BoardScene, _ layout: Layout) {
        let offset: (x: Double, y: Double) = scene.animator?.boardOffset ?? (0, 0)
        let push = (x: offset.x * layout.cellSize, y: offset.y * layout.cellSize)
        renderer.fill(layout.board.offsetBy(dx: push.x, dy: push.y), Palette.board)
        for placement in scene.animator?.placements ?? [] {
            let tile = layout.tile(row: placement.row, column: placement.column).offsetBy(dx: push.x, dy: push.y)
            renderer.fill(tile, Palette.tile)
            label(scene.label(placement.tile), size: layout.tileTextSize, Palette.tileText, centeredIn: tile)
        }
        if scene.connection != .connected {
            renderer.fill(layout.board, Palette.dim)
            banner("connecting…", layout)
        } else if let celebration = scene.celebration {
            celebrate(celebration, layout)
        }
    }

    /// The solved panel: it grows in from the middle of the board, with the time and
    /// moves, the records, and how to start again (docs/gui.md).
    private func celebrate(_ c: BoardScene.Celebration, _ layout: Layout) {
        let eased = 1 - (1 - c.progress) * (1 - c.progress)
        let board = layout.board
        let full = Rect(x: board.x + board.width * 0.06, y: board.y + board.height * 0.2,
                        width: board.width * 0.88, height: board.height * 0.6)
        let panel = Rect(x: full.center.x - full.width * eased / 2, y: full.center.y - full.height * eased / 2,
                         width: full.width * eased, height: full.height * eased)
        renderer.fill(panel, Palette.bannerBackground)
        guard c.progress >= 1 else { return }
        let rows = Double(c.lines.count) + 2
        let row = full.height / rows
        label(c.title, size: row * 1.2, c.isRecord ? Palette.gaugeFired : Palette.bannerText,
              centeredIn: Rect(x: full.x, y: full.y + row * 0.2, width: full.width, height: row * 1.6))
        for (offset, line) in c.lines.enumerated() {
            let frame = Rect(x: full.x + row * 0.3, y: full.y + row * (2 + Double(offset)), width: full.width - row * 0.6, height: row)
            label(line, size: row * 0.55, Palette.statusText, centeredIn: frame)
        }
    }

    /// A band across the middle of the board.
    private func banner(_ message: String, _ layout: Layout) {
        let height = max(2.5 * layout.textSize, min(layout.cellSize, layout.board.height / 3))
        let band = Rect(x: layout.board.x, y: layout.board.center.y - height / 2, width: layout.board.width, height: height)
        renderer.fill(band, Palette.bannerBackground)
        label(message, size: height * 0.4, Palette.bannerText, centeredIn: band.insetBy(height * 0.15))
    }

    private func drawStatus(_ scene: BoardScene, _ layout: Layout) {
        let line = layout.status.height / 2
        let first = Rect(x: layout.status.x, y: layout.status.y, width: layout.status.width, height: line)
        for (offset, content) in [scene.gameLine, scene.sensorLine].enumerated() where !content.isEmpty {
            guard let texture = text.texture(content, size: layout.textSize, color: Palette.statusText, renderer: renderer) else {
                continue
            }
            renderer.draw(texture, leftIn: first.offsetBy(dx: 0, dy: Double(offset) * line))
        }
    }

    private func label(_ content: String, size: Double, _ color: Color, centeredIn rect: Rect) {
        guard let texture = text.texture(content, size: size, color: color, renderer: renderer) else { return }
        renderer.draw(texture, centeredIn: rect)
    }

    private func isEnabled(_ control: Control, _ scene: BoardScene) -> Bool {
        guard scene.connection == .connected else { return control == .quit }
        switch control {
        case .undo: return scene.state?.canUndo ?? false
        case .redo: return scene.state?.canRedo ?? false
        case .calibrate: return scene.sensor?.status == .active
        case .sensitivity: return scene.settings != nil
        case .newGame, .quit: return true
        }
    }
}
