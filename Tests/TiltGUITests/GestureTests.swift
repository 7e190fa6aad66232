// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltClient
import TiltCore
import TiltGUI
import TiltWire

@Suite struct GestureTests {
    /// 4×4 with the gap at 5 (row 1, column 1).
    let layout = Layout(window: Size(width: 640, height: 800), side: 4)
    let empty = 5

    func gesture(from start: Int, by offset: (x: Double, y: Double) = (0, 0), pointer: Int64 = 1) -> GestureRecognizer.Outcome? {
        var recognizer = GestureRecognizer()
        let point = layout.cell(start).center
        recognizer.pointerDown(pointer, at: point)
        let end = Point(x: point.x + offset.x * layout.cellSize, y: point.y + offset.y * layout.cellSize)
        return recognizer.pointerUp(pointer, at: end, layout: layout, empty: empty)
    }

    @Test(arguments: [4, 6, 7, 1, 9, 13])
    func aTapInTheGapsRowOrColumnSlides(index: Int) {
        #expect(gesture(from: index) == .command(.slide(index: index)))
    }

    /// Out of the gap's row and column no slide can start: the tile is told it cannot
    /// move (it shakes, the bump sounds), and nothing goes to the daemon.
    @Test(arguments: [0, 2, 10, 15])
    func aTapElsewhereCannotMove(index: Int) {
        #expect(gesture(from: index) == .cannotMove(index: index))
    }

    @Test func aTapOffTheBoardDoesNothing() {
        var recognizer = GestureRecognizer()
        let below = Point(x: layout.board.center.x, y: layout.board.y + layout.board.height + 2)
        #expect(layout.cellIndex(at: below) == nil && layout.control(at: below) == nil)
        recognizer.pointerDown(1, at: below)
        #expect(recognizer.pointerUp(1, at: below, layout: layout, empty: empty) == nil)
    }

    @Test func aTapOnTheGapDoesNothing() {
        #expect(gesture(from: empty) == nil)
        #expect(gesture(from: empty, by: (1, 0)) == nil)
    }

    @Test(arguments: [((1.0, 0.0), Direction.right), ((-0.5, 0.1), .left), ((0.1, 0.6), .down), ((-0.2, -0.9), .up)])
    func aSwipeOnATileMovesItThatWay(offset: (Double, Double), direction: Direction) {
        // Any tile may be swiped; the daemon says whether it can go.
        #expect(gesture(from: 10, by: offset) == .command(.move(index: 10, direction: direction)))
        #expect(gesture(from: 4, by: offset) == .command(.move(index: 4, direction: direction)))
    }

    @Test func aShortDragIsStillATap() {
        let below = GestureRecognizer.swipeThreshold * 0.9
        #expect(gesture(from: 6, by: (below, below)) == .command(.slide(index: 6)))
    }

    @Test func aSecondFingerIsIgnored() {
        var recognizer = GestureRecognizer()
        recognizer.pointerDown(1, at: layout.cell(6).center)
        recognizer.pointerDown(2, at: layout.cell(0).center)
        #expect(recognizer.pointerUp(2, at: layout.cell(0).center, layout: layout, empty: empty) == nil)
        #expect(recognizer.pointerUp(1, at: layout.cell(6).center, layout: layout, empty: empty) == .command(.slide(index: 6)))
    }

    @Test func aCancelledPressDoesNothing() {
        var recognizer = GestureRecognizer()
        recognizer.pointerDown(1, at: layout.cell(6).center)
        recognizer.cancel()
        #expect(recognizer.pointerUp(1, at: layout.cell(6).center, layout: layout, empty: empty) == nil)
    }

    @Test func buttonsAreTappedWhereTheyArePressedAndReleased() {
        var recognizer = GestureRecognizer()
        for button in layout.buttons {
            recognizer.pointerDown(-1, at: button.frame.center)
            #expect(recognizer.pointerUp(-1, at: button.frame.center, layout: layout, empty: empty) == .control(button.control))
        }
        // Sliding off a button cancels it, as on any touch screen.
        recognizer.pointerDown(-1, at: layout.buttons[0].frame.center)
        #expect(recognizer.pointerUp(-1, at: layout.board.center, layout: layout, empty: empty) == nil)
    }

    @Test func withoutABoardTapsDoNothing() {
        var recognizer = GestureRecognizer()
        recognizer.pointerDown(1, at: layout.cell(6).center)
        #expect(recognizer.pointerUp(1, at: layout.cell(6).center, layout: layout, empty: nil) == nil)
    }
}

@Suite struct KeyTests {
    @Test func keysMapToActions() {
        #expect(UserAction(key: .arrow(.left)) == .send(.tilt(.left)))
        #expect(UserAction(key: .character("u")) == .send(.undo))
        #expect(UserAction(key: .character("R")) == .send(.redo))
        #expect(UserAction(key: .character("n")) == .newGame, "New may ask first (NewGameDialog)")
        #expect(UserAction(key: .character("g")) == .chooseSize)
        #expect(UserAction(key: .enter) == nil)
        #expect(UserAction(key: .character("c")) == .send(.calibrate))
        #expect(UserAction(key: .character("q")) == .quit)
        #expect(UserAction(key: .escape) == .quit)
        #expect(UserAction(key: .character("f")) == .toggleFullscreen)
        #expect(UserAction(key: .character("m")) == .toggleSound)
        #expect(UserAction(key: .character("x")) == nil)
        #expect(UserAction(key: .other) == nil)
    }

    @Test func everyButtonHasAKeyThatDoesTheSame() {
        let keys: [Control: Character] = [.undo: "u", .redo: "r", .newGame: "n", .size: "g", .calibrate: "c", .sensitivity: "s",
                                          .hint: "h", .picture: "p", .peek: "v", .quit: "q"]
        for control in Control.allCases {
            #expect(UserAction(key: .character(keys[control]!)) == UserAction(control: control))
            #expect(control.label.contains("(\(keys[control]!))"))
        }
    }
}
