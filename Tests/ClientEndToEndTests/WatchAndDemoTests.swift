// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TestSupport
import TiltSystem
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `watch` into a pipe: one line per event, as they happen; and the demo's run.
struct WatchAndDemoTests {
    @Test func watchPrintsALineForEachEventAsAnotherClientPlays() throws {
        let directory = TemporaryDirectory()
        let daemon = try OneShotCommandTests.solvedDaemon(directory)
        let watch = try RunningClient(["--socket", daemon.socketPath, "watch"])
        let lines = watch.lines
        let greeting = lines.lines(until: { $0.hasPrefix("screen") })
        #expect(greeting == ["state 1: 4×4, 0 moves, 0:00 played, solved; board 1 2 3 4, 5 6 7 8, 9 10 11 12, 13 14 15 _",
                             "sensor disabled — no sensor by choice (source none)", "screen upright (0°)"])
        // The lines come while the watcher runs, not when it ends.
        _ = try Client.run(["tilt", "right"], on: daemon)
        #expect(lines.next() == "move 2: tile 15 right, cell 14→15 (command), 1 move")
        _ = try Client.run(["tilt", "down"], on: daemon)
        #expect(lines.next() == "move 3: tile 11 down, cell 10→14 (command), 2 moves")
        _ = try Client.run(["new", "--no-shuffle"], on: daemon)
        #expect(lines.next()?.hasPrefix("state 4: 4×4, 0 moves, 0:00 played, solved; board 1 2 3 4, ") == true)

        watch.process.signal(SIGTERM)
        #expect(watch.wait() == 128 + SIGTERM)
        #expect(watch.process.endingSignal == nil, "it handled the signal and exited")
        #expect(watch.errorText.isEmpty)
    }

    /// `watch | head -1` returns with the first line, though nothing happens after it:
    /// the watcher sees its reader go and ends as a closed pipe ends a program (141).
    @Test func watchEndsWhenItsReaderGoesWhileTheGameIsIdle() throws {
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(directory: directory)
        let script = "{ \"$0\" --socket \"$1\" watch; echo \"watch exited $?\" >&2; } | head -1"
        let shell = try ChildProcess(["sh", "-c", script, Client.path, daemon.socketPath], environment: Client.environment(),
                                     standardInput: .null, standardOutput: .pipe, standardError: .pipe, otherDescriptors: .closed)
        defer { shell.signal(SIGKILL) }
        // Generous: only a watcher that never notices stays past it.
        let status = try shell.wait(timeout: 60)
        #expect(status == 0)
        let (output, errors) = shell.readPipes()
        #expect(String(decoding: output, as: UTF8.self).hasPrefix("state "))
        #expect(String(decoding: errors, as: UTF8.self) == "watch exited \(128 + SIGPIPE)\n")
    }

    @Test func watchReportsTheDaemonGoingAway() throws {
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(directory: directory)
        let watch = try RunningClient(["--socket", daemon.socketPath, "watch"])
        _ = watch.lines.lines(until: { $0.hasPrefix("sensor") })
        daemon.terminate()
        #expect(watch.wait() == 69)
        #expect(watch.errorText == "tiltpuzzle: the daemon closed the connection.\n")
    }

    /// Into a pipe, each line comes as it happens (not when a buffer fills or the demo
    /// ends), and the moves name tiles by their labels: seed 1 deals 4 6 1 | _ 3 2 | 7 8 5,
    /// whose first tilt, up, slides tile 7.
    @Test func theDemoIntoAPipeShowsEachLineAsItHappens() throws {
        let demo = try RunningClient(["demo", "--seed", "1"])
        #expect(demo.lines.next(timeout: 30) == "demo: a tablet solving a shuffled 3×3 puzzle (seed 1): 19 tilts (optimal)")
        let first = demo.lines.lines(until: { $0.hasPrefix("tile ") || $0.hasPrefix("demo: ") }, timeout: 30)
        #expect(first.last == "tile 7 up, 1 move")
        #expect(demo.process.isRunning, "the line came while the demo played on")
        demo.process.signal(SIGTERM)
        _ = demo.wait()
    }

    @Test func theDemoSolvesItsPuzzle() throws {
        let result = try Client.run(["demo", "--speed", "8", "--seed", "1"])
        #expect(result.status == 0)
        #expect(result.stdoutLines.first == "demo: a tablet solving a shuffled 3×3 puzzle (seed 1): 19 tilts (optimal)")
        let summary = try #require(result.stdoutLines.last)
        #expect(summary.hasPrefix("demo: 19 tilts, 19 moves, "), "the solver's optimal 19-move solution, all of it")
        #expect(summary.hasSuffix(": solved"))
        #expect(summary.range(of: #", \d+:\d\d of play"#, options: .regularExpression) != nil, "play time as a clock: \(summary)")
    }

    /// On a terminal the demo redraws the board in place, ends on the solved board
    /// and gives the cursor back; it needs no daemon of the user's.
    @Test func theDemoOnATerminalShowsTheBoardBeingSolved() throws {
        let directory = TemporaryDirectory()
        let pane = try TmuxPane(directory: directory, width: 80, height: 24, script: """
            '\(Client.path)' demo --speed 8 --seed 1
            echo "demo exited $?"
            exec sleep 600
            """)
        let screen = try pane.waitForScreen { $0.containing("demo exited") }
        #expect(screen.containing("demo exited 0"))
        #expect(screen.containing("demo: a tablet solving a shuffled 3×3 puzzle (seed 1)"))
        #expect(screen.containing("solved!"), "the last board drawn is the solved one")
        #expect(screen.containing(": solved"))
        // Drawn in place: the title appears once, not once per event.
        #expect(screen.filter { $0.contains("demo: a tablet solving") }.count == 1)
    }
}
