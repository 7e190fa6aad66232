import CSystemd
import TiltSystem

/// The libsystemd wrapper: the only file that imports CSystemd.
public enum Systemd {
    /// Sends a notification (`READY=1`, `STATUS=…`, `WATCHDOG=1`) when the service
    /// manager asked for them (NOTIFY_SOCKET set); false otherwise.
    @discardableResult
    public static func notify(_ state: String) -> Bool {
        sd_notify(0, state) > 0
    }

    /// Whether this system was booted with systemd.
    public static var booted: Bool { sd_booted() > 0 }

    /// Sockets passed by socket activation (LISTEN_FDS), removed from the
    /// environment so children do not inherit them.
    public static func listenDescriptors() -> [FileDescriptor] {
        let count = sd_listen_fds(1)
        guard count > 0 else { return [] }
        return (0..<count).map { FileDescriptor(rawValue: SD_LISTEN_FDS_START + $0) }
    }

    /// The watchdog interval in seconds when the service manager expects pings.
    public static func watchdogInterval() -> Double? {
        var microseconds: UInt64 = 0
        guard sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 else { return nil }
        return Double(microseconds) / 1e6
    }
}
