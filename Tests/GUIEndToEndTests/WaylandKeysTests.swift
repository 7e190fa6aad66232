// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TestSupport
import TiltClient
import TiltCore
import TiltGUI
import TiltSystem
import TiltWire
#if canImport(Glibc)
import Glibc
#endif

/// Arrow keys typed into the board's window through the compositor, as a player types
/// them on a desktop whose seat has a keyboard: each key is a `wtype` run of its own,
/// with a virtual keyboard and a keymap of its own that reach the window with the key.
/// Counted over several runs of the board, each from its start; every key typed must
/// move a tile, and none is typed twice (docs/gui.md, "Keys on Wayland").
extension WaylandTests {
    static let keyRuns = 3
    static let keysPerRun = 2

    @Test func everyArrowKeyTypedThroughTheCompositorMovesATile() throws {
        var moved: [Int] = []
        for _ in 0..<Self.keyRuns { moved.append(try movesFromTypedArrows(Self.keysPerRun)) }
        #expect(moved == Array(repeating: Self.keysPerRun, count: Self.keyRuns),
                "tiles moved per \(Self.keysPerRun) arrow keys typed, in each run: \(moved)")
    }

    /// Starts the board under a compositor of its own, types `count` arrow keys into its
    /// window once it shows the daemon's board, and counts those that moved a tile.
    private func movesFromTypedArrows(_ count: Int) throws -> Int {
        let directory = TestSupport.TemporaryDirectory()
        let daemon = try DaemonProcess(directory: directory)
        defer { daemon.terminate() }
        let control = try DaemonConnection(candidates: [daemon.socketPath])
        var state = try GUIOnVirtualDisplayTests.state(after: .new(size: 4, seed: 11, shuffle: true), on: control)
        let compositor = try Self.compositor(for: daemon, in: directory)
        let keyboard = try compositor.keepKeyboard()
        defer { VirtualDisplay.kill(keyboard) }
        try compositor.run("swaymsg", package: "sway", ["exec", try Self.execLine()])
        guard let view = try Self.window(on: compositor) else {
            Issue.record("no window with app id \(AppIdentity.id): \(try compositor.views())\n\(compositor.log)")
            return 0
        }
        // The daemon's board on the screen: the window is up and connected before any key.
        let picture = BoardPicture(layout: Layout(window: Size(width: Double(view.rect.width), height: Double(view.rect.height)),
                                                  side: 4))
        try expectShown(state, picture, compositor, view)

        var moved = 0
        var tilt = GUIOnVirtualDisplayTests.legalTilt(state)
        for _ in 0..<count {
            try compositor.run("wtype", package: "wtype", ["-k", GUIOnVirtualDisplayTests.keyName(tilt)])
            guard let next = try? GUIOnVirtualDisplayTests.waitForChange(from: state, on: control) else { continue }
            var expected = Board(side: 4, cells: state.board)!
            expected.tilt(tilt)
            #expect(next.board == expected.values, "the arrow key typed through the compositor tilted \(tilt)")
            moved += 1
            state = next
            // Back the way it came: always a legal tilt.
            tilt = tilt.opposite
        }
        return moved
    }

    /// A compositor whose programs find the board where its user may run it, and the
    /// daemon's socket, which that user may open; the first-start card already seen.
    static func compositor(for daemon: DaemonProcess, in directory: TestSupport.TemporaryDirectory) throws -> Compositor {
        // The compositor's user may not read the build folder or the daemon's socket:
        // the board is copied where it can run it, as an installation would put it.
        let bin = directory.path + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        // Written through a close-on-exec descriptor: a program another test starts meanwhile
        // must not inherit it open for writing, or running the copy fails with "Text file busy".
        let program = try TiltSystem.FileDescriptor.readAll(BuiltProducts.url("tiltpuzzle-gui").path, limit: 1 << 30)
        let copy = try TiltSystem.FileDescriptor.open(bin + "/tiltpuzzle-gui", [.writeOnly, .create, .truncate], permissions: 0o755)
        defer { try? copy.close() }
        try copy.writeAll(program)
        chmod(daemon.socketPath, 0o666)
        return try Compositor(directory: directory, size: output, path: bin, extraEnvironment: [
            "TILTPUZZLE_SOCKET": daemon.socketPath, "XDG_STATE_HOME": GUIProcess.stateHomeWithFirstStartSeen(in: directory),
        ])
    }

    /// The board's window once sway manages it; nil if none comes.
    static func window(on compositor: Compositor) throws -> Compositor.View? {
        for _ in 0..<100 {
            if let view = try compositor.views().first(where: { $0.appID == AppIdentity.id }) { return view }
            usleep(100_000)
        }
        return nil
    }
}

extension Compositor {
    /// A virtual keyboard that stays on the seat until it is killed, as a desktop's
    /// keyboard does. A headless compositor has none, and a keyboard that exists only
    /// for its own key races the window it is typed into (docs/gui.md, "Keys on Wayland").
    func keepKeyboard() throws -> ChildProcess {
        // wtype makes its keyboard, then sleeps ten minutes, longer than any test.
        try start("wtype", package: "wtype", ["-s", "600000"])
    }
}
