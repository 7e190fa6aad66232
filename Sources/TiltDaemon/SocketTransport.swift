// SPDX-License-Identifier: GPL-3.0-or-later
import TiltSystem

/// A client's socket as the hub's transport.
final class SocketTransport: ClientTransport {
    /// What the socket is watched for: read unless the hub paused it, written while
    /// output waits.
    struct Interest {
        var reading = true
        var writing = false

        var events: Epoll.Events {
            var events: Epoll.Events = reading ? [.readable, .peerClosed] : []
            if writing { events.insert(.writable) }
            return events
        }
    }

    let descriptor: FileDescriptor
    let peerDescription: String
    /// Its source on the loop while it is watched.
    var token: EventLoop.Token?
    var interest = Interest()
    private let onClose: (SocketTransport) -> Void
    private var closed = false

    /// `onClose` runs before the descriptor is closed, while the loop can still find it.
    init(descriptor: FileDescriptor, onClose: @escaping (SocketTransport) -> Void) {
        self.descriptor = descriptor
        peerDescription = UnixSocket.peerCredentials(descriptor)?.description ?? "unknown peer"
        self.onClose = onClose
    }

    func write(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard !closed else { return nil }
        do throws(Errno) {
            return try UnixSocket.send(descriptor, bytes)
        } catch {
            return nil
        }
    }

    func close() {
        guard !closed else { return }
        closed = true
        onClose(self)
        try? descriptor.close()
    }
}
