// SPDX-License-Identifier: GPL-3.0-or-later
import TiltClient
import TiltCore
import TiltWire

/// The on-screen buttons. Each has a key too, so a keyboard player never needs them.
public enum Control: CaseIterable, Sendable {
    case undo, redo, newGame, size, calibrate, sensitivity, hint, picture, peek, quit

    public var label: String {
        switch self {
        case .undo: "Undo (u)"
        case .redo: "Redo (r)"
        case .newGame: "New (n)"
        case .size: "Size (g)"
        case .calibrate: "Calibrate (c)"
        case .hint: "Hint (h)"
        case .sensitivity: "Tilt (s)"
        case .picture: "Picture (p)"
        case .peek: "Peek (v)"
        case .quit: "Quit (q)"
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
