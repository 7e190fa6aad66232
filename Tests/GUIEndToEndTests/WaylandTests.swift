// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TestSupport
import TiltClient
import TiltCore
import TiltGUI
import TiltWire
#if canImport(Glibc)
import Glibc
#endif

/// The board as a native Wayland client, started the way a desktop starts it: sway
/// runs the desktop entry's Exec line. It must be an xdg_shell window with the entry's
/// id as its app id, show the daemon's board, and take keys typed through the compositor.
@Suite(.serialized) struct WaylandTests {
    static let output = (width: 1280, height: 800)

    /// The desktop entry's Exec line, as the repository ships it (its template: the build
    /// merges only the translations in).
    static func execLine() throws -> String {
        let entry = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("desktop/\(AppIdentity.id).desktop.in"), encoding: .utf8)
        guard let line = entry.split(separator: "\n").first(where: { $0.hasPrefix("Exec=") }) else {
            throw TestFailure("the desktop entry has no Exec line")
        }
        return String(line.dropFirst("Exec=".count))
    }

    @Test func startsFromTheDesktopEntryAsAnXDGShellWindowAndPlays() throws {
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(directory: directory)
        defer { daemon.terminate() }
        let control = try DaemonConnection(candidates: [daemon.socketPath])
        var state = try GUIOnVirtualDisplayTests.state(after: .new(size: 4, seed: 11, shuffle: true), on: control)
        let compositor = try Self.compositor(for: daemon, in: directory)
        // The keys come from one virtual keyboard that exists before the window and
        // waits before it types (a tilt, and q): a keyboard that exists only for its own
        // key races the window (docs/gui.md, "Keys on Wayland").
        let tilt = GUIOnVirtualDisplayTests.legalTilt(state)
        let typist = try compositor.start("wtype", package: "wtype",
                                          ["-s", "8000", "-k", GUIOnVirtualDisplayTests.keyName(tilt), "-s", "3000", "-k", "q"])
        defer { VirtualDisplay.kill(typist) }
        try compositor.run("swaymsg", package: "sway", ["exec", try Self.execLine()])

        var views: [Compositor.View] = []
        for _ in 0..<100 where views.isEmpty {
            usleep(100_000)
            views = try compositor.views().filter { $0.appID == AppIdentity.id }
        }
        guard let view = views.first else {
            Issue.record("no window with app id \(AppIdentity.id): \(try compositor.views())\n\(compositor.log)")
            return
        }
        #expect(view.shell == "xdg_shell", "a native Wayland window, not \(view.shell ?? "none")")
        #expect(view.rect.width > 0 && view.rect.height > 0)

        let picture = BoardPicture(layout: Layout(window: Size(width: Double(view.rect.width), height: Double(view.rect.height)),
                                                  side: 4))
        try expectShown(state, picture, compositor, view)

        #expect(typist.isRunning, "the board was shown before the keys were typed")
        var expected = Board(side: 4, cells: state.board)!
        expected.tilt(tilt)
        state = try GUIOnVirtualDisplayTests.waitForChange(from: state, on: control, timeout: 20)
        #expect(state.board == expected.values, "the arrow key typed through the compositor tilted \(tilt)")
        try expectShown(state, picture, compositor, view)

        var gone = false
        for _ in 0..<100 where !gone {
            usleep(100_000)
            gone = try compositor.views().allSatisfy { $0.appID != AppIdentity.id }
        }
        #expect(gone, "q closes the window")
    }

    func expectShown(_ state: GameState, _ picture: BoardPicture, _ compositor: Compositor, _ view: Compositor.View,
                     sourceLocation: SourceLocation = #_sourceLocation) throws {
        var problems: [String] = []
        for _ in 0..<50 {
            let shot = try compositor.screenshot(view, file: compositor.directory.path + "/shot.ppm")
            problems = picture.mismatches(shot, state)
            if problems.isEmpty { return }
            usleep(100_000)
        }
        if let keep = ProcessInfo.processInfo.environment["TILTPUZZLE_WAYLAND_SCREENSHOT"] {
            try? FileManager.default.removeItem(atPath: keep)
            try? FileManager.default.copyItem(atPath: compositor.directory.path + "/shot.ppm", toPath: keep)
        }
        Issue.record("the compositor's picture does not show board \(state.board): \(problems)", sourceLocation: sourceLocation)
    }
}
