// SPDX-License-Identifier: GPL-3.0-or-later
/// One user action as the history records it: `count` tiles slid one cell each in
/// `direction` (a tilt or a move command is 1, a slide up to side−1).
///
/// Every action is a straight run of tilts in one direction, so two small numbers
/// describe it, and undo is the same run in the opposite direction.
public struct Action: Equatable, Hashable, Sendable {
    public var direction: Direction
    public var count: Int

    public init(direction: Direction, count: Int = 1) {
        precondition(count >= 1)
        self.direction = direction
        self.count = count
    }
}

/// Undo and redo (docs/puzzle.md, Undo and redo): one entry per user action, a bounded number
/// of undo levels, and a new action after an undo discards the redo branch.
///
/// The history only stores actions; `Puzzle` applies them. Actions are atomic, so
/// there is never an open group to undo inside.
public struct History: Equatable, Sendable {
    public static let defaultLimit = 1000

    public let limit: Int
    private var undoStack: BoundedStack<Action>
    private var redoStack: [Action] = []

    public init(limit: Int = History.defaultLimit) {
        precondition(limit >= 0)
        self.limit = limit
        self.undoStack = BoundedStack(limit: limit)
    }

    public var canUndo: Bool { !undoStack.isEmpty }
    public var canRedo: Bool { !redoStack.isEmpty }
    public var undoCount: Int { undoStack.count }
    public var redoCount: Int { redoStack.count }

    /// Records a performed action; the redo branch is gone.
    mutating func record(_ action: Action) {
        undoStack.push(action)
        redoStack.removeAll()
    }

    /// The action to revert, moved onto the redo stack.
    mutating func popUndo() -> Action? {
        guard let action = undoStack.pop() else { return nil }
        redoStack.append(action)
        return action
    }

    /// The action to perform again, moved back onto the undo stack.
    mutating func popRedo() -> Action? {
        guard let action = redoStack.popLast() else { return nil }
        undoStack.push(action)
        return action
    }

    public var nextUndo: Action? { undoStack.last }
    public var nextRedo: Action? { redoStack.last }

    /// Undoable actions, oldest first.
    public var undoActions: [Action] { undoStack.elements }
    /// Redoable actions, the next redo last.
    public var redoActions: [Action] { redoStack }

    /// A history restored from saved stacks; the caller validates them against its board.
    public init(limit: Int, undo: [Action], redo: [Action]) {
        self.init(limit: limit)
        for action in undo { undoStack.push(action) }
        redoStack = redo
    }
}

// MARK: - Compact text form

extension Action {
    /// `r`, `d3`: the direction's letter, then the count when it is more than one.
    public var token: String { count == 1 ? String(direction.letter) : "\(direction.letter)\(count)" }

    /// Parses a run of tokens such as `rdr3u`; nil if any is malformed.
    public static func parse(tokens text: String) -> [Action]? {
        var actions: [Action] = []
        var iterator = text.makeIterator()
        var pending = iterator.next()
        while let letter = pending {
            guard let direction = Direction(letter: letter) else { return nil }
            var digits = ""
            pending = iterator.next()
            while let c = pending, c.isASCII, c.isNumber {
                digits.append(c)
                pending = iterator.next()
            }
            let count = digits.isEmpty ? 1 : Int(digits) ?? 0
            guard count >= 1, count < Board.sides.upperBound else { return nil }
            actions.append(Action(direction: direction, count: count))
        }
        return actions
    }
}
