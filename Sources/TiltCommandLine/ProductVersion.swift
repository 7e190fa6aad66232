// SPDX-License-Identifier: GPL-3.0-or-later
/// The version of tiltpuzzle: every program prints it, the daemon greets clients with
/// it. The one place it is written (the Debian changelog names the same).
public enum ProductVersion {
    public static let current = "0.1.0"

    /// The license, as every program's `--version` states it in one line, as GNU
    /// programs do (COPYING holds its text).
    public static let license = "License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>."
}
