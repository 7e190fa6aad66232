// SPDX-License-Identifier: GPL-3.0-or-later
import TiltClient
import TiltSystem
import TiltWire

/// The window's line to the daemon: connects, and after the daemon goes away
/// (restart, upgrade, crash) tries again every `retryInterval` until it is back,
/// keeping the reason it could not connect for the status line.
final class DaemonLink {
    static let retryInterval = 1.0

    private let candidates: [String]
    private var connection: DaemonConnection?
    private var watcher: SocketWatcher?
    /// When to try to connect next; nil while connected.
    private(set) var nextAttempt: Double? = 0

    init(candidates: [String]) {
        self.candidates = candidates
    }

    var isConnected: Bool { connection != nil }

    /// Connects if an attempt is due: the greeting's messages, or why it failed.
    func connectIfDue(now: Double) -> Result<[ServerMessage], DaemonConnection.Failure>? {
        guard let due = nextAttempt, now >= due else { return nil }
        do throws(DaemonConnection.Failure) {
            let connection = try DaemonConnection(candidates: candidates)
            watcher = try? SocketWatcher(socket: connection.descriptor) { SDLEvents.pushWakeUp() }
            guard watcher != nil else { throw .garbled("cannot watch the socket") }
            self.connection = connection
            nextAttempt = nil
            return .success(drain(connection))
        } catch {
            nextAttempt = now + Self.retryInterval
            return .failure(error)
        }
    }

    /// The socket was readable: what it brought. Throws when the daemon has gone.
    func receive() throws(DaemonConnection.Failure) -> [ServerMessage] {
        guard let connection else { return [] }
        do throws(DaemonConnection.Failure) {
            try connection.readAvailable()
        } catch {
            drop()
            throw error
        }
        let messages = drain(connection)
        watcher?.acknowledge()
        return messages
    }

    /// Sends `command`; its request id, or the failure (the link is then down).
    func send(_ command: Command) -> Result<Int, DaemonConnection.Failure> {
        guard let connection else { return .failure(.closed) }
        do throws(DaemonConnection.Failure) {
            return .success(try connection.send(command))
        } catch {
            drop()
            return .failure(error)
        }
    }

    /// Closes the connection. The next attempt is due at once: a restarted or
    /// socket-activated daemon may already be listening.
    func drop() {
        watcher?.stop()
        watcher = nil
        connection = nil
        nextAttempt = MonotonicClock.now()
    }

    /// Stops watching and closes the connection for good, as the window closes.
    func close() {
        drop()
        nextAttempt = nil
    }

    private func drain(_ connection: DaemonConnection) -> [ServerMessage] {
        var messages: [ServerMessage] = []
        while let message = connection.takeBuffered() { messages.append(message) }
        return messages
    }
}
