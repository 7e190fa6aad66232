// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TestSupport
import TiltClient
import TiltCore
import TiltGUI
import TiltWire

/// The board's sounds (docs/gui.md, "Sound") as the sound card gets them: SDL's `disk`
/// driver writes what the window plays to a file, which must hold the slide's samples
/// exactly, or nothing while the sound is off; without a sound card the board plays on.
@Suite(.serialized) struct SoundOnVirtualDisplayTests {
    static let windowSize = Size(width: 480, height: 600)
    let layout = Layout(window: SoundOnVirtualDisplayTests.windowSize, side: 4)
    /// What the card must get for a slide: its samples from the first that is not zero.
    static let slide = Array(SoundEffect.slide.samples(rate: SoundEffect.preferredRate).drop { $0 == 0 })

    struct Session {
        let directory = TemporaryDirectory()
        let daemon: DaemonProcess
        let display: VirtualDisplay
        let control: DaemonConnection
        let gui: GUIProcess
        let window: String
        var state: GameState
        var soundFile: String { directory.path + "/sound.raw" }

        /// A solved 4×4 game (the gap at the bottom right) in a window with `arguments`,
        /// its sound going where `audio` says (by default, the disk driver's file).
        init(arguments: [String] = [], audio: [String: String]? = nil) throws {
            daemon = try DaemonProcess(directory: directory)
            display = try VirtualDisplay(directory: directory)
            control = try DaemonConnection(candidates: [daemon.socketPath])
            state = try GUIOnVirtualDisplayTests.state(after: .new(size: 4, seed: nil, shuffle: false), on: control)
            let size = "\(Int(SoundOnVirtualDisplayTests.windowSize.width))x\(Int(SoundOnVirtualDisplayTests.windowSize.height))"
            gui = try GUIProcess(display: display, directory: directory,
                                 arguments: ["--socket", daemon.socketPath, "--window", size] + arguments,
                                 audio: audio ?? ["SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": directory.path + "/sound.raw"])
            window = try display.waitForWindow(named: "tiltpuzzle")
        }

        /// Presses `key`, which must slide a tile `direction`; the daemon's board after it.
        mutating func slide(_ key: String, _ direction: Direction) throws {
            var expected = Board(side: 4, cells: state.board)!
            #expect(expected.tilt(direction) != nil, "the test's tilt \(direction) moves a tile")
            try display.key(key, window: window)
            state = try GUIOnVirtualDisplayTests.waitForChange(from: state, on: control)
            #expect(state.board == expected.values)
        }

        /// Waits until the window shows the daemon's board: it has taken the move, and
        /// with it the move's sound.
        func waitUntilShown(_ layout: Layout) throws {
            var problems: [String] = []
            for _ in 0..<50 {
                problems = BoardPicture(layout: layout).mismatches(try display.screenshot(window: window, file: directory.path + "/shot.xwd"), state)
                if problems.isEmpty { return }
                Thread.sleep(forTimeInterval: 0.1)
            }
            Issue.record("the window does not show board \(state.board): \(problems)")
        }

        /// The samples written so far (none when the card was never opened).
        var written: [Int16] {
            guard let data = FileManager.default.contents(atPath: soundFile) else { return [] }
            return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }.map { Int16(littleEndian: $0) }
        }

        /// The written samples from the first that is not zero, once there are at least
        /// `count` of them (the driver writes as the sound plays).
        func heard(atLeast count: Int) -> [Int16] {
            var sound: [Int16] = []
            for _ in 0..<100 {
                sound = Array(written.drop { $0 == 0 })
                if sound.count >= count { break }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return sound
        }

        /// The names of the window's threads that are SDL's audio threads.
        var audioThreads: [String] {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(gui.process.pid)/task")) ?? []
            return tasks.compactMap { try? String(contentsOfFile: "/proc/\(gui.process.pid)/task/\($0)/comm", encoding: .utf8) }
                .filter { $0.hasPrefix("SDLAudio") }
        }

        func quit() throws {
            try display.key("q", window: window)
            #expect(gui.waitForExit() == 0, "q quits: \(gui.output)")
            daemon.terminate()
        }
    }

    static func beginsWithTheSlide(_ sound: [Int16]) -> Bool {
        sound.count >= slide.count && Array(sound.prefix(slide.count)) == slide
    }

    /// What was written, in a few words: how much of it is sound, and how loud.
    static func describe(_ samples: [Int16]) -> String {
        let sound = samples.drop { $0 == 0 }
        let peak = sound.map { abs(Int($0)) }.max() ?? 0
        return "\(samples.count) samples, \(sound.count) from the first non-zero one, peak \(peak) (the slide: \(slide.count), peak \(slide.map { abs(Int($0)) }.max() ?? 0))"
    }

    /// An arrow key slides a tile: the card gets the slide's samples, exactly. The card
    /// is opened at that first sound, and closed again once the window has been quiet a
    /// while: no audio thread is left to keep it awake.
    @Test func aSlideIsHeard() throws {
        var session = try Session()
        #expect(session.audioThreads == [], "no sound yet, no audio thread")
        try session.slide("Right", .right)
        let sound = session.heard(atLeast: Self.slide.count)
        #expect(Self.beginsWithTheSlide(sound), "the first sound is the slide: \(Self.describe(sound))")
        #expect(!session.gui.output.contains("no sound"), "\(session.gui.output)")
        var threads = session.audioThreads
        for _ in 0..<100 where !threads.isEmpty {
            Thread.sleep(forTimeInterval: 0.1)
            threads = session.audioThreads
        }
        #expect(threads == [], "quiet again, the window closes the card")
        try session.quit()
    }

    /// With --mute neither a tap that cannot move (a bump) nor a slide reaches the card,
    /// which is not even opened; after m the next slide is heard, and is the first sound.
    @Test func muteSilencesAndMBringsTheSoundBack() throws {
        var session = try Session(arguments: ["--mute"])
        // Cell 0 is in neither the gap's row nor its column: the tile shakes, the bump is muted.
        try session.display.click(window: session.window, x: layout.cell(0).center.x, y: layout.cell(0).center.y)
        try session.slide("Right", .right)
        try session.waitUntilShown(layout)
        let muted = session.written
        #expect(muted.allSatisfy { $0 == 0 }, "muted: nothing but silence reaches the card: \(Self.describe(muted))")
        try session.display.key("m", window: session.window)
        try session.slide("Down", .down)
        let sound = session.heard(atLeast: Self.slide.count)
        #expect(Self.beginsWithTheSlide(sound), "the first sound heard is the slide after m: \(Self.describe(sound))")
        try session.quit()
    }

    /// No sound card to be had: the board plays on (keys and taps move tiles, q quits),
    /// and says so in one line, once, however many sounds it was asked for.
    @Test func withoutASoundCardPlayGoesOn() throws {
        var session = try Session(audio: ["SDL_AUDIODRIVER": "nonesuch"])
        try session.slide("Right", .right)
        try session.display.click(window: session.window, x: layout.cell(0).center.x, y: layout.cell(0).center.y)
        try session.slide("Down", .down)
        try session.waitUntilShown(layout)
        let lines = session.gui.output.split(separator: "\n").filter { $0.contains("no sound") }
        #expect(lines.count == 1, "one line about the sound: \(session.gui.output)")
        #expect(lines.first?.hasPrefix("tiltpuzzle-gui: no sound: ") == true, "\(lines)")
        try session.quit()
    }
}
