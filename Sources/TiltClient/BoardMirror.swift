// SPDX-License-Identifier: GPL-3.0-or-later
import TiltWire

/// A client's copy of the daemon's board, kept current from `state` and `move`
/// events (and its records from `solved`). A gap in the revisions means a missed event: the mirror asks for a
/// fresh `state` instead of guessing.
public struct BoardMirror: Equatable, Sendable {
    public private(set) var state: GameState?

    public init() {}

    public enum Outcome: Equatable, Sendable {
        case updated
        case unchanged
        /// Revisions skipped: the caller should request `state`.
        case needsState
    }

    public mutating func apply(_ message: ServerMessage) -> Outcome {
        switch message {
        case .state(let new):
            state = new
            return .updated
        case .move(let revision, let move, _, let moves, let solved, let canUndo, let canRedo):
            guard var current = state else { return .needsState }
            guard revision == current.revision + 1, move.to == current.empty,
                  current.board.indices.contains(move.from), current.board.indices.contains(move.to) else {
                return revision <= current.revision ? .unchanged : .needsState
            }
            current.board.swapAt(move.from, move.to)
            current.empty = move.from
            current.revision = revision
            current.moves = moves
            current.solved = solved
            current.canUndo = canUndo
            current.canRedo = canRedo
            state = current
            return .updated
        case .solved(let revision, let moves, let time, let news):
            // A record the solve set is the daemon's from now on (docs/protocol.md,
            // `solved`): the next `state` would carry it, and a later solve shows it.
            guard var current = state, revision == current.revision, news.bestTime || news.fewestMoves else {
                return .unchanged
            }
            var record = current.best ?? SizeRecord(size: current.size, bestTime: time, fewestMoves: moves)
            if news.bestTime { record.bestTime = time }
            if news.fewestMoves { record.fewestMoves = moves }
            current.records = (current.records.filter { $0.size != current.size } + [record]).sorted { $0.size < $1.size }
            state = current
            return .updated
        default:
            return .unchanged
        }
    }
}
