// SPDX-License-Identifier: GPL-3.0-or-later
import TiltClient
import TiltCore
import TiltSystem
import TiltWire

/// The on-screen buttons. Each has a key too, so a keyboard player never needs them.
public enum Control: CaseIterable, Sendable {
    case undo, redo, newGame, size, calibrate, sensitivity, hint, picture, peek, quit

    /// The button's word and, in brackets, its key, which is the same in every language.
    public var label: String { "\(word) (\(key))" }

    /// The key that does what the button does (Keymap).
    public var key: Character {
        switch self {
        case .undo: "u"
        case .redo: "r"
        case .newGame: "n"
        case .size: "g"
        case .calibrate: "c"
        case .hint: "h"
        case .sensitivity: "s"
        case .picture: "p"
        case .peek: "v"
        case .quit: "q"
        }
    }

    /// The button's word, in the player's language.
    public var word: String {
        switch self {
        // TRANSLATORS: the window's buttons: a word each, short (a phone held upright
        // has five buttons in a row); the key in brackets after it is added by the program.
        case .undo: L("Undo")
        case .redo: L("Redo")
        case .newGame: L("New")
        case .size: L("Size")
        case .calibrate: L("Calibrate")
        case .hint: L("Hint")
        case .sensitivity: L("Tilt")
        case .picture: L("Picture")
        case .peek: L("Peek")
        case .quit: L("Quit")
        }
    }
}

/// A button does what its key does (UserAction(key:), the one keymap).
extension UserAction {
    public init(control: Control) {
        switch control {
        case .undo: self = .send(.undo)
        case .redo: self = .send(.redo)
        case .newGame: self = .newGame
        case .size: self = .chooseSize
        case .calibrate: self = .send(.calibrate)
        case .hint: self = .send(.hint)
        case .sensitivity: self = .cycleSensitivity
        case .picture: self = .choosePicture
        case .peek: self = .peek
        case .quit: self = .quit
        }
    }
}
