// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltClient
import TiltCore
import TiltSystem
import TiltTerminal
import TiltWire

/// `watch` and `play` on a terminal whose ends are pipes, against a daemon played by a
/// thread of the test on a socket in a folder of its own: the board is drawn from what
/// the daemon sends, a player subscribes to the pose and a watcher does not, and the
/// daemon going away ends the session with the status of a lost daemon.
/// Serialized: a session on a terminal arms the process's one crash guard.
@Suite(.serialized) struct LiveSessionTests {
    /// What the daemon saw and what the terminal was sent.
    struct Outcome {
        var status: Int32
        var sent: String
        var screen: String
    }

    static let state = GameState(revision: 1, size: 4, board: Array(0..<16), empty: 15, moves: 0, solved: true,
                                 canUndo: false, canRedo: false, time: 0)

    /// Runs a session titled `title` until the daemon, once it sees the board drawn,
    /// hangs up. The limits only catch a hang.
    static func session(title: String, keys: PlayerKeys?) throws -> Outcome {
        let folder = try TemporaryDirectory(prefix: "tp")
        defer { folder.remove() }
        let path = folder.path + "/d.sock"
        let listener = try UnixSocket.listen(path: path)
        defer { try? listener.close() }
        let input = try FileDescriptor.pipe(), output = try FileDescriptor.pipe()
        defer {
            for end in [input.read, input.write, output.read, output.write] { try? end.close() }
        }
        let drawn = title + " — 4×4"
        let seen = Locked<(sent: [UInt8], screen: [UInt8])>(([], []))
        let daemon = try JoinableThread {
            do throws(Errno) {
                guard try Poll.wait([(listener, .readable)], timeout: 60) == [.readable],
                      let peer = try UnixSocket.accept(listener) else { return }
                defer { try? peer.close() }
                try peer.writeAll(ServerMessage.hello(version: "test").encoded())
                try peer.writeAll(ServerMessage.state(Self.state).encoded())
                var screen: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while !String(decoding: screen, as: UTF8.self).contains(drawn),
                      try Poll.wait([(output.read, .readable)], timeout: 60) == [.readable] {
                    let count = try output.read.read(into: &buffer)
                    if count == 0 { break }
                    screen += buffer[..<count]
                }
                // What the client sends before its first frame is in the socket by now.
                var sent: [UInt8] = []
                while try Poll.wait([(peer, .readable)], timeout: 0) == [.readable] {
                    let count = try peer.read(into: &buffer)
                    if count == 0 { break }
                    sent += buffer[..<count]
                }
                seen.withLock { $0 = (sent, screen) }
            } catch {
                Issue.record("the daemon's side: \(error)")
            }
        }
        let connection = try DaemonConnection(candidates: [path])
        let status = LiveSession(connection: connection, title: title, keys: keys)
            .run(on: Terminal(input: input.read, output: output.write))
        daemon.join()
        let (sent, screen) = seen.withLock { $0 }
        return Outcome(status: status, sent: String(decoding: sent, as: UTF8.self),
                       screen: String(decoding: screen, as: UTF8.self))
    }

    @Test func aWatcherDrawsTheBoardSendsNothingAndEndsWhenTheDaemonGoes() throws {
        let outcome = try Self.session(title: "watched", keys: nil)
        #expect(outcome.screen.contains("watched — 4×4"))
        #expect(outcome.screen.contains("\u{1B}[?1049h"), "on the alternate screen")
        #expect(outcome.screen.contains("15"), "the board's tiles")
        #expect(outcome.sent.isEmpty)
        #expect(outcome.status == DaemonConnection.Failure.closed.exitStatus)
    }

    /// The player's gauge needs the pose (docs/client.md), asked for before the first frame.
    @Test func aPlayerSubscribesToThePose() throws {
        let outcome = try Self.session(title: "played", keys: PlayerKeys())
        #expect(outcome.screen.contains("played — 4×4"))
        let lines = outcome.sent.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first.map { $0.contains(#""cmd":"subscribe""#) && $0.contains(#""pose":true"#) } == true,
                "\(outcome.sent)")
        #expect(outcome.status == DaemonConnection.Failure.closed.exitStatus)
    }
}
