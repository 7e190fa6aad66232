// SPDX-License-Identifier: GPL-3.0-or-later
/// The folder a user's settings go in, by the XDG base-directory rule: the settings
/// file and xdg-user-dirs' `user-dirs.dirs` are both looked for there.
public enum ConfigHome {
    /// `$XDG_CONFIG_HOME`, else `~/.config`; nil without either. The spec says a
    /// relative `XDG_CONFIG_HOME` is invalid and to be ignored (as FirstStart does for
    /// `XDG_STATE_HOME`): a relative one would land in whatever folder the window was
    /// started from.
    public static func path(environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return (home.hasSuffix("/") ? home : home + "/") + ".config"
    }
}
