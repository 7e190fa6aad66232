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

/// The board follows its output (docs/gui.md, "Rotation"): sway turns the output while
/// the board runs, and the daemon, asked by another client, reads tilts for the turned
/// picture; the board is drawn upright on the output in each transform.
@Suite(.serialized) struct RotationOnWaylandTests {
    @Test func turningTheOutputTurnsTheDaemonsTiltsAndTheBoardStaysUpright() throws {
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(directory: directory)
        defer { daemon.terminate() }
        let control = try DaemonConnection(candidates: [daemon.socketPath])
        let state = try GUIOnVirtualDisplayTests.state(after: .new(size: 4, seed: 23, shuffle: true), on: control)
        let compositor = try WaylandTests.compositor(for: daemon, in: directory)
        // Another client hears what the board tells the daemon.
        let watcher = try TestClient(path: daemon.socketPath)
        #expect(watcher.greeting() != nil)
        try compositor.run("swaymsg", package: "sway", ["exec", try WaylandTests.execLine()])
        let upright = try view(in: compositor)
        try expectUpright(state, compositor, upright)

        for (transform, degrees) in [("90", 90), ("180", 180), ("270", 270), ("normal", 0)] {
            try compositor.run("swaymsg", package: "sway", ["output", "HEADLESS-1", "transform", transform])
            let told = watcher.read(until: { $0["type"] as? String == "screen" }, timeout: 15).last
            #expect(told?["rotation"] as? Int == degrees, "transform \(transform): \(String(describing: told))\n\(compositor.log.split(separator: "\n").filter { $0.contains("DEBUG") })")
            var turned = try view(in: compositor)
            // The output's logical size turns with it; the window follows once it is told.
            let portrait = degrees % 180 != 0
            for _ in 0..<50 where (turned.rect.height > turned.rect.width) != portrait {
                usleep(100_000)
                turned = try view(in: compositor)
            }
            #expect((turned.rect.height > turned.rect.width) == portrait, "transform \(transform): the window is \(turned.rect)")
            try expectUpright(state, compositor, turned)
        }
    }

    func view(in compositor: Compositor) throws -> Compositor.View {
        guard let view = try WaylandTests.window(on: compositor) else {
            throw TestFailure("no window with app id \(AppIdentity.id)\n\(compositor.log)")
        }
        return view
    }

    /// The compositor's picture of the window shows the board as the daemon has it,
    /// upright: the tiles read in order from the top left, as the layout puts them.
    func expectUpright(_ state: GameState, _ compositor: Compositor, _ view: Compositor.View,
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        let picture = BoardPicture(layout: Layout(window: Size(width: Double(view.rect.width), height: Double(view.rect.height)),
                                                  side: 4))
        var problems: [String] = []
        for _ in 0..<50 {
            let shot = try compositor.screenshot(view, file: compositor.directory.path + "/turned.ppm")
            problems = picture.mismatches(shot, state)
            if problems.isEmpty { return }
            usleep(100_000)
        }
        Issue.record("the board is not shown upright in \(view.rect): \(problems)", sourceLocation: sourceLocation)
    }
}
