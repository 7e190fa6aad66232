// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCommandLine
import TiltClient
import TiltCore
import TiltSystem
import TiltWire
#if canImport(Glibc)
import Glibc
#endif

/// The event loop of `watch` and `play`. It sleeps in poll() on the daemon's
/// socket, the keyboard and a signalfd; the only timer is the clock's one-second
/// tick while a game is in play. On a terminal it draws the full-screen view and
/// puts the terminal back however it ends; elsewhere it prints a line per event.
public final class LiveSession {
    private let connection: DaemonConnection
    private let title: String
    /// The player's keys; nil to watch (q quits, nothing else).
    private var keys: PlayerKeys?
    private var game = ClientGame()
    private var reader = KeyReader()

    private enum Ending {
        case quit
        case signal(Int32)
        case failure(DaemonConnection.Failure)
        /// Our output is gone (a closed pipe, a hung-up terminal).
        case outputClosed
    }

    public init(connection: DaemonConnection, title: String, keys: PlayerKeys?) {
        self.connection = connection
        self.title = title
        self.keys = keys
    }

    /// Runs until q, a signal, or the daemon going away; the exit status.
    public func run(on terminal: Terminal?) -> Int32 {
        // A daemon gone in mid-write is reported like any other loss, not a silent death.
        signal(SIGPIPE, SIG_IGN)
        // Ctrl-Z is ours to handle only where there is a screen to put back first.
        let handled = [SIGINT, SIGTERM, SIGHUP] + (terminal == nil ? [] : [SIGWINCH, SIGTSTP])
        let ending: Ending
        do throws(Errno) {
            let signals = try SignalDescriptor(handled)
            defer { try? signals.descriptor.close() }
            try terminal?.enter(rawInput: true)
            ending = loop(terminal, signals)
        } catch {
            terminal?.restore()
            StandardError.print("tiltpuzzle: " + L("cannot set up the terminal: {0}", error))
            return ExitStatus.software
        }
        terminal?.restore()
        switch ending {
        case .quit: return ExitStatus.ok
        case .signal(let number): return 128 + number
        case .outputClosed: return 128 + SIGPIPE
        case .failure(let failure):
            // After the screen is back, so it stays readable.
            StandardError.print("tiltpuzzle: \(failure)")
            return failure.exitStatus
        }
    }

    private func loop(_ terminal: Terminal?, _ signals: SignalDescriptor) -> Ending {
        var readingKeys = terminal?.input.isTerminal ?? false
        var dirty = true
        // The player sees the tilt gauge (docs/client.md); a watcher does not need it.
        if keys != nil, terminal != nil, let ending = send(.subscribe(pose: true)) { return ending }
        while true {
            // Messages can wait in the connection's buffer without the socket being readable (the greeting does).
            while let message = connection.takeBuffered() {
                if let ending = handle(message, printing: terminal == nil) { return ending }
                dirty = true
            }
            if dirty, let terminal {
                guard draw(terminal) else { return .outputClosed }
                dirty = false
            }
            // Our output too, for no event: poll() reports its error or hang-up by itself,
            // so a reader that went away (`watch | head -1`) ends us while the game is idle.
            var waits = [(connection.descriptor, Poll.Events.readable), (signals.descriptor, .readable),
                         (terminal?.output ?? .standardOutput, [])]
            if readingKeys, let terminal { waits.append((terminal.input, .readable)) }
            let tick = terminal == nil ? nil : game.secondsToNextTick(at: MonotonicClock.now())
            let ready: [Poll.Events]
            do throws(Errno) {
                ready = try Poll.wait(waits, timeout: tick)
            } catch {
                return .failure(.io(path: connection.path, error))
            }
            if ready.allSatisfy(\.isEmpty) {
                dirty = true   // the clock's tick
                continue
            }
            if !ready[2].isEmpty { return .outputClosed }
            if !ready[1].isEmpty {
                for number in signals.read() {
                    switch number {
                    case SIGWINCH:
                        dirty = true
                    case SIGTSTP:
                        if let terminal, !suspend(terminal) { return .outputClosed }
                        dirty = true
                    default:
                        return .signal(number)
                    }
                }
            }
            if !ready[0].isEmpty {
                do throws(DaemonConnection.Failure) {
                    try connection.readAvailable()
                } catch {
                    return .failure(error)
                }
            }
            if readingKeys, let terminal, !ready[3].isEmpty {
                var bytes = [UInt8](repeating: 0, count: 256)
                let count = (try? terminal.input.read(into: &bytes)) ?? 0
                // End of input (a hung-up terminal): keep watching, stop reading.
                if count == 0 { readingKeys = false }
                for key in reader.feed(bytes[..<count]) {
                    if let ending = press(key) { return ending }
                    dirty = true
                }
            }
        }
    }

    /// Applies a daemon message; prints its line when there is no screen.
    private func handle(_ message: ServerMessage, printing: Bool) -> Ending? {
        let update = game.apply(message, at: MonotonicClock.now())
        if printing, let line = update.line {
            do throws(Errno) {
                try StandardOutput.print(line)
            } catch {
                return .outputClosed
            }
        }
        guard update.outcome == .needsState else { return nil }
        return send(.state)
    }

    private func press(_ key: Key) -> Ending? {
        guard var keys else { return key != .escape && UserAction(key: key) == .quit ? .quit : nil }
        game.notice = nil
        let outcome = keys.handle(key, game: game.state, settings: game.settings, screen: game.screen)
        self.keys = keys
        switch outcome {
        case .send(let command): return send(command)
        case .quit: return .quit
        case .ask(let question): game.notice = question
        case .ignore: break
        }
        return nil
    }

    private func send(_ command: Command) -> Ending? {
        do throws(DaemonConnection.Failure) {
            let id = try connection.send(command)
            game.sent(command, id: id)
            return nil
        } catch {
            return .failure(error)
        }
    }

    private func draw(_ terminal: Terminal) -> Bool {
        let (width, height) = terminal.size()
        let size = game.state.map { " — \($0.size)×\($0.size)" } ?? ""
        let help = keys == nil ? L("q: quit") : PlayerKeys.help
        var content = BoardView.Content(title: title + size, state: game.state, mark: game.lastTilt,
                                        lines: game.statusLines(at: MonotonicClock.now()) + [help])
        content.hintCell = game.hintedCell
        do throws(Errno) {
            try terminal.write(ScreenFrame.draw(BoardView.render(content, width: width, height: height)))
            return true
        } catch {
            return false
        }
    }

    /// Ctrl-Z: the shell gets its screen and settings back while we are stopped.
    private func suspend(_ terminal: Terminal) -> Bool {
        terminal.restore()
        kill(getpid(), SIGSTOP)
        // Here after `fg`.
        do throws(Errno) {
            try terminal.enter(rawInput: true)
            return true
        } catch {
            return false
        }
    }
}
