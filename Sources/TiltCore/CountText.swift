// SPDX-License-Identifier: GPL-3.0-or-later
/// A count with its noun agreeing in number: "1 move", "2 moves", "0 moves". Every
/// view says counts this way.
public enum CountText {
    public static func text(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? noun : plural ?? noun + "s")
    }
}
