// SPDX-License-Identifier: GPL-3.0-or-later
/// One tile moving one cell: from `from` into the empty cell at `to`.
public struct Move: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var from: Int
    public var to: Int
    /// The way the tile moved.
    public var direction: Direction

    public init(from: Int, to: Int, direction: Direction) {
        self.from = from
        self.to = to
        self.direction = direction
    }

    public var description: String { "(\(from)→\(to))" }
}

/// Why a move happened; carried to clients so they can animate undo differently.
public enum MoveCause: String, Sendable, Codable, CaseIterable {
    case tilt, command, undo, redo
}
