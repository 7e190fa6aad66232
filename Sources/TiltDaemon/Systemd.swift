import CSystemd

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
}
