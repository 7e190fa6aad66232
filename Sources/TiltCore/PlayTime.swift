// SPDX-License-Identifier: GPL-3.0-or-later
/// Play time as every view shows it (docs/client.md): whole seconds as a clock,
/// `0:02`, `12:34`, `1:02:05`.
public enum PlayTime {
    public static func text(_ seconds: Double) -> String {
        let total = seconds.isFinite ? max(0, Int(seconds)) : 0
        func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let minutes = total / 60 % 60
        let hours = total / 3600
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(total % 60))" : "\(minutes):\(twoDigits(total % 60))"
    }
}
