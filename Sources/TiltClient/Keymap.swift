// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltWire

/// A key as the player pressed it: decoded from a terminal's bytes (`play`) or
/// named by the window's toolkit (the graphical board).
public enum Key: Equatable, Sendable {
    case arrow(Direction)
    /// A printable ASCII character.
    case character(Character)
    /// A control character as a terminal sends it (Ctrl-A is 1, Enter is 13).
    case control(UInt8)
    /// Enter, as the window names it.
    case enter
    /// A lone Escape (the window's Back key too).
    case escape
    /// A key neither view decodes (function keys, UTF-8, paste).
    case other
}

/// What the player asked for, by key, button or gesture.
public enum UserAction: Equatable, Sendable {
    case send(Command)
    case toggleFullscreen
    /// New: at once, or asking first when a game is in progress.
    case newGame
    /// The size choice for a new game.
    case chooseSize
    /// The next sensitivity preset (the daemon's settings say which is current).
    case cycleSensitivity
    /// The picture a quarter further round (the daemon's `screen` says where it is).
    case turnScreen
    /// The picture the tiles are cut from, or numbers (the window's picker).
    case choosePicture
    /// The whole picture over the board, until asked again.
    case peek
    /// The window's sounds on and off (a terminal plays none).
    case toggleSound
    case quit

    /// The one keymap of both views (docs/client.md, "Keys"). Letters are
    /// case-blind; `h` and `?` (and `/`, which carries `?` on most keyboards and
    /// is what the window is told for it) ask for a hint. The arrows are the only
    /// keys that slide: nothing else takes their place.
    public init?(key: Key) {
        switch key {
        case .arrow(let direction): self = .send(.tilt(direction))
        case .escape: self = .quit
        case .character(let c):
            switch c.lowercased() {
            case "u": self = .send(.undo)
            case "r": self = .send(.redo)
            case "n": self = .newGame
            case "g": self = .chooseSize
            case "c": self = .send(.calibrate)
            case "h", "?", "/": self = .send(.hint)
            case "s": self = .cycleSensitivity
            case "o": self = .turnScreen
            case "f": self = .toggleFullscreen
            case "p": self = .choosePicture
            case "v": self = .peek
            case "m": self = .toggleSound
            case "q": self = .quit
            default: return nil
            }
        case .control, .enter, .other: return nil
        }
    }
}

extension UserAction {
    /// What `cycleSensitivity` asks for after `settings`: gentle → normal → firm →
    /// gentle; custom angles (set by the command line) and none known go to normal.
    public static func nextSensitivity(after settings: Sensitivity?) -> Sensitivity {
        guard let settings, let preset = Sensitivity.Preset(settings) else { return Sensitivity.Preset.normal.sensitivity }
        return preset.next.sensitivity
    }

    /// What `turnScreen` asks for after the daemon's rotation: a quarter further
    /// counter-clockwise, round and round (from upright when it has not said).
    public static func nextScreen(after rotation: ScreenRotation?) -> ScreenRotation {
        ScreenRotation(degrees: (rotation ?? ScreenRotation.upright).degrees + 90)!
    }
}
