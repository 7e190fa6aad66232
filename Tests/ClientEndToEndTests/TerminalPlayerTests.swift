// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `play` and `watch` on a real pseudo-terminal (tmux): keys reach the daemon, the
/// screen shows its board, and the terminal is as it was when they end.
@Suite(.enabled(if: TmuxPane.executable != nil, "needs tmux"))
struct TerminalPlayerTests {
    /// Runs `command` after a marker line; then prints how it ended and the terminal's settings.
    static func script(_ command: String) -> String {
        """
        echo BEFORE-THE-CLIENT
        \(command)
        echo "client exited $?"
        stty -a
        echo STTY-DONE
        exec sleep 600
        """
    }

    static func boardOnScreen(_ screen: [String], matches state: [String: Any]) -> Bool {
        guard let size = state["size"] as? Int, let board = state["board"] as? [Int] else { return false }
        return ScreenBoard.rows(screen) == ScreenBoard.expected(size: size, board: board)
    }

    /// The screen is the shell's again and the terminal reads lines with echo, as before.
    static func expectTerminalRestored(_ screen: [String], title: String) {
        #expect(screen.containing("BEFORE-THE-CLIENT"), "the normal screen is back")
        #expect(!screen.containing(title), "the alternate screen is gone")
        let words = screen.words
        for flag in ["icanon", "echo", "isig", "iexten", "ixon", "icrnl"] {
            #expect(words.contains(flag) && !words.contains("-" + flag), "\(flag)")
        }
    }

    @Test func theArrowKeysPlayTheDaemonsGameAndQRestoresTheTerminal() throws {
        let directory = TemporaryDirectory()
        let daemon = try OneShotCommandTests.solvedDaemon(directory)
        let pane = try TmuxPane(directory: directory, script: Self.script("'\(Client.path)' --socket '\(daemon.socketPath)' play"))
        let title = "tiltpuzzle play — 4×4"
        var state = try Client.state(of: daemon)
        var screen = try pane.waitForScreen { $0.containing(title) && Self.boardOnScreen($0, matches: state) }
        #expect(Self.boardOnScreen(screen, matches: state))
        #expect(screen.containing("arrows: slide"))

        // From the solved board nothing can slide left: a bump, and the daemon's game stays as it was.
        try pane.press("Left")
        screen = try pane.waitForScreen { $0.containing("left: nothing can slide that way") }
        #expect(screen.containing("left: nothing can slide that way"))
        #expect(try Client.state(of: daemon)["moves"] as? Int == 0)

        for (key, moves, board) in [("Right", 1, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 14]),
                                    ("Down", 2, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 11, 12, 13, 10, 14]),
                                    ("u", 1, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 14]),
                                    ("r", 2, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 11, 12, 13, 10, 14])] {
            try pane.press(key)
            state = try Client.waitForState(of: daemon) { $0["moves"] as? Int == moves }
            #expect(state["board"] as? [Int] == board, "\(key)")
            screen = try pane.waitForScreen { Self.boardOnScreen($0, matches: state) && $0.containing(moves == 1 ? "1 move " : "\(moves) moves") }
            #expect(Self.boardOnScreen(screen, matches: state), "\(key)")
        }

        try pane.press("c")
        screen = try pane.waitForScreen { $0.containing("calibration needs a sensor sample") }
        #expect(screen.containing("calibration needs a sensor sample"))

        // A game in progress: n asks, a second n deals a new one.
        try pane.press("n")
        screen = try pane.waitForScreen { $0.containing("start a new game?") }
        #expect(screen.containing("start a new game?"))
        try pane.press("n")
        state = try Client.waitForState(of: daemon) { $0["moves"] as? Int == 0 }
        #expect(state["solved"] as? Bool == false && state["size"] as? Int == 4)

        try pane.press("q")
        screen = try pane.waitForScreen { $0.containing("STTY-DONE") }
        #expect(screen.containing("client exited 0"))
        Self.expectTerminalRestored(screen, title: title)
    }

    /// The terminal player in German (docs/client.md, "Languages"): its keys, a hint with
    /// each plural, and the daemon's refusal said in the language.
    @Test func thePlayerSpeaksThePlayersLanguage() throws {
        let directory = TemporaryDirectory()
        let catalogs = try LocalizedClientTests.compiledCatalogs(in: directory)
        let daemon = try DaemonProcess(directory: directory)
        // 1 2 3 | 4 5 6 | _ 7 8: two tilts left.
        #expect(try Client.run(["new", "--board", "1 2 3, 4 5 6, _ 7 8"], on: daemon).status == 0)
        let command = "LANG=de_DE.UTF-8 LC_ALL= LANGUAGE= TILTPUZZLE_LOCALEDIR='\(catalogs)' '\(Client.path)' --socket '\(daemon.socketPath)' play"
        let pane = try TmuxPane(directory: directory, width: 160, script: Self.script(command))
        var screen = try pane.waitForScreen { $0.containing("Pfeile: Zug") }
        #expect(!screen.containing("arrows: slide"))
        try pane.press("?")
        screen = try pane.waitForScreen { $0.containing("7 nach links schieben — noch 2 Züge, optimal") }
        try pane.press("Left")
        screen = try pane.waitForScreen { $0.containing("8 nach links schieben — noch 1 Zug, optimal") }
        #expect(screen.containing("8 nach links schieben — noch 1 Zug, optimal"))
        try pane.press("c")
        screen = try pane.waitForScreen { $0.containing("zum Justieren braucht es einen Messwert des Sensors") }
        #expect(!screen.containing("calibration needs a sensor sample"))
        try pane.press("q")
        screen = try pane.waitForScreen { $0.containing("STTY-DONE") }
        #expect(screen.containing("client exited 0"))
    }

    /// `?` shows the hint under the board; sliding the tile it names moves it on to the next.
    @Test func theQuestionMarkShowsAHintThatFollowsThePlayer() throws {
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(directory: directory)
        // 1 2 3 | 4 5 6 | _ 7 8: two tilts left.
        #expect(try Client.run(["new", "--board", "1 2 3, 4 5 6, _ 7 8"], on: daemon).status == 0)
        let pane = try TmuxPane(directory: directory, script: Self.script("'\(Client.path)' --socket '\(daemon.socketPath)' play"))
        var screen = try pane.waitForScreen { $0.containing("?: hint") }
        try pane.press("?")
        screen = try pane.waitForScreen { $0.containing("hint: slide 7 left — 2 moves to go, optimal") }
        #expect(screen.containing("hint: slide 7 left — 2 moves to go, optimal"))
        try pane.press("Left")
        screen = try pane.waitForScreen { $0.containing("hint: slide 8 left — 1 move to go, optimal") }
        #expect(screen.containing("hint: slide 8 left — 1 move to go, optimal"))
        try pane.press("q")
        screen = try pane.waitForScreen { $0.containing("STTY-DONE") }
        #expect(screen.containing("client exited 0"))
    }

    /// Another client's moves show live; the view follows the window's size; SIGTERM
    /// puts the terminal back.
    @Test func watchFollowsTheGameAndTheWindowAndRestoresTheTerminalOnSIGTERM() throws {
        let directory = TemporaryDirectory()
        let daemon = try OneShotCommandTests.solvedDaemon(directory)
        let pidFile = directory.path + "/watch.pid"
        // The inner shell becomes the client (exec), so the pid it writes is the client's.
        let command = "sh -c 'echo $$ > \(pidFile); exec \"$0\" --socket \"$1\" watch' '\(Client.path)' '\(daemon.socketPath)'"
        let pane = try TmuxPane(directory: directory, script: Self.script(command))
        let title = "tiltpuzzle watch — 4×4"
        var state = try Client.state(of: daemon)
        var screen = try pane.waitForScreen { $0.containing(title) && Self.boardOnScreen($0, matches: state) }
        #expect(Self.boardOnScreen(screen, matches: state))

        _ = try Client.run(["tilt", "right"], on: daemon)
        state = try Client.state(of: daemon)
        screen = try pane.waitForScreen { Self.boardOnScreen($0, matches: state) && $0.containing("tile 15 slid right") }
        #expect(Self.boardOnScreen(screen, matches: state))
        #expect(screen.containing("1 move "), "one move, in the singular")
        let largeRule = screen.first { $0.contains("+-") }?.count ?? 0

        try pane.resize(width: 44, height: 22)
        screen = try pane.waitForScreen { lines in
            Self.boardOnScreen(lines, matches: state) && (lines.first { $0.contains("+-") }?.count ?? 0) < largeRule
        }
        #expect(Self.boardOnScreen(screen, matches: state), "smaller tiles, the same board")
        #expect(screen.allSatisfy { $0.count <= 44 })

        try pane.resize(width: 20, height: 8)
        screen = try pane.waitForScreen { $0.containing("window too small") }
        #expect(screen.containing("window too small"))

        try pane.resize(width: 100, height: 40)
        screen = try pane.waitForScreen { Self.boardOnScreen($0, matches: state) }
        #expect(Self.boardOnScreen(screen, matches: state))

        let pid = try #require(pid_t(String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(pid, SIGTERM) == 0)
        screen = try pane.waitForScreen { $0.containing("STTY-DONE") }
        #expect(screen.containing("client exited \(128 + SIGTERM)"))
        Self.expectTerminalRestored(screen, title: title)
    }
}
