// SPDX-License-Identifier: GPL-3.0-or-later
import TiltSystem

/// A daemon inside another program, on a thread of its own: the demo runs one, so
/// it needs no second executable and exercises the same loop, hub and sources.
public final class EmbeddedDaemon {
    public let socketPath: String
    private let stopper: WakeupDescriptor
    private var thread: JoinableThread?

    /// The daemon moves to its thread once built; nothing else touches it after that.
    private final class Handoff: @unchecked Sendable {
        let daemon: Daemon
        init(_ daemon: Daemon) { self.daemon = daemon }
    }

    /// Listens on `options.socketPath` once this returns; runs until `stop()`.
    public init(options: DaemonOptions, log: Logger) throws(Daemon.StartError) {
        socketPath = options.socketPath
        do throws(Errno) {
            stopper = try WakeupDescriptor()
        } catch {
            throw Daemon.StartError(message: "cannot make the stop descriptor: \(error)")
        }
        let handoff = Handoff(try Daemon(options: options, log: log, host: EmbeddedHost(stop: stopper)))
        do throws(Errno) {
            thread = try JoinableThread { _ = handoff.daemon.run() }
        } catch {
            throw Daemon.StartError(message: "cannot start the daemon's thread: \(error)")
        }
    }

    /// Stops the daemon (the game saved, the socket removed) and waits for it.
    public func stop() {
        guard let thread else { return }
        stopper.signal()
        thread.join()
        self.thread = nil
        try? stopper.descriptor.close()
    }

    deinit { stop() }
}
