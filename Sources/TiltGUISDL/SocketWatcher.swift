// SPDX-License-Identifier: GPL-3.0-or-later
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// Wakes the event loop when the daemon's socket has something to read. SDL can
/// sleep only on its own event queue, so a small thread poll()s the socket and
/// pushes an SDL event (SDL_PushEvent is thread-safe). The thread never reads the
/// socket: the loop does, then acknowledges, and only then does the thread watch
/// again — one readable socket makes one event, not a stream of them. No timer
/// ticks anywhere: with nothing to read and nothing moving, both threads sleep.
final class SocketWatcher {
    private let acknowledged: WakeupDescriptor
    private let worker: WorkerThread
    private var running = true

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Watches `socket` (owned by the caller, open until `stop`), calling `wake` on the thread.
    init(socket: FileDescriptor, wake: @escaping @Sendable () -> Void) throws(Failure) {
        do throws(Errno) {
            acknowledged = try WakeupDescriptor()
        } catch {
            throw Failure(description: "cannot make the watcher's wake-up descriptor: \(error)")
        }
        let acknowledged = acknowledged
        do throws(Errno) {
            worker = try WorkerThread { stop in Self.watch(socket, acknowledged: acknowledged, stop: stop, wake: wake) }
        } catch {
            try? acknowledged.descriptor.close()
            throw Failure(description: "cannot start the socket watcher: \(error)")
        }
    }

    /// The loop has read what woke it: watch again.
    func acknowledge() {
        if running { acknowledged.signal() }
    }

    /// Ends the thread and waits for it.
    func stop() {
        guard running else { return }
        running = false
        worker.stop()
        try? acknowledged.descriptor.close()
    }

    deinit { stop() }

    // MARK: the watching thread

    private static func watch(_ socket: FileDescriptor, acknowledged: WakeupDescriptor, stop: WorkerThread.Stop,
                              wake: @Sendable () -> Void) {
        var armed = true
        while true {
            // Until the loop has read what woke it, only the acknowledgement counts.
            var requests = [(stop.descriptor, Poll.Events.readable), (acknowledged.descriptor, .readable)]
            if armed { requests.append((socket, .readable)) }
            guard let ready = try? Poll.wait(requests, timeout: nil), ready[0].isEmpty else { return }
            if !ready[1].isEmpty {
                acknowledged.drain()
                armed = true
            }
            if ready.count > 2, !ready[2].isEmpty {
                armed = false
                wake()
            }
        }
    }
}
