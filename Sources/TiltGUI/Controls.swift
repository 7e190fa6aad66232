import TiltCore
import TiltWire

/// The on-screen buttons. Each has a key too, so a keyboard player never needs them.
public enum Control: CaseIterable, Sendable {
    case undo, redo, newGame, calibrate, sensitivity, quit

    public var label: String {
        switch self {
        case .undo: "Undo (u)"
        case .redo: "Redo (r)"
        case .newGame: "New (n)"
        case .calibrate: "Calibrate (c)"
        case .sensitivity: "Tilt (s)"
        case .quit: "Quit (q)"
        }
    }
}

/// The keys the window reacts to, as the SDL layer names them.
public enum Key: Equatable, Sendable {
    case arrow(Direction)
    case character(Character)
    case escape
    case other
}

/// What the player asked for, by key, button or gesture.
public enum UserAction: Equatable, Sendable {
    case send(Command)
    case toggleFullscreen
    /// The next sensitivity preset (the scene knows which is current).
    case cycleSensitivity
    case quit

    public init?(key: Key) {
        switch key {
        case .arrow(let direction): self = .send(.tilt(direction))
        case .escape: self = .quit
        case .character(let c):
            switch c.lowercased() {
            case "u": self.init(control: .undo)
            case "r": self.init(control: .redo)
            case "n": self.init(control: .newGame)
            case "c": self.init(control: .calibrate)
            case "s": self.init(control: .sensitivity)
            case "q": self.init(control: .quit)
            case "f": self = .toggleFullscreen
            default: return nil
            }
        case .other: return nil
        }
    }

    public init(control: Control) {
        switch control {
        case .undo: self = .send(.undo)
        case .redo: self = .send(.redo)
        // Same size as now; a fresh shuffle.
        case .newGame: self = .send(.new(size: nil, seed: nil, shuffle: true))
        case .calibrate: self = .send(.calibrate)
        case .sensitivity: self = .cycleSensitivity
        case .quit: self = .quit
        }
    }
}
