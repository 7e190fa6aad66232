// SPDX-License-Identifier: GPL-3.0-or-later
import TiltSystem

/// The listening sockets and every client's socket, as sources of the loop: accepts
/// clients (backing off while out of descriptors), reads them for the hub, and watches
/// each for what the hub asks (`setInterest`). The sockets are opened elsewhere; the
/// listeners are closed by `close`.
final class ClientSockets {
    private let loop: EventLoop
    private let hub: Hub
    private let log: Logger
    let listeners: [FileDescriptor]
    /// The listeners' sources while accepting (none while out of descriptors).
    private var listenerTokens: [EventLoop.Token] = []
    private var acceptingPaused = false
    private var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)

    init(listeners: [FileDescriptor], loop: EventLoop, hub: Hub, log: Logger) {
        self.listeners = listeners
        self.loop = loop
        self.hub = hub
        self.log = log
    }

    /// Starts accepting.
    func start() throws(Errno) {
        for listener in listeners {
            listenerTokens.append(try loop.watch(listener, .readable) { [weak self] _, _ in self?.acceptClients(listener) })
        }
    }

    func close() {
        listenerTokens.forEach(loop.remove)
        listenerTokens = []
        for listener in listeners { try? listener.close() }
    }

    private func acceptClients(_ listener: FileDescriptor) {
        while true {
            let accepted: FileDescriptor?
            do throws(Errno) {
                accepted = try UnixSocket.accept(listener)
            } catch {
                if error == .tooManyOpenFiles || error == .tooManyOpenFilesInSystem {
                    // Out of descriptors: stop accepting until a client leaves, rather
                    // than wake up for the same pending connection forever.
                    log.warning("accept: \(error); not accepting until a client leaves")
                    listenerTokens.forEach(loop.remove)
                    listenerTokens = []
                    acceptingPaused = true
                } else {
                    log.warning("accept failed: \(error)")
                }
                return
            }
            guard let fd = accepted else { return }
            let transport = SocketTransport(descriptor: fd) { [weak self] closed in self?.forget(closed) }
            // Watch before attaching: the greeting may already need to wait for writability.
            var attachedID: Int?
            do throws(Errno) {
                transport.token = try loop.watch(fd, transport.interest.events) { [weak self] events, _ in
                    guard let id = attachedID else { return }
                    self?.clientEvent(id: id, fd: fd, events: events)
                }
            } catch {
                log.warning("cannot watch a client's socket: \(error)")
                try? fd.close()
                continue
            }
            attachedID = hub.attach(transport)
        }
    }

    /// A client's socket is closing: stop watching it, and accept again if we had to stop.
    private func forget(_ transport: SocketTransport) {
        if let token = transport.token { loop.remove(token) }
        transport.token = nil
        if acceptingPaused {
            acceptingPaused = false
            try? start()
        }
    }

    private func clientEvent(id: Int, fd: FileDescriptor, events: Epoll.Events) {
        if events.contains(.writable) {
            hub.writable(id)
            guard hub.isAttached(id) else { return }
        }
        guard events.contains(.readable) || events.contains(.hangup) || events.contains(.peerClosed)
                || events.contains(.error) else { return }
        // Read a bounded amount per wake-up, so one client cannot starve the others.
        for _ in 0..<4 {
            guard hub.wantsInput(id) else {
                // Paused (or closing): its bytes wait in the kernel, which pushes back on
                // the client. A hang-up cannot be left out of epoll's interest, and the
                // peer that hung up can no longer receive its replies.
                if events.contains(.hangup) || events.contains(.error) { hub.detach(id, reason: "connection lost") }
                return
            }
            let count: Int
            do throws(Errno) {
                count = try fd.read(into: &readBuffer)
            } catch {
                if error == .wouldBlock { return }
                hub.detach(id, reason: "read error: \(error)")
                return
            }
            if count == 0 {
                hub.endOfInput(from: id)
                return
            }
            readBuffer.withUnsafeBytes { hub.receive(UnsafeRawBufferPointer(rebasing: $0[..<count]), from: id) }
            if count < readBuffer.count { return }
        }
    }

    /// The hub wants a client's socket read, or written, or no longer.
    func setInterest(_ id: Int, reading: Bool? = nil, writing: Bool? = nil) {
        guard let transport = hub.transport(of: id) as? SocketTransport, let token = transport.token else { return }
        if let reading { transport.interest.reading = reading }
        if let writing { transport.interest.writing = writing }
        loop.change(token, transport.interest.events)
    }
}
