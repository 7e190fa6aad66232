// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCommandLine
import TiltDevices

public enum DaemonInfo {
    public static let version = ProductVersion.current

    /// The C libraries in use, for `--version` and bug reports.
    public static var libraries: String {
        "libiio \(LibIIO.version), libevdev (\(LibEvdev.eventTypeName(3) ?? "?")), "
            + "libudev \(UdevContext() != nil ? "ok" : "unavailable"), systemd \(Systemd.booted ? "booted" : "not booted")"
    }
}
