// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TestSupport
import TiltClient
import TiltCore
import TiltGUI
import TiltWire

/// The built window on a virtual X display, answered by taps as on a tablet: New asks
/// before a game is lost, the size is chosen by touch, the solved panel hides the
/// board under it, and a file that is no font is refused.
@Suite(.serialized) struct TouchBoardOnVirtualDisplayTests {
    static let window = Size(width: 480, height: 600)

    struct Session {
        let directory = TemporaryDirectory()
        let daemon: DaemonProcess
        let display: VirtualDisplay
        let control: DaemonConnection
        var gui: GUIProcess!
        var window = ""

        init() throws {
            daemon = try DaemonProcess(directory: directory)
            display = try VirtualDisplay(directory: directory)
            control = try DaemonConnection(candidates: [daemon.socketPath])
        }

        mutating func open(size: Size = TouchBoardOnVirtualDisplayTests.window) throws {
            gui = try GUIProcess(display: display, directory: directory,
                                 arguments: ["--socket", daemon.socketPath, "--window", "\(Int(size.width))x\(Int(size.height))"])
            window = try display.waitForWindow(named: "tiltpuzzle")
            // Taps count once the window shows the daemon's game.
            let state = try self.state()
            let picture = BoardPicture(layout: Layout(window: size, side: state.size))
            guard try waitFor({ picture.mismatches($0, state).isEmpty }) else { throw TestFailure("the window never showed the game") }
        }

        func tap(_ rect: Rect) throws { try display.click(window: window, x: rect.center.x, y: rect.center.y) }

        func shot() throws -> Screenshot { try display.screenshot(window: window, file: directory.path + "/shot.xwd") }

        func state() throws -> GameState { try GUIOnVirtualDisplayTests.state(after: .state, on: control) }

        /// Screenshots until `check` holds (the window draws a little after the tap), up to 5 s.
        func waitFor(_ check: (Screenshot) -> Bool) throws -> Bool {
            for _ in 0..<50 {
                if check(try shot()) { return true }
                Thread.sleep(forTimeInterval: 0.1)
            }
            return false
        }

        func quit() {
            try? display.key("Escape", window: window)
            _ = gui?.waitForExit()
            daemon.terminate()
        }
    }

    static let layout = Layout(window: window, side: 4)
    static let dialog = NewGameDialog.frames(in: layout)

    /// The same game at the same point (its clock may have moved on).
    static func same(_ a: GameState, _ b: GameState) -> Bool {
        a.revision == b.revision && a.size == b.size && a.board == b.board && a.moves == b.moves
    }

    static func button(_ control: Control) -> Rect { layout.buttons.first { $0.control == control }!.frame }

    /// The dialog is up: its opaque panel where the board's middle was, its green Start button.
    static func showsDialog(_ shot: Screenshot) -> Bool {
        shot.pixel(at: Point(x: dialog.panel.x + 4, y: dialog.panel.y + 4)).isClose(to: Palette.bannerBackground)
            && shot.pixel(at: Point(x: dialog.start.x + 3, y: dialog.start.y + 3)).isClose(to: Palette.gaugeArmed)
    }

    @Test func newDuringAGameAsksNoKeepsItYesStartsOne() throws {
        var session = try Session()
        defer { session.quit() }
        _ = try session.control.request(.new(size: 4, seed: 3, shuffle: true))
        let legal = GUIOnVirtualDisplayTests.legalTilt(try session.state())
        _ = try session.control.request(.tilt(legal))
        let playing = try session.state()
        #expect(playing.moves == 1)
        try session.open()

        try session.tap(Self.button(.newGame))
        #expect(try session.waitFor(Self.showsDialog), "New during a game asks first")
        #expect(Self.same(try session.state(), playing), "asking changed nothing")

        try session.tap(Self.dialog.cancel)
        #expect(try session.waitFor { BoardPicture(layout: Self.layout).mismatches($0, playing).isEmpty },
                "Keep playing puts the question away and shows the same board")
        #expect(Self.same(try session.state(), playing), "No keeps the game")

        try session.tap(Self.button(.newGame))
        #expect(try session.waitFor(Self.showsDialog))
        try session.tap(Self.dialog.start)
        let started = try GUIOnVirtualDisplayTests.waitForChange(from: playing, on: session.control)
        #expect(started.moves == 0 && started.size == 4 && started.board != playing.board, "Yes starts a new game of the size")
        #expect(try session.waitFor { !Self.showsDialog($0) })

        // A game not yet moved starts over at once: no question.
        try session.display.key("n", window: session.window)
        let again = try GUIOnVirtualDisplayTests.waitForChange(from: started, on: session.control)
        #expect(again.moves == 0)
        #expect(!Self.showsDialog(try session.shot()))
    }

    @Test func theSizeIsChosenByTouchAndTheCurrentOneIsShown() throws {
        var session = try Session()
        defer { session.quit() }
        _ = try session.control.request(.new(size: 4, seed: 3, shuffle: true))
        let before = try session.state()
        try session.open()

        try session.tap(Self.button(.size))
        #expect(try session.waitFor(Self.showsDialog), "the size button opens the choice")
        let current = Self.dialog.sizes.first { $0.size == 4 }!.frame
        let other = Self.dialog.sizes.first { $0.size == 6 }!.frame
        let shot = try session.shot()
        #expect(shot.pixel(at: Point(x: current.x + 3, y: current.y + 3)).isClose(to: Palette.hintTile), "4×4, the current size, is lit")
        #expect(shot.pixel(at: Point(x: other.x + 3, y: other.y + 3)).isClose(to: Palette.button))

        try session.tap(other)
        #expect(try session.waitFor { $0.pixel(at: Point(x: other.x + 3, y: other.y + 3)).isClose(to: Palette.hintTile) },
                "the tapped size is lit")
        #expect(Self.same(try session.state(), before), "choosing a size alone starts nothing")
        try session.tap(Self.dialog.start)
        let started = try GUIOnVirtualDisplayTests.waitForChange(from: before, on: session.control)
        #expect(started.size == 6, "Start began a 6×6 game")
    }

    @Test func theSolvedPanelIsOpaque() throws {
        var session = try Session()
        defer { session.quit() }
        _ = try session.control.request(.new(size: 3, seed: nil, shuffle: false))
        _ = try session.control.request(.tilt(.right))
        try session.open()
        let layout = Layout(window: Self.window, side: 3)
        // The solving tilt: the tile back left into the corner.
        try session.display.key("Left", window: session.window)
        // The panel's strips beside its text lie over tiles: nothing of them may show through.
        let board = layout.board
        let panel = Rect(x: board.x + board.width * 0.06, y: board.y + board.height * 0.2,
                         width: board.width * 0.88, height: board.height * 0.6)
        let strips = [Rect(x: panel.x + 1, y: panel.y + 1, width: panel.height / 5 * 0.25, height: panel.height - 2),
                      Rect(x: panel.maxX - 1 - panel.height / 5 * 0.25, y: panel.y + 1, width: panel.height / 5 * 0.25,
                           height: panel.height - 2)]
        let area = strips.map { (Int($0.maxX) - Int($0.x)) * (Int($0.maxY) - Int($0.y)) }.reduce(0, +)
        var covered = 0
        _ = try session.waitFor { shot in
            covered = strips.map { shot.count(of: Palette.bannerBackground, in: $0, tolerance: 3) }.reduce(0, +)
            return covered == area
        }
        #expect(covered == area, "\(area - covered) pixels of the board show through the solved panel")
    }

    @Test(arguments: ["/etc/passwd", "/tmp"])
    func aFileThatIsNoFontIsAnErrorNamingIt(font: String) throws {
        let directory = TemporaryDirectory()
        let display = try VirtualDisplay(directory: directory)
        let gui = try GUIProcess(display: display, directory: directory, arguments: ["--socket", directory.path + "/none", "--font", font])
        #expect(gui.waitForExit() == 65, "a font that cannot be read exits 65 (data error): \(gui.output)")
        #expect(gui.output.contains("tiltpuzzle-gui: cannot read the font \(font)"), "\(gui.output)")
    }
}
