// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TestSupport
import TiltClient
import TiltCore
import TiltGUI
import TiltWire

/// The window itself on a virtual X display with no window manager: full screen covers
/// the screen and f toggles it; the first-start card shows once, until a tap.
@Suite(.serialized) struct WindowOnVirtualDisplayTests {
    /// The window's place and size, as the X server has them.
    static func geometry(_ display: VirtualDisplay, _ window: String) throws -> (x: Int, y: Int, width: Int, height: Int) {
        let shell = try display.run("xdotool", package: "xdotool", ["getwindowgeometry", "--shell", window])
        var values: [String: Int] = [:]
        for line in shell.split(separator: "\n") {
            let parts = line.split(separator: "=")
            if parts.count == 2 { values[String(parts[0])] = Int(parts[1]) }
        }
        return (values["X"] ?? -1, values["Y"] ?? -1, values["WIDTH"] ?? 0, values["HEIGHT"] ?? 0)
    }

    static func waitForGeometry(_ display: VirtualDisplay, _ window: String,
                                _ check: ((x: Int, y: Int, width: Int, height: Int)) -> Bool) throws -> (x: Int, y: Int, width: Int, height: Int) {
        var found = try geometry(display, window)
        for _ in 0..<50 where !check(found) {
            Thread.sleep(forTimeInterval: 0.1)
            found = try geometry(display, window)
        }
        return found
    }

    @Test func fullScreenCoversTheScreenWithoutAWindowManagerAndFToggles() throws {
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(directory: directory)
        defer { daemon.terminate() }
        let display = try VirtualDisplay(directory: directory)   // 1024×768, and nothing manages windows
        let gui = try GUIProcess(display: display, directory: directory, arguments: ["--socket", daemon.socketPath, "--fullscreen"])
        let window = try display.waitForWindow(named: "tiltpuzzle")
        let covers = { (g: (x: Int, y: Int, width: Int, height: Int)) in g.x == 0 && g.y == 0 && g.width == 1024 && g.height == 768 }
        let full = try Self.waitForGeometry(display, window, covers)
        #expect(covers(full), "--fullscreen covers the whole screen: \(full)")
        // And draws there: the board of a 1024×768 layout.
        let state = try GUIOnVirtualDisplayTests.state(after: .state, on: try DaemonConnection(candidates: [daemon.socketPath]))
        let picture = BoardPicture(layout: Layout(window: Size(width: 1024, height: 768), side: state.size))
        var problems: [String] = []
        for _ in 0..<50 {
            problems = picture.mismatches(try display.screenshot(window: window, file: directory.path + "/shot.xwd"), state)
            if problems.isEmpty { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(problems.isEmpty, "the board is drawn for the whole screen: \(problems)")

        try display.key("f", window: window)
        let windowed = try Self.waitForGeometry(display, window) { $0.width == 640 && $0.height == 800 }
        #expect(windowed.width == 640 && windowed.height == 800, "f leaves full screen for the window's own size: \(windowed)")
        try display.key("f", window: window)
        let again = try Self.waitForGeometry(display, window, covers)
        #expect(covers(again), "f goes full screen again: \(again)")
        try display.key("q", window: window)
        #expect(gui.waitForExit() == 0, "q quits: \(gui.output)")
    }

    @Test func theFirstStartCardShowsOnceUntilATap() throws {
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(directory: directory)
        defer { daemon.terminate() }
        let display = try VirtualDisplay(directory: directory)
        let stateHome = directory.path + "/fresh-state"
        let marker = stateHome + "/tiltpuzzle/welcomed"
        let arguments = ["--socket", daemon.socketPath, "--window", "480x600"]
        let whole = Rect(x: 0, y: 0, width: 480, height: 600)
        // The card's green "Tap anywhere to play"; nothing else is that green without a sensor.
        let cardShown = { (shot: Screenshot) in shot.count(of: Palette.gaugeArmed, in: whole, tolerance: 6, step: 4) > 200 }

        var gui = try GUIProcess(display: display, directory: directory, arguments: arguments, stateHome: stateHome)
        var window = try display.waitForWindow(named: "tiltpuzzle")
        var shown = false
        for _ in 0..<50 where !shown {
            Thread.sleep(forTimeInterval: 0.1)
            shown = cardShown(try display.screenshot(window: window, file: directory.path + "/shot.xwd"))
        }
        #expect(shown, "the first start shows how to play")
        #expect(!FileManager.default.fileExists(atPath: marker))
        try display.click(window: window, x: 240, y: 300)
        var gone = false
        for _ in 0..<50 where !gone {
            Thread.sleep(forTimeInterval: 0.1)
            gone = !cardShown(try display.screenshot(window: window, file: directory.path + "/shot.xwd"))
        }
        #expect(gone, "a tap puts the card away")
        #expect(FileManager.default.fileExists(atPath: marker), "and it is remembered in $XDG_STATE_HOME")
        try display.key("q", window: window)
        _ = gui.waitForExit()

        gui = try GUIProcess(display: display, directory: directory, arguments: arguments, stateHome: stateHome)
        window = try display.waitForWindow(named: "tiltpuzzle")
        let state = try GUIOnVirtualDisplayTests.state(after: .state, on: try DaemonConnection(candidates: [daemon.socketPath]))
        let picture = BoardPicture(layout: Layout(window: Size(width: 480, height: 600), side: state.size))
        var board = false
        for _ in 0..<50 where !board {
            Thread.sleep(forTimeInterval: 0.1)
            board = picture.mismatches(try display.screenshot(window: window, file: directory.path + "/shot.xwd"), state).isEmpty
        }
        #expect(board, "the second start shows the board, no card")
        try display.key("q", window: window)
        #expect(gui.waitForExit() == 0, "q quits: \(gui.output)")
    }
}
