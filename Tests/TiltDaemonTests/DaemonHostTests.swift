// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import TiltDaemon
import TiltSystem

/// The daemon asks its host, not a mode: what it notifies, and when it stops.
@Suite struct DaemonHostTests {
    /// A host that records what the daemon tells it and stops it when `stop` is signalled.
    final class RecordingHost: DaemonHost, @unchecked Sendable {
        let stop: WakeupDescriptor
        let notifications = Locked<[String]>([])
        let watchdogInterval: Double? = nil

        init() throws {
            stop = try WakeupDescriptor()
        }

        deinit { try? stop.descriptor.close() }

        var readsConfigurationFile: Bool { false }
        var ownsProcess: Bool { false }
        func passedListeners() -> [(descriptor: FileDescriptor, name: String)] { [] }

        func watchRequests(on loop: EventLoop, stop: @escaping () -> Void, reload: @escaping () -> Void) throws(Errno) {
            try loop.watch(self.stop.descriptor, .readable) { _, _ in stop() }
        }

        func notify(_ state: String) { notifications.withLock { $0.append(state) } }
    }

    /// The daemon moves to its thread once built; nothing else touches it after that.
    final class Handoff: @unchecked Sendable {
        let daemon: Daemon
        var status: Int32?
        init(_ daemon: Daemon) { self.daemon = daemon }
    }

    @Test func itTellsItsHostItIsReadyAndStopsWhenTheHostAsks() throws {
        let folder = try TemporaryDirectory(prefix: "tiltpuzzle-host")
        defer { folder.remove() }
        let options = DaemonOptions(socketPath: folder.path + "/daemon.sock", stateDirectory: folder.path + "/state",
                                    source: "none", replaySpeed: .max)
        let host = try RecordingHost()
        let handoff = Handoff(try Daemon(options: options, log: Logger(level: .error) { _ in }, host: host))
        // Asked before it runs: the stop is waiting for it on its first round.
        host.stop.signal()
        let thread = try JoinableThread { handoff.status = handoff.daemon.run() }
        thread.join()
        #expect(handoff.status == 0)
        // The sensor's status is told as soon as it is known, before and after READY=1.
        let status = "STATUS=sensor disabled, 0 client(s)"
        #expect(host.notifications.withLock { $0 } == [status, "READY=1", status, "STOPPING=1"])
    }
}
