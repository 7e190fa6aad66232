// SPDX-License-Identifier: GPL-3.0-or-later
/// The game: a board, its move counter and its undo history (docs/puzzle.md).
///
/// Every method that changes the arrangement returns the moves it made, one per
/// tile, in order; an illegal request changes nothing, returns no moves and
/// records no history. New game, shuffle and restore start a fresh history.
public struct Puzzle: Equatable, Sendable {
    public private(set) var board: Board
    /// Legal moves made since the game started; undo counts −1, redo +1.
    public private(set) var moves: Int = 0
    public private(set) var history: History

    /// A solved game.
    public init(side: Int = 4, undoLimit: Int = History.defaultLimit) {
        board = Board(side: side)
        history = History(limit: undoLimit)
    }

    /// A game from a given position (to practise or to share): no moves, no history.
    public init(board: Board, undoLimit: Int = History.defaultLimit) {
        self.board = board
        history = History(limit: undoLimit)
    }

    public var side: Int { board.side }
    public var isSolved: Bool { board.isSolved }
    public var canUndo: Bool { history.canUndo }
    public var canRedo: Bool { history.canRedo }

    // MARK: Actions (each is one undo group)

    /// Tilting the device slides the neighbouring tile into the empty cell.
    @discardableResult
    public mutating func tilt(_ direction: Direction) -> [Move] {
        perform(Action(direction: direction))
    }

    /// Moves the tile at `index` one cell in `direction`; legal only if the empty cell is there.
    @discardableResult
    public mutating func move(index: Int, direction: Direction) -> [Move] {
        guard board.tileIndex(tilting: direction) == index else { return [] }
        return perform(Action(direction: direction))
    }

    /// Slides the tile at `index` and every tile between it and the empty cell one
    /// step towards the empty cell (same row or column only).
    @discardableResult
    public mutating func slide(index: Int) -> [Move] {
        guard let path = board.slidePath(from: index) else { return [] }
        return perform(Action(direction: path.direction, count: path.count))
    }

    private mutating func perform(_ action: Action) -> [Move] {
        let made = apply(action, countDelta: 1)
        if !made.isEmpty { history.record(action) }
        return made
    }

    // MARK: History

    /// Reverts the last action: the state before it, counter included.
    @discardableResult
    public mutating func undo() -> [Move] {
        guard let action = history.popUndo() else { return [] }
        return apply(action.reversed, countDelta: -1)
    }

    /// Performs the last undone action again: the state after it.
    @discardableResult
    public mutating func redo() -> [Move] {
        guard let action = history.popRedo() else { return [] }
        return apply(action, countDelta: 1)
    }

    /// Applies `action` tile by tile; stops at the first illegal step.
    /// Only actions checked against the board (or history entries, which were) get here.
    private mutating func apply(_ action: Action, countDelta: Int) -> [Move] {
        var made: [Move] = []
        made.reserveCapacity(action.count)
        for _ in 0..<action.count {
            guard let move = board.tilt(action.direction) else { break }
            moves += countDelta
            made.append(move)
        }
        return made
    }

    // MARK: Games

    /// Shuffles by legal moves from the current arrangement; the result is never solved.
    /// The counter restarts at 0 and the history is cleared.
    public mutating func shuffle(seed: UInt64) {
        board = Shuffler.shuffled(board, seed: seed)
        moves = 0
        history = History(limit: history.limit)
    }

    /// A new solved game of `side`, optionally shuffled; a fresh history.
    public static func newGame(side: Int, seed: UInt64?, undoLimit: Int = History.defaultLimit) -> Puzzle {
        var puzzle = Puzzle(side: side, undoLimit: undoLimit)
        if let seed { puzzle.shuffle(seed: seed) }
        return puzzle
    }
}

extension Action {
    /// The action that undoes this one.
    public var reversed: Action { Action(direction: direction.opposite, count: count) }
}

// MARK: - Persistence

// The saved game's file format is `SavedGame`'s (TiltDaemon), its one codec; this is
// the check it asks of the core.
extension Puzzle {
    public enum RestoreError: Error, Equatable, CustomStringConvertible {
        case badMoves, historyDoesNotFit

        public var description: String {
            switch self {
            case .badMoves: "move counter is negative"
            case .historyDoesNotFit: "undo history does not fit the board"
            }
        }
    }

    /// Restores a saved game, checking that it could have been reached by play:
    /// a solvable board, and every undo and redo entry legal from where it applies.
    public init(board: Board, moves: Int, history: History) throws(RestoreError) {
        guard moves >= 0 else { throw .badMoves }
        self.board = board
        self.moves = moves
        self.history = history
        var probe = self
        while probe.canUndo { guard probe.undoFits() else { throw .historyDoesNotFit } }
        probe = self
        while probe.canRedo { guard probe.redoFits() else { throw .historyDoesNotFit } }
    }

    private mutating func undoFits() -> Bool {
        let expected = history.nextUndo?.count ?? 0
        return undo().count == expected && moves >= 0
    }

    private mutating func redoFits() -> Bool {
        let expected = history.nextRedo?.count ?? 0
        return redo().count == expected
    }
}
