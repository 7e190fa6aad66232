// SPDX-License-Identifier: GPL-3.0-or-later
import TiltClient
import TiltCore
import TiltSystem
import TiltWire

/// What the player's keys do in `play`: the one keymap (`UserAction(key:)`,
/// docs/client.md, "Keys"), with what a terminal cannot do left out (full screen,
/// the size question, sound) and a new game asked for twice while one is in progress.
public struct PlayerKeys: Sendable {
    public enum Outcome: Equatable, Sendable {
        case send(Command)
        case quit
        /// Show this to the player and wait for the next key.
        case ask(String)
        case ignore
    }

    // TRANSLATORS: the keys of the terminal player, on one line of 80 columns; the keys stay.
    public static var help: String { L("arrows: slide  u/r: undo/redo  n: new  c: calibrate  s: tilt  h ?: hint  q: quit") }

    private var confirmingNewGame = false

    public init() {}

    /// The outcome of `key` for the game as it is now, with the daemon's `settings` and `screen`.
    public mutating func handle(_ key: Key, game: GameState?, settings: Sensitivity? = nil,
                                screen: ScreenRotation? = nil) -> Outcome {
        let confirming = confirmingNewGame
        confirmingNewGame = false
        // A terminal sends Escape first in every arrow key's code, so a lone one is
        // only told apart by the key after it: it quits in the window, not here.
        guard key != .escape, let action = UserAction(key: key) else { return .ignore }
        switch action {
        case .send(let command):
            return .send(command)
        case .quit:
            return .quit
        case .cycleSensitivity:
            let next = UserAction.nextSensitivity(after: settings)
            return .send(.configure(trigger: next.trigger, release: next.release))
        case .turnScreen:
            return .send(.screen(UserAction.nextScreen(after: screen)))
        case .newGame:
            let inProgress = game.map { $0.moves > 0 && !$0.solved } ?? false
            guard confirming || !inProgress else {
                confirmingNewGame = true
                return .ask(L("start a new game? press n again (any other key keeps this one)"))
            }
            return .send(.new(size: game?.size, seed: nil, shuffle: true))
        case .chooseSize, .toggleFullscreen, .choosePicture, .peek, .toggleSound:
            return .ignore
        }
    }
}
