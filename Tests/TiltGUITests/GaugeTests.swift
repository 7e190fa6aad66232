// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltClient
import TiltCore
import TiltGUI
import TiltWire

/// The GUI's tilt gauge (docs/gui.md): where it is, what it draws, which colour.
@Suite struct GaugeTests {
    @Test func ringsAndBubbleScaleWithTheTrigger() {
        let frame = Rect(x: 0, y: 0, width: 120, height: 120)
        let g = GaugeGeometry(pose: PoseReport(x: 15, y: 0, armed: true, trigger: 20, release: 10), in: frame)
        #expect(g.radius == 60)
        #expect(g.triggerRadius == 40 && g.releaseRadius == 20)
        #expect(g.bubbleCenter == Point(x: 90, y: 60), "right edge lowered: the bubble goes right")
        let up = GaugeGeometry(pose: PoseReport(x: 0, y: 15, armed: true, trigger: 20, release: 10), in: frame)
        #expect(up.bubbleCenter == Point(x: 60, y: 30), "top edge lowered: the bubble goes up")
    }

    @Test func theBubbleStaysInsideTheCircle() {
        let g = GaugeGeometry(pose: PoseReport(x: 80, y: 80, armed: false, trigger: 20, release: 10),
                              in: Rect(x: 0, y: 0, width: 100, height: 100))
        let dx = g.bubbleCenter.x - g.center.x, dy = g.bubbleCenter.y - g.center.y
        #expect(((dx * dx + dy * dy).squareRoot() - (g.radius - g.bubbleRadius)).magnitude < 1e-9)
    }

    @Test func spansCoverADisc() {
        let spans = GaugeGeometry.spans(center: Point(x: 10, y: 10), radius: 5)
        #expect(spans.count == 10)
        let middle = spans.first { $0.y == 9 }!
        #expect(abs((middle.to - middle.from) - 2 * (25 - 0.25).squareRoot()) < 1e-9)
    }

    @Test func theStateFollowsTheDetectorAndFlashesOnAFire() throws {
        var scene = BoardSceneTests.connectedScene()
        _ = scene.receive(.pose(PoseReport(x: 0, y: 0, armed: true, trigger: 20, release: 10)))
        #expect(scene.gauge == nil, "no gauge without a running sensor")
        _ = scene.receive(.sensor(SensorReport(status: .active, name: "accel_3d")))
        #expect(scene.gauge?.state == .armed)
        _ = scene.receive(.tilt(direction: .left, moved: false))
        #expect(scene.gauge?.state == .fired)
        #expect(scene.isAnimating, "the flash needs frames")
        _ = scene.receive(.pose(PoseReport(x: -22, y: 0, armed: false, trigger: 20, release: 10)))
        scene.advance(by: BoardScene.firedFlash + 0.5)
        #expect(scene.gauge?.state == .waiting)
    }

    @Test(arguments: [Size(width: 480, height: 800), Size(width: 1024, height: 768)])
    func theGaugeHasItsOwnPlace(window: Size) {
        let layout = Layout(window: window, side: 4)
        #expect(layout.gauge.width >= 40)
        #expect(layout.gauge.width == layout.gauge.height)
        #expect(!overlaps(layout.gauge, layout.board) && !overlaps(layout.gauge, layout.status))
        #expect(layout.buttons.allSatisfy { !overlaps($0.frame, layout.gauge) })
        #expect(layout.gauge.maxX <= window.width && layout.gauge.maxY <= window.height)
    }

    func overlaps(_ a: Rect, _ b: Rect) -> Bool {
        a.x < b.maxX && b.x < a.maxX && a.y < b.maxY && b.y < a.maxY
    }
}

/// The GUI's sensitivity choice (docs/gui.md).
@Suite struct SensitivityChoiceTests {
    @Test func theButtonNamesTheChoiceAndCyclesThroughThem() {
        var scene = BoardSceneTests.connectedScene()
        #expect(scene.label(for: .sensitivity) == "Tilt: … (s)")
        _ = scene.receive(.settings(Sensitivity(trigger: 20, release: 10)))
        #expect(scene.label(for: .sensitivity) == "Tilt: normal (s)")
        #expect(scene.nextSensitivity == Sensitivity.Preset.firm.sensitivity)
        _ = scene.receive(.settings(Sensitivity.Preset.firm.sensitivity))
        #expect(scene.nextSensitivity == Sensitivity.Preset.gentle.sensitivity)
        _ = scene.receive(.settings(Sensitivity(trigger: 25, release: 12)))
        #expect(scene.label(for: .sensitivity) == "Tilt: custom (s)")
        #expect(scene.nextSensitivity == Sensitivity.Preset.normal.sensitivity)
    }

    @Test func theKeyAndTheButtonAskForTheNextChoice() {
        #expect(UserAction(key: .character("s")) == .cycleSensitivity)
        #expect(UserAction(control: .sensitivity) == .cycleSensitivity)
    }

    @Test func everyPresetIsAcceptable() {
        #expect(Sensitivity.Preset.allCases.allSatisfy { $0.sensitivity.problem == nil })
    }
}

/// The solved screen (docs/gui.md).
@Suite struct CelebrationTests {
    func solvedScene(news: RecordNews, records: [SizeRecord] = []) -> BoardScene {
        var puzzle = Puzzle(side: 4)
        _ = puzzle.tilt(.right)
        var scene = BoardScene()
        scene.connection = .connected
        var state = GameState(puzzle: puzzle, revision: 5, time: 12)
        state.records = records
        _ = scene.receive(.state(state))
        _ = scene.receive(.move(revision: 6, move: Move(from: 15, to: 14, direction: .left), cause: .tilt, moves: 2, solved: true))
        _ = scene.receive(.solved(revision: 6, moves: 2, time: 83, records: news))
        return scene
    }

    @Test func growsInOnceTheLastTileHasLandedAndSaysNewBest() throws {
        var scene = solvedScene(news: RecordNews(bestTime: true))
        #expect(scene.celebration == nil)
        scene.advance(by: Animator.slideDuration)
        let start = try #require(scene.celebration)
        #expect(start.progress < 1)
        #expect(scene.isAnimating)
        scene.advance(by: BoardScene.celebrationDuration)
        let shown = try #require(scene.celebration)
        #expect(shown.progress == 1 && !scene.isAnimating)
        #expect(shown.title == "Solved!" && shown.isRecord)
        #expect(shown.lines == ["2 moves, 1:23", "New best time!", "New game: n or the New button"])
    }

    @Test func withoutARecordItShowsTheBest() throws {
        var scene = solvedScene(news: RecordNews(), records: [SizeRecord(size: 4, bestTime: 61, fewestMoves: 1)])
        scene.advance(by: 2)
        let shown = try #require(scene.celebration)
        #expect(!shown.isRecord)
        #expect(shown.lines.contains("Best 1:01, 1 move"))
    }
}

/// Landscape screens and finger-sized buttons (docs/gui.md).
@Suite struct TapTargetTests {
    static let windows = [Size(width: 1024, height: 768), Size(width: 768, height: 1024), Size(width: 480, height: 600),
                          Size(width: 1280, height: 800), Size(width: 800, height: 1280), Size(width: 1920, height: 1080)]

    /// Windows of at least 60 × 75 mm: in a smaller one (480×600 at 320 dpi is 38 × 48 mm)
    /// the panel's 9 mm buttons and 2.5 mm text do not fit beside a board.
    static let physicallySized =
        windows.flatMap { window in [96.0, 160, 220, 320].map { (window, $0) } }
            .filter { window, dpi in min(window.width, window.height) / dpi * 25.4 >= 60 }

    @Test(arguments: physicallySized)
    func everyButtonIsAtLeastNineMillimetres(window: Size, dpi: Double) {
        let perMillimetre = Layout.pointsPerMillimetre(dpi: dpi)
        let layout = Layout(window: window, side: 4, pointsPerMillimetre: perMillimetre)
        let nine = 9 * perMillimetre
        for button in layout.buttons {
            #expect(button.frame.width >= nine - 0.5 && button.frame.height >= nine - 0.5,
                    "\(button.control) is \(button.frame.width / perMillimetre) × \(button.frame.height / perMillimetre) mm")
            #expect(button.frame.x >= 0 && button.frame.maxX <= window.width)
            #expect(button.frame.y >= 0 && button.frame.maxY < window.height, "no button touches the bottom edge")
        }
    }

    @Test func aLandscapeWindowPutsThePanelBesideTheBoard() {
        let layout = Layout(window: Size(width: 1024, height: 768), side: 4)
        #expect(layout.orientation == .landscape)
        #expect(layout.buttons.allSatisfy { $0.frame.x >= layout.board.maxX })
        // The board takes the height, not a portrait column's width.
        #expect(layout.board.height >= 768 * 0.85)
    }

    @Test func densityFallsBackSensibly() {
        #expect(Layout.pointsPerMillimetre(dpi: nil) == Layout.fallbackPointsPerMillimetre)
        #expect(Layout.pointsPerMillimetre(dpi: 0) == Layout.fallbackPointsPerMillimetre)
        #expect(Layout.pointsPerMillimetre(dpi: 5000) == Layout.fallbackPointsPerMillimetre)
        #expect(abs(Layout.pointsPerMillimetre(dpi: 254, pixelsPerPoint: 2) - 5) < 1e-9)
    }
}
