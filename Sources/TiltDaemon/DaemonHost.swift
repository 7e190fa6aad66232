// SPDX-License-Identifier: GPL-3.0-or-later
import TiltSystem

/// What the daemon takes from the program it runs in: the installed daemon's host is
/// the service manager and a process of its own (`SystemdHost`); the demo's embedded
/// daemon's (`EmbeddedHost`) leaves the process's signals, systemd and configuration
/// to the program around it. The daemon asks the host, never which one it has.
protocol DaemonHost: AnyObject {
    /// Whether the configuration file is read; if not, the defaults and the options.
    var readsConfigurationFile: Bool { get }
    /// The process is the daemon's: it may raise the descriptor limit and watch udev.
    var ownsProcess: Bool { get }
    /// The listening sockets the host passes (socket activation); none: the daemon listens itself.
    func passedListeners() -> [(descriptor: FileDescriptor, name: String)]
    /// Registers on `loop` what asks the daemon to stop or to reload its configuration.
    func watchRequests(on loop: EventLoop, stop: @escaping () -> Void, reload: @escaping () -> Void) throws(Errno)
    /// Seconds within which the host expects a `WATCHDOG=1`, if it watches the daemon.
    var watchdogInterval: Double? { get }
    /// Tells the host the daemon's state (`READY=1`, `STATUS=…`, sd_notify(3)'s words).
    func notify(_ state: String)
}
