// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TestSupport
import TiltClient
import TiltCore
import TiltGUI
import TiltWire

/// The built window on a virtual X display: the hint key makes the tile to slide glow.
@Suite(.serialized) struct HintOnVirtualDisplayTests {
    @Test func theHintKeyMakesTheTileToSlideGlow() throws {
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(directory: directory)
        defer { daemon.terminate() }
        let display = try VirtualDisplay(directory: directory)
        let control = try DaemonConnection(candidates: [daemon.socketPath])
        // One tilt from solved: the tile labelled 8, now in the bottom-right cell, slides back left.
        _ = try control.request(.new(size: 3, seed: nil, shuffle: false))
        _ = try control.request(.tilt(.right))
        let gui = try GUIProcess(display: display, directory: directory,
                                 arguments: ["--socket", daemon.socketPath, "--window", "480x600"])
        let window = try display.waitForWindow(named: "tiltpuzzle")
        let layout = Layout(window: Size(width: 480, height: 600), side: 3)
        let hinted = layout.tile(row: 2, column: 2).insetBy(-layout.cellSize * 0.04)
        Thread.sleep(forTimeInterval: 0.5)
        var before = try display.screenshot(window: window, file: directory.path + "/shot.xwd")
        #expect(before.count(of: Palette.hintGlow, in: layout.board, tolerance: 20) == 0)
        try display.key("h", window: window)
        var glow = 0
        for _ in 0..<50 where glow == 0 {
            Thread.sleep(forTimeInterval: 0.1)
            before = try display.screenshot(window: window, file: directory.path + "/shot.xwd")
            glow = before.count(of: Palette.hintGlow, in: hinted, tolerance: 20)
        }
        #expect(glow > 50, "a glow around the tile to slide")
        // Only that tile glows.
        let elsewhere = layout.tile(row: 0, column: 0).insetBy(-layout.cellSize * 0.04)
        #expect(before.count(of: Palette.hintGlow, in: elsewhere, tolerance: 20) == 0)
        try display.key("q", window: window)
        #expect(gui.waitForExit() == 0, "q quits: \(gui.output)")
    }
}
