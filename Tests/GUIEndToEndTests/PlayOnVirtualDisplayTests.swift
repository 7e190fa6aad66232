// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TestSupport
import TiltClient
import TiltCore
import TiltGUI
import TiltWire

/// The built window on a virtual X display for the playing aids of docs/gui.md: a
/// landscape window lays the board and the panel side by side, the gauge shows the
/// detector's view, the sensitivity button reconfigures the daemon, and a solve is
/// celebrated.
@Suite(.serialized) struct PlayOnVirtualDisplayTests {
    /// A 100 Hz trace: flat for half a second, then held 13° right and 5° up for a minute.
    static func heldTrace() -> String {
        var lines = ["# tiltpuzzle trace v1", "t,x,y,z"]
        let g = standardGravity
        for k in 0..<6000 {
            let t = Double(k) / 100
            let f = min(1, max(0, (t - 0.5) / 0.5))
            let sx = -TiltDetector.sine(degrees: 13 * f), sy = -TiltDetector.sine(degrees: 5 * f)
            let z = (1 - sx * sx - sy * sy).squareRoot()
            lines.append(String(format: "%.2f,%.4f,%.4f,%.4f", t, sx * g, sy * g, z * g))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func landscapeShowsTheBoardBesideThePanelWithAnArmedGaugeAndTheSensitivityButtonWorks() throws {
        let directory = TemporaryDirectory()
        let trace = directory.path + "/held.csv"
        try Self.heldTrace().write(toFile: trace, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(directory: directory, arguments: ["--source", "replay:" + trace])
        defer { daemon.terminate() }
        let display = try VirtualDisplay(directory: directory)
        let control = try DaemonConnection(candidates: [daemon.socketPath])
        _ = try control.request(.new(size: 4, seed: 7, shuffle: true))
        let size = Size(width: 1024, height: 768)
        let gui = try GUIProcess(display: display, directory: directory,
                                 arguments: ["--socket", daemon.socketPath, "--window", "1024x768"])
        let window = try display.waitForWindow(named: "tiltpuzzle")
        let layout = Layout(window: size, side: 4)
        #expect(layout.orientation == .landscape)

        // The board fills the height at the left; the gauge's bubble is green (armed) and,
        // once the trace holds its tilt, right of and above the centre: the right and top
        // edges are lowered.
        let g = layout.gauge
        let upperRight = Rect(x: g.center.x, y: g.y, width: g.width / 2, height: g.height / 2)
        var bubble = 0
        var bubbleUpperRight = -1
        var boardTiles = 0
        for _ in 0..<50 {
            let shot = try display.screenshot(window: window, file: directory.path + "/shot.xwd")
            bubble = shot.count(of: Palette.gaugeArmed, in: g, tolerance: 30)
            bubbleUpperRight = shot.count(of: Palette.gaugeArmed, in: upperRight, tolerance: 30)
            boardTiles = shot.count(of: Palette.tile, in: layout.board, tolerance: 10)
            if bubble > 20 && bubbleUpperRight == bubble && boardTiles > 0 { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(boardTiles > Int(layout.board.width * layout.board.height * 0.5), "the board's tiles fill the left")
        #expect(bubble > 20, "the gauge's bubble is green: armed")
        #expect(bubbleUpperRight == bubble, "the bubble is where the tablet is lowered")

        // The sensitivity button: normal → firm, at the daemon, for every client.
        let button = try #require(layout.buttons.first { $0.control == .sensitivity })
        try display.click(window: window, x: button.frame.center.x, y: button.frame.center.y)
        var settings: Sensitivity?
        while settings == nil, let message = try control.next(timeout: 5) {
            if case .settings(let s) = message, s != Sensitivity.Preset.normal.sensitivity { settings = s }
        }
        #expect(settings == Sensitivity.Preset.firm.sensitivity)
        try display.key("q", window: window)
        #expect(gui.waitForExit() == 0, "q quits: \(gui.output)")
    }

    @Test func aSolveIsCelebrated() throws {
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(directory: directory)
        defer { daemon.terminate() }
        let display = try VirtualDisplay(directory: directory)
        let control = try DaemonConnection(candidates: [daemon.socketPath])
        // A game that began one tilt from solved: one that began solved sets no record.
        let nearlySolved = try Board(cells: [0, 1, 2, 3, 4, 5, 6, 8, 7])
        _ = try control.request(.new(size: nil, seed: nil, shuffle: false, board: nearlySolved))
        let gui = try GUIProcess(display: display, directory: directory,
                                 arguments: ["--socket", daemon.socketPath, "--window", "480x600"])
        let window = try display.waitForWindow(named: "tiltpuzzle")
        let layout = Layout(window: Size(width: 480, height: 600), side: 3)
        Thread.sleep(forTimeInterval: 0.5)
        try display.key("Left", window: window)
        // The first solve of a size sets both records: the title is in the record colour.
        var title = 0
        for _ in 0..<50 where title == 0 {
            Thread.sleep(forTimeInterval: 0.1)
            let shot = try display.screenshot(window: window, file: directory.path + "/shot.xwd")
            title = shot.count(of: Palette.gaugeFired, in: layout.board, tolerance: 30)
        }
        #expect(title > 50, "the solved panel's title shows, in the record colour")
        try display.key("q", window: window)
        #expect(gui.waitForExit() == 0, "q quits: \(gui.output)")
    }
}
