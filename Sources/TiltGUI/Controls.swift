import TiltCore
import TiltWire

/// The on-screen buttons. Each has a key too, so a keyboard player never needs them.
public enum Control: CaseIterable, Sendable {
    case undo, redo, newGame, size, calibrate, sensitivity, hint, quit

    public var label: String {
        switch self {
        case .undo: "Undo (u)"
        case .redo: "Redo (r)"
        case .newGame: "New (n)"
        case .size: "Size (g)"
        case .calibrate: "Calibrate (c)"
        case .hint: "Hint (h)"
        case .sensitivity: "Tilt (s)"
        case .quit: "Quit (q)"
        }
    }
}

/// The keys the window reacts to, as the SDL layer names them.
public enum Key: Equatable, Sendable {
    case arrow(Direction)
    case character(Character)
    case enter
    case escape
    case other
}

/// What the player asked for, by key, button or gesture.
public enum UserAction: Equatable, Sendable {
    case send(Command)
    case toggleFullscreen
    /// New: at once, or asking first when a game is in progress (NewGameDialog).
    case newGame
    /// The size choice for a new game.
    case chooseSize
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
            // h, or the key that carries ? (SDL names it by its unshifted /), as in play.
            case "h", "/", "?": self.init(control: .hint)
            case "s": self.init(control: .sensitivity)
            case "g": self.init(control: .size)
            case "q": self.init(control: .quit)
            case "f": self = .toggleFullscreen
            default: return nil
            }
        case .enter, .other: return nil
        }
    }

    public init(control: Control) {
        switch control {
        case .undo: self = .send(.undo)
        case .redo: self = .send(.redo)
        case .newGame: self = .newGame
        case .size: self = .chooseSize
        case .calibrate: self = .send(.calibrate)
        case .hint: self = .send(.hint)
        case .sensitivity: self = .cycleSensitivity
        case .quit: self = .quit
        }
    }
}
