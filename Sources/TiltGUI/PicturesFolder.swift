// SPDX-License-Identifier: GPL-3.0-or-later
/// Where the player keeps pictures (docs/gui.md, Pictures): `XDG_PICTURES_DIR` as
/// xdg-user-dirs sets it, so the picker opens on the folder the desktop's file manager
/// and photo tools call Pictures, in the player's language.
public enum PicturesFolder {
    /// The environment's `XDG_PICTURES_DIR` when it is absolute, else the one in
    /// `user-dirs.dirs` (its text given as `userDirs`), else `$HOME/Pictures`; nil
    /// without any of them.
    public static func path(environment: [String: String], userDirs: String?) -> String? {
        if let set = environment["XDG_PICTURES_DIR"], set.hasPrefix("/") { return set }
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        if let userDirs, let listed = picturesDirectory(inUserDirs: userDirs, home: home) { return listed }
        return home.map { joined($0, "Pictures") }
    }

    /// The file xdg-user-dirs-update writes: `user-dirs.dirs` in the config home.
    public static func userDirsPath(environment: [String: String]) -> String? {
        ConfigHome.path(environment: environment).map { $0 + "/user-dirs.dirs" }
    }

    /// `XDG_PICTURES_DIR` from the text of a `user-dirs.dirs`, read as xdg-user-dirs'
    /// own lookup reads it (user-dirs.dirs(5)): lines `XDG_PICTURES_DIR="$HOME/Pictures"`,
    /// blanks around the `=` allowed, the value in double quotes, either `$HOME/…` or an
    /// absolute path, a backslash taking the next character as it is; `#` starts a
    /// comment line; any other value is skipped, and the last good line wins. A value of
    /// `"$HOME/"` is the home folder itself, as the lookup gives it (the desktop's way of
    /// saying it has no Pictures folder).
    public static func picturesDirectory(inUserDirs text: String, home: String?) -> String? {
        let name = "XDG_PICTURES_DIR"
        var found: String?
        for line in text.split(whereSeparator: \.isNewline) {
            var rest = line.drop { $0 == " " || $0 == "\t" }
            guard !rest.hasPrefix("#"), rest.hasPrefix(name) else { continue }
            rest = rest.dropFirst(name.count).drop { $0 == " " || $0 == "\t" }
            guard rest.first == "=" else { continue }
            rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
            guard rest.first == "\"" else { continue }
            rest = rest.dropFirst()
            var base: String?
            if rest.hasPrefix("$HOME/") {
                guard let home else { continue }
                base = home
                rest = rest.dropFirst("$HOME".count)
            } else if rest.first != "/" {
                continue
            }
            var value = ""
            var characters = rest.makeIterator()
            while let character = characters.next(), character != "\"" {
                value.append(character == "\\" ? characters.next() ?? character : character)
            }
            if let base {
                let relative = value.drop { $0 == "/" }
                found = relative.isEmpty ? base : joined(base, String(relative))
            } else {
                found = value
            }
        }
        return found
    }

    static func joined(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
