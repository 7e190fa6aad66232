// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltClient
import TiltCore
import TiltGUI
import TiltWire

@Suite struct InputRouterTests {
    /// 4×4 with the gap at 5 (row 1, column 1).
    let layout = Layout(window: Size(width: 640, height: 800), side: 4)
    let board = InputRouter.Layer.board(empty: 5, peeking: false)

    /// A press and a release at `from` and `to` (`to` defaults to the same point).
    func tap(_ router: inout InputRouter, _ from: Point, to: Point? = nil, on layer: InputRouter.Layer) -> InputRouter.Routed? {
        #expect(router.route(.pointerDown(1, from), to: layer, layout: layout) == nil, "a press alone does nothing")
        return router.route(.pointerUp(1, to ?? from), to: layer, layout: layout)
    }

    func button(_ control: Control) -> Point { layout.buttons.first { $0.control == control }!.frame.center }

    @Test func theCardTakesEveryTapAndKeyUntilOnePutsItAway() {
        var router = InputRouter()
        #expect(router.route(.key(.other), to: .welcome, layout: layout) == nil)
        #expect(router.route(.key(.character("u")), to: .welcome, layout: layout) == .welcomed)
        // A tap on a button under the card only puts the card away.
        #expect(tap(&router, button(.undo), on: .welcome) == .welcomed)
        // The finger that put the card away is not the start of a gesture on the board.
        #expect(router.route(.pointerDown(1, layout.cell(4).center), to: .welcome, layout: layout) == nil)
        #expect(router.route(.pointerUp(1, layout.cell(4).center), to: board, layout: layout) == nil)
    }

    @Test func thePickerTakesTapsOnItsPartsAndEveryKey() {
        let picker = PicturePicker(builtIns: BuiltInPictures.all.map(\.name), files: [], settings: GUISettings())
        let frames = picker.frames(in: layout)
        let layer = InputRouter.Layer.picker(picker)
        var router = InputRouter()
        let second = frames.thumbnails[1]
        #expect(tap(&router, second.frame.center, on: layer) == .picker(.entry(second.index)))
        #expect(tap(&router, frames.close.center, on: layer) == .picker(.close))
        #expect(tap(&router, frames.sound.center, on: layer) == .picker(.sound))
        // Down on one thumbnail, up on another: nothing.
        #expect(tap(&router, second.frame.center, to: frames.thumbnails[2].frame.center, on: layer) == nil)
        #expect(router.route(.key(.arrow(.right)), to: layer, layout: layout) == .pickerKey(.arrow(.right)))
        // The board's keys are the picker's while it is up.
        #expect(router.route(.key(.character("u")), to: layer, layout: layout) == .pickerKey(.character("u")))
    }

    @Test func newsQuestionTakesItsAnswersByTapAndKey() {
        let frames = NewGameDialog.frames(in: layout)
        var router = InputRouter()
        #expect(tap(&router, frames.start.center, on: .dialog) == .dialog(.start))
        #expect(tap(&router, frames.cancel.center, on: .dialog) == .dialog(.cancel))
        #expect(tap(&router, frames.sizes[2].frame.center, on: .dialog) == .dialog(.size(frames.sizes[2].size)))
        #expect(tap(&router, frames.start.center, to: frames.cancel.center, on: .dialog) == nil)
        #expect(router.route(.key(.character("y")), to: .dialog, layout: layout) == .dialog(.start))
        #expect(router.route(.key(.character("u")), to: .dialog, layout: layout) == nil, "undo waits for the answer")
    }

    @Test func theBoardTakesKeysButtonsAndTiles() {
        var router = InputRouter()
        #expect(router.route(.key(.character("u")), to: board, layout: layout) == .action(.send(.undo)))
        #expect(router.route(.key(.character("v")), to: board, layout: layout) == .action(.peek))
        #expect(tap(&router, button(.picture), on: board) == .action(.choosePicture))
        #expect(tap(&router, layout.cell(4).center, on: board) == .action(.send(.slide(index: 4))))
        #expect(tap(&router, layout.cell(0).center, on: board) == .cannotMove(index: 0))
        let swipe = Point(x: layout.cell(4).center.x + layout.cellSize, y: layout.cell(4).center.y)
        #expect(tap(&router, layout.cell(4).center, to: swipe, on: board) == .action(.send(.move(index: 4, direction: .right))))
    }

    /// Under the whole picture the tiles cannot be seen: a touch there ends the peek,
    /// and moves nothing; the buttons and keys still work.
    @Test func aTouchOnTheHiddenTilesEndsThePeek() {
        var router = InputRouter()
        let peeking = InputRouter.Layer.board(empty: 5, peeking: true)
        #expect(tap(&router, layout.cell(4).center, on: peeking) == .endPeek)
        #expect(tap(&router, layout.cell(0).center, on: peeking) == .endPeek)
        #expect(tap(&router, button(.peek), on: peeking) == .action(.peek))
        #expect(router.route(.key(.arrow(.left)), to: peeking, layout: layout) == .action(.send(.tilt(.left))))
    }

    @Test func aCancelledPressIsForgotten() {
        var router = InputRouter()
        let point = layout.cell(4).center
        #expect(router.route(.pointerDown(1, point), to: board, layout: layout) == nil)
        #expect(router.route(.pointerCancel, to: board, layout: layout) == nil)
        #expect(router.route(.pointerUp(1, point), to: board, layout: layout) == nil)
        let frames = NewGameDialog.frames(in: layout)
        #expect(router.route(.pointerDown(1, frames.start.center), to: .dialog, layout: layout) == nil)
        router.forget()
        #expect(router.route(.pointerUp(1, frames.start.center), to: .dialog, layout: layout) == nil)
    }
}
