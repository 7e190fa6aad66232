// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltWire

/// The hint a player asked for, kept in step with the board (docs/client.md, "Hints"):
/// while the player follows it, each move takes its first step off and the next tile
/// is shown; any other change (another move, a new game) puts it away. The terminal
/// player and the window both use it.
public struct HintTracker: Equatable, Sendable {
    /// The hint as it stands now: its `revision` is the board it is for.
    public private(set) var hint: Hint?
    /// The request id of a hint asked for and not answered yet.
    public private(set) var waitingFor: Int?

    public init() {}

    /// A hint was requested as `id`.
    public mutating func asked(id: Int) {
        waitingFor = id
    }

    /// Takes in a daemon message, after `mirror` applied it. True when what is shown changed.
    @discardableResult
    public mutating func apply(_ message: ServerMessage, mirror: GameState?) -> Bool {
        switch message {
        case .hint(let id, let answer) where id?.int != nil && id?.int == waitingFor:
            waitingFor = nil
            hint = answer
            catchUp(mirror)
            return true
        case .error(let id, _, _) where id?.int != nil && id?.int == waitingFor:
            waitingFor = nil
            return false
        case .move(let revision, let move, _, _, _, _, _):
            guard var current = hint else { return false }
            if revision == current.revision + 1, current.solution.first == move.direction {
                current.solution.removeFirst()
                current.revision = revision
                hint = current
            } else if revision > current.revision {
                hint = nil
            }
            return true
        case .state(let state):
            guard let current = hint, state.revision != current.revision else { return false }
            hint = nil
            return true
        default:
            return false
        }
    }

    /// A hint for an older board than the one shown (the daemon thought while tiles
    /// moved) is of no use: it is dropped, unless the board is the one it is for.
    private mutating func catchUp(_ mirror: GameState?) {
        guard let current = hint, let mirror, mirror.revision != current.revision else { return }
        hint = nil
    }

    /// Puts the hint away (the player dismissed it).
    public mutating func clear() {
        hint = nil
    }

    /// The cell of the tile to slide next on `state`, when the hint is for that board.
    public func highlightedCell(on state: GameState?) -> Int? {
        guard let hint, let state, state.revision == hint.revision, let first = hint.solution.first,
              let board = Board(side: state.size, cells: state.board) else { return nil }
        return board.tileIndex(tilting: first)
    }
}
