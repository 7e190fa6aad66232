// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TestSupport
import TiltClient
import TiltCore
import TiltGUI
import TiltWire

/// The built window on a virtual X display against a real daemon: keys, a tap and a
/// swipe change the daemon's board; a screenshot shows the tiles where the daemon
/// has them; idle, the window uses no CPU; it comes back after the daemon restarts.
@Suite(.serialized) struct GUIOnVirtualDisplayTests {
    static let windowSize = Size(width: 480, height: 600)
    let layout = Layout(window: GUIOnVirtualDisplayTests.windowSize, side: 4)

    @Test func playsByKeyTapAndSwipeAndShowsTheDaemonsBoard() throws {
        let directory = TemporaryDirectory()
        var daemon = try DaemonProcess(directory: directory)
        let display = try VirtualDisplay(directory: directory)
        var control = try DaemonConnection(candidates: [daemon.socketPath])
        var state = try Self.state(after: .new(size: 4, seed: 7, shuffle: true), on: control)
        let gui = try GUIProcess(display: display, directory: directory, arguments: ["--socket", daemon.socketPath, "--frame-stats",
                                                               "--window", "\(Int(Self.windowSize.width))x\(Int(Self.windowSize.height))"])
        let window = try display.waitForWindow(named: "tiltpuzzle")
        let classed = try display.run("xdotool", package: "xdotool", ["search", "--class", "^\(AppIdentity.id)$"])
        #expect(classed.split(separator: "\n").contains(Substring(window)), "the X11 class is the desktop entry's id")
        try expectShown(state, display, window, directory)

        // A key: an arrow tilts.
        let tilt = Self.legalTilt(state)
        var expected = Board(side: 4, cells: state.board)!
        expected.tilt(tilt)
        try display.key(Self.keyName(tilt), window: window)
        state = try Self.waitForChange(from: state, on: control)
        #expect(state.board == expected.values, "the arrow key tilted \(tilt)")

        // A tap on the farthest tile in the gap's row slides it and those between.
        let row = state.empty / 4
        let tapped = row * 4 + (state.empty % 4 < 2 ? 3 : 0)
        let path = expected.slidePath(from: tapped)!
        for _ in 0..<path.count { _ = expected.tilt(path.direction) }
        try display.click(window: window, x: layout.cell(tapped).center.x, y: layout.cell(tapped).center.y)
        state = try Self.waitForChange(from: state, on: control)
        #expect(state.board == expected.values, "a tap on cell \(tapped) slid \(path.count) tiles \(path.direction)")
        #expect(state.moves == 1 + path.count)

        // A swipe on the tile above (or below) the gap moves it into the gap.
        let swipe: Direction = state.empty >= 4 ? .down : .up
        let swiped = expected.tileIndex(tilting: swipe)!
        _ = expected.tilt(swipe)
        let from = layout.cell(swiped).center
        let to = layout.cell(state.empty).center
        try display.drag(window: window, from: (from.x, from.y), to: (to.x, to.y))
        state = try Self.waitForChange(from: state, on: control)
        #expect(state.board == expected.values, "a swipe moved cell \(swiped) \(swipe)")
        try expectShown(state, display, window, directory)

        // Idle: nothing moves, nothing to read; the loop must sleep.
        let before = try gui.cpuSeconds()
        Thread.sleep(forTimeInterval: 3)
        let idle = (try gui.cpuSeconds() - before) / 3
        let idleWithinLimit = idle < 0.2
        print("GUI idle CPU: \(String(format: "%.2f", idle * 100)) % of a core over 3 s")
        #expect(idleWithinLimit, "the window busy-waits while idle: \(idle * 100) % of a core")

        // A burst of 20 moves sent at once: all play, in order, and the board ends where the daemon is.
        let burstStart = gui.output.count
        let beforeBurst = state.board
        for tilt in Self.walk(from: state, moves: 20) { try control.send(.tilt(tilt)) }
        var replies = 0
        while replies < 20, let message = try control.next(timeout: 10) {
            if case .reply = message { replies += 1 }
        }
        state = try Self.state(after: .state, on: control)
        #expect(state.board != beforeBurst, "the burst should leave the board changed, to be seen")
        try expectShown(state, display, window, directory)
        // The window prints a burst's frames once its last slide has landed, just after drawing it.
        var bursts: [Substring] = []
        let deadline = Date().addingTimeInterval(5)
        repeat {
            bursts = gui.output.dropFirst(burstStart).split(separator: "\n").filter { $0.contains("frames:") }
            if bursts.compactMap(Self.slides).reduce(0, +) >= 20 { break }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        bursts.forEach { print("GUI burst of 20 moves: \($0)") }
        #expect(bursts.compactMap(Self.slides).reduce(0, +) == 20, "every move was animated: \(bursts)")
        if let keep = ProcessInfo.processInfo.environment["TILTPUZZLE_GUI_SCREENSHOT"] {
            try? FileManager.default.removeItem(atPath: keep)
            try FileManager.default.copyItem(atPath: directory.path + "/shot.xwd", toPath: keep)
        }

        // The daemon restarts: the window waits, dimmed, then shows the board again and plays on.
        daemon.terminate()
        let tile = state.board.firstIndex { $0 != 15 }!
        var dimmed = false
        for _ in 0..<50 where !dimmed {
            Thread.sleep(forTimeInterval: 0.1)
            let shot = try display.screenshot(window: window, file: directory.path + "/shot.xwd")
            dimmed = !shot.pixel(at: BoardPicture(layout: layout).probes(tile)[0]).isClose(to: Palette.tile)
        }
        #expect(dimmed, "the window did not show that the daemon was gone")
        #expect(gui.process.isRunning)
        daemon = try DaemonProcess(directory: directory)
        control = try DaemonConnection(candidates: [daemon.socketPath])
        state = try Self.state(after: .state, on: control)
        try expectShown(state, display, window, directory)
        let again = Self.legalTilt(state)
        try display.key(Self.keyName(again), window: window)
        state = try Self.waitForChange(from: state, on: control)

        try display.key("q", window: window)
        #expect(gui.waitForExit() == 0, "q quits: \(gui.output)")
        daemon.terminate()
    }

    // MARK: Screen

    /// Waits for the animations to end: the screen must match `state` within 5 s.
    func expectShown(_ state: GameState, _ display: VirtualDisplay, _ window: String, _ directory: TemporaryDirectory,
                     sourceLocation: SourceLocation = #_sourceLocation) throws {
        var problems: [String] = []
        for _ in 0..<50 {
            problems = BoardPicture(layout: layout).mismatches(try display.screenshot(window: window, file: directory.path + "/shot.xwd"), state)
            if problems.isEmpty { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        Issue.record("the window does not show board \(state.board): \(problems)", sourceLocation: sourceLocation)
    }

    // MARK: Daemon

    /// The `state` the daemon sends after `command`.
    static func state(after command: Command, on connection: DaemonConnection) throws -> GameState {
        let messages = try connection.request(command)
        guard let state = messages.compactMap({ if case .state(let s) = $0 { s } else { nil } }).last else {
            throw TestFailure("no state after \(command.name): \(messages)")
        }
        return state
    }

    /// Asks for the state until its revision is past `old`'s.
    static func waitForChange(from old: GameState, on connection: DaemonConnection, timeout: Double = 10) throws -> GameState {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let state = try state(after: .state, on: connection)
            if state.revision > old.revision { return state }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw TestFailure("the board did not change from revision \(old.revision)")
    }

    static func legalTilt(_ state: GameState) -> Direction {
        let board = Board(side: state.size, cells: state.board)!
        return Direction.allCases.first { board.tileIndex(tilting: $0) != nil }!
    }

    /// `moves` legal tilts that never undo the one before, so the gap wanders off.
    static func walk(from state: GameState, moves: Int) -> [Direction] {
        var board = Board(side: state.size, cells: state.board)!
        var tilts: [Direction] = []
        while tilts.count < moves {
            let next = Direction.allCases.first { $0 != tilts.last?.opposite && board.tileIndex(tilting: $0) != nil }!
            board.tilt(next)
            tilts.append(next)
        }
        return tilts
    }

    static func keyName(_ direction: Direction) -> String {
        switch direction {
        case .up: "Up"
        case .down: "Down"
        case .left: "Left"
        case .right: "Right"
        }
    }

    /// The slide count of a `--frame-stats` line.
    static func slides(_ line: Substring) -> Int? {
        guard let end = line.range(of: " slides")?.lowerBound else { return nil }
        return Int(line[..<end].split(separator: " ").last ?? "")
    }
}
