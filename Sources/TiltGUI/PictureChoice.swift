// SPDX-License-Identifier: GPL-3.0-or-later
/// What the tiles show (docs/gui.md, Pictures): their numbers, one of the built-in
/// pictures (by name, `BuiltInPictures`), or a picture file of the player's.
import TiltSystem
public enum PictureChoice: Equatable, Hashable, Sendable {
    case numbers
    case builtIn(String)
    case file(String)
}

/// Whether a picture's tiles carry their number in a corner: the player's choice, or
/// the default for the board's size (`shows(side:)`).
public enum NumberCorners: String, Equatable, Sendable, CaseIterable {
    case automatic = "auto"
    case shown = "on"
    case hidden = "off"

    /// From 4×4 on, pieces of sky or sea look alike and a number tells them apart; a
    /// 2×2 or 3×3 picture has pieces big enough to know by their picture alone.
    public func shows(side: Int) -> Bool {
        switch self {
        case .automatic: side >= 4
        case .shown: true
        case .hidden: false
        }
    }
}

extension PictureChoice {
    /// What `--picture` names: `numbers`, a built-in picture by name, else a file, made
    /// absolute from `workingDirectory` so that it still names the file when kept.
    public init(naming text: String, workingDirectory: String) {
        if text == "numbers" {
            self = .numbers
        } else if !text.contains("/"), BuiltInPictures.named(text) != nil {
            self = .builtIn(text)
        } else {
            self = .file(text.hasPrefix("/") ? text : (workingDirectory.hasSuffix("/") ? workingDirectory : workingDirectory + "/") + text)
        }
    }

    /// The name a player knows it by: the built-in picture's title, a file's name.
    public var title: String {
        switch self {
        case .numbers: L("Numbers")
        case .builtIn(let name): BuiltInPictures.named(name)?.title ?? name
        case .file(let path): String(path.split(separator: "/").last ?? Substring(path))
        }
    }
}
