// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#endif

/// A thread that runs until its owner stops it: the body is handed the descriptor
/// that becomes readable when it should end, and waits on it beside whatever else
/// it waits on. `stop` asks, then waits for the body to return. The one shape of
/// every thread beside the event loop (saves, hints, a polled sensor, the GUI's
/// socket watcher).
public final class WorkerThread {
    /// What the body sees of its stop request.
    public final class Stop: Sendable {
        private let wakeup: WakeupDescriptor
        private let requested = Locked(false)

        init(_ wakeup: WakeupDescriptor) { self.wakeup = wakeup }

        /// Readable once a stop was asked for: wait on it with the body's other descriptors.
        public var descriptor: FileDescriptor { wakeup.descriptor }
        /// Whether a stop was asked for (for a body between two pieces of work).
        public var isRequested: Bool { requested.withLock { $0 } }

        func request() {
            requested.withLock { $0 = true }
            wakeup.signal()
        }
    }

    private let stopRequest: Stop
    private let wakeup: WakeupDescriptor
    private var thread: JoinableThread?

    /// Starts `body` on a thread of its own.
    public init(_ body: @escaping @Sendable (Stop) -> Void) throws(Errno) {
        wakeup = try WakeupDescriptor()
        let stop = Stop(wakeup)
        stopRequest = stop
        do throws(Errno) {
            thread = try JoinableThread {
                // The process's signals are the event loop's (a signalfd). A thread
                // started before the loop blocked them would otherwise be one the
                // kernel may pick for SIGTERM, whose default ends the process unsaved.
                var all = sigset_t()
                sigfillset(&all)
                pthread_sigmask(SIG_BLOCK, &all, nil)
                body(stop)
            }
        } catch {
            try? wakeup.descriptor.close()
            throw error
        }
    }

    /// Asks the body to end, waits until it has, and closes the stop descriptor.
    /// Safe to call twice.
    public func stop() {
        guard let thread else { return }
        self.thread = nil
        stopRequest.request()
        thread.join()
        try? wakeup.descriptor.close()
    }

    deinit { stop() }
}
