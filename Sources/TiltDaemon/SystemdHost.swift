// SPDX-License-Identifier: GPL-3.0-or-later
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// The installed daemon's host: systemd's protocols (`Systemd`) and the process's
/// signals (SIGTERM and SIGINT stop, SIGHUP reloads).
final class SystemdHost: DaemonHost {
    private let log: Logger
    private var signals: SignalDescriptor?

    init(log: Logger) {
        self.log = log
    }

    var readsConfigurationFile: Bool { true }
    var ownsProcess: Bool { true }

    func passedListeners() -> [(descriptor: FileDescriptor, name: String)] {
        Systemd.listenDescriptors().filter { UnixSocket.isListeningStream($0.descriptor) }
    }

    func watchRequests(on loop: EventLoop, stop: @escaping () -> Void, reload: @escaping () -> Void) throws(Errno) {
        let signals = try SignalDescriptor([SIGTERM, SIGINT, SIGHUP])
        self.signals = signals
        try loop.watch(signals.descriptor, .readable) { [log] _, _ in
            for signal in signals.read() {
                switch signal {
                case SIGHUP: reload()
                default:
                    log.notice("received signal \(signal): stopping")
                    stop()
                }
            }
        }
    }

    var watchdogInterval: Double? { Systemd.watchdogInterval() }

    func notify(_ state: String) { Systemd.notify(state) }
}
