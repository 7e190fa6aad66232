// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore

/// A solver's answer: tilts that solve the board, in `Puzzle.tilt`'s convention
/// (each direction is the way the moving tile slides), and whether no shorter
/// sequence exists (docs/solver.md).
public struct Solution: Sendable, Equatable {
    public var directions: [Direction]
    /// True only when the length is proven minimal.
    public var isOptimal: Bool

    public init(directions: [Direction], isOptimal: Bool) {
        self.directions = directions
        self.isOptimal = isOptimal
    }
}
