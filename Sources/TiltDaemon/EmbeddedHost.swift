// SPDX-License-Identifier: GPL-3.0-or-later
import TiltSystem

/// The host of a daemon inside another program (`EmbeddedDaemon`): the defaults for
/// a configuration, its own socket, no service manager, and a stop when `stop` is
/// signalled. The process's signals and systemd's variables are the program's.
final class EmbeddedHost: DaemonHost {
    private let stopRequest: WakeupDescriptor

    init(stop: WakeupDescriptor) {
        stopRequest = stop
    }

    var readsConfigurationFile: Bool { false }
    var ownsProcess: Bool { false }
    func passedListeners() -> [(descriptor: FileDescriptor, name: String)] { [] }

    func watchRequests(on loop: EventLoop, stop: @escaping () -> Void, reload: @escaping () -> Void) throws(Errno) {
        try loop.watch(stopRequest.descriptor, .readable) { _, _ in stop() }
    }

    var watchdogInterval: Double? { nil }
    func notify(_ state: String) {}
}
