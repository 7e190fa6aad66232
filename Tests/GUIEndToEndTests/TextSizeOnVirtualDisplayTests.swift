// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TestSupport
import TiltClient
import TiltCore
import TiltGUI
import TiltWire

/// No text in the window is too small to read (docs/gui.md, Text): measured in the
/// screenshots, from the height of each line of ink in the status lines and on the
/// buttons, with a long hint showing and, in a window with no daemon, the reason.
@Suite(.serialized) struct TextSizeOnVirtualDisplayTests {
    /// The smallest legible line: capitals and digits 16 px tall (2.5 mm at 96 dpi is less).
    static let smallest = 16

    @Test(arguments: [Size(width: 1280, height: 800), Size(width: 800, height: 1280), Size(width: 1920, height: 1200)])
    func everyLineOfTextIsAtLeastSixteenPixelsTall(window: Size) throws {
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(directory: directory)
        defer { daemon.terminate() }
        let display = try VirtualDisplay(directory: directory, screen: "2000x1400x24")
        let control = try DaemonConnection(candidates: [daemon.socketPath])
        _ = try control.request(.new(size: 4, seed: nil, shuffle: false))
        for tilt in [Direction.right, .down, .right] { _ = try control.request(.tilt(tilt)) }
        let size = "\(Int(window.width))x\(Int(window.height))"
        let layout = Layout(window: window, side: 4)

        // With the daemon: a hint in the first status line.
        let playing = try GUIProcess(display: display, directory: directory, arguments: ["--socket", daemon.socketPath, "--window", size])
        let playingWindow = try display.waitForWindow(named: "tiltpuzzle")
        // The key counts once the window shows the game.
        let state = try GUIOnVirtualDisplayTests.state(after: .state, on: control)
        for _ in 0..<50 {
            let shown = try display.screenshot(window: playingWindow, file: directory.path + "/hint.xwd")
            if BoardPicture(layout: layout).mismatches(shown, state).isEmpty { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        var shot = try display.screenshot(window: playingWindow, file: directory.path + "/hint.xwd")
        // A key pressed while the window was still taking its first frame may be lost: pressed again after 3 s.
        for attempt in 0..<90 where shot.count(of: Palette.hintGlow, in: layout.board, tolerance: 20, step: 3) == 0 {
            if attempt % 30 == 0 { try display.key("h", window: playingWindow) }
            Thread.sleep(forTimeInterval: 0.1)
            shot = try display.screenshot(window: playingWindow, file: directory.path + "/hint.xwd")
        }
        #expect(shot.count(of: Palette.hintGlow, in: layout.board, tolerance: 20, step: 3) > 0, "the hint is showing")
        let withHint = Self.lineHeights(shot, layout)
        try display.key("q", window: playingWindow)
        _ = playing.waitForExit()

        // Without one: "connecting…" and why, at length.
        let waiting = try GUIProcess(display: display, directory: directory,
                                     arguments: ["--socket", directory.path + "/no-daemon-here.sock", "--window", size])
        let waitingWindow = try display.waitForWindow(named: "tiltpuzzle")
        Thread.sleep(forTimeInterval: 1)
        let disconnected = Self.lineHeights(try display.screenshot(window: waitingWindow, file: directory.path + "/wait.xwd"), layout)
        try display.key("q", window: waitingWindow)
        _ = waiting.waitForExit()

        let all = withHint + disconnected
        let smallest = all.map(\.height).min() ?? 0
        print("GUI at \(size): smallest line of text \(smallest) px tall (\(all.count) lines measured)")
        #expect(all.count >= 12, "the status lines and the button labels were found: \(all)")
        for line in all where line.height < Self.smallest {
            Issue.record("a line of text \(line.height) px tall in \(line.region) at \(size)")
        }
    }

    struct Line { var region: String; var height: Int }

    /// The lines of ink in the status area and on each button: runs of rows holding a
    /// pixel at least half as far from the area's background as its strongest ink
    /// (the glyphs' edges, half covered, count as their outline).
    static func lineHeights(_ shot: Screenshot, _ layout: Layout) -> [Line] {
        let regions = [("status", layout.status)] + layout.buttons.map { ("\($0.control)", $0.frame.insetBy(2)) }
        return regions.flatMap { name, rect in
            let background = shot.pixel(x: Int(rect.x), y: Int(rect.y))
            let distance = { (color: Color) in
                max(abs(Int(color.red) - Int(background.red)), abs(Int(color.green) - Int(background.green)),
                    abs(Int(color.blue) - Int(background.blue)))
            }
            let rows = Int(rect.y) ..< Int(rect.maxY)
            // Every other column: strokes are wider than that at these sizes, so no row of ink is missed.
            let columns = stride(from: Int(rect.x), to: Int(rect.maxX), by: 2)
            let strongest = rows.map { y in columns.map { distance(shot.pixel(x: $0, y: y)) }.max() ?? 0 }
            let threshold = max(24, (strongest.max() ?? 0) / 2)
            var lines: [Line] = []
            var run = 0
            for ink in strongest.map({ $0 >= threshold }) + [false] {
                if ink { run += 1 } else if run > 0 {
                    lines.append(Line(region: name, height: run))
                    run = 0
                }
            }
            return lines
        }
    }
}
