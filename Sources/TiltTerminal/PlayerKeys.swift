import TiltCore
import TiltWire

/// What the player's keys mean: arrow keys slide a tile that way, u undo, r redo,
/// n new game, c calibrate, q quit. A new game throws away one in progress, so
/// it asks first.
public struct PlayerKeys: Sendable {
    public enum Outcome: Equatable, Sendable {
        case send(Command)
        case quit
        /// Show this to the player and wait for the next key.
        case ask(String)
        case ignore
    }

    public static let help = "arrows, h j k l: slide   u: undo   r: redo   n: new   c: calibrate   q: quit"

    private var confirmingNewGame = false

    public init() {}

    /// The outcome of `key` for the game as it is now.
    public mutating func handle(_ key: Key, game: GameState?) -> Outcome {
        let confirming = confirmingNewGame
        confirmingNewGame = false
        switch key {
        case .arrow(let direction):
            return .send(.tilt(direction))
        case .character(let character):
            switch character {
            case "h": return .send(.tilt(.left))
            case "j": return .send(.tilt(.down))
            case "k": return .send(.tilt(.up))
            case "l": return .send(.tilt(.right))
            case "u": return .send(.undo)
            case "r": return .send(.redo)
            case "c": return .send(.calibrate)
            case "q", "Q": return .quit
            case "n":
                let inProgress = game.map { $0.moves > 0 && !$0.solved } ?? false
                guard confirming || !inProgress else {
                    confirmingNewGame = true
                    return .ask("start a new game? press n again (any other key keeps this one)")
                }
                return .send(.new(size: game?.size, seed: nil, shuffle: true))
            default:
                return .ignore
            }
        case .control, .escape, .other:
            return .ignore
        }
    }
}
