// SPDX-License-Identifier: GPL-3.0-or-later
/// A direction on the board as the player sees it: the way a tile slides.
public enum Direction: String, CaseIterable, Sendable, Codable, CustomStringConvertible {
    case up, down, left, right

    public var opposite: Direction {
        switch self {
        case .up: .down
        case .down: .up
        case .left: .right
        case .right: .left
        }
    }

    public var description: String { rawValue }

    /// One letter, used by the compact history encoding.
    var letter: Character {
        switch self {
        case .up: "u"
        case .down: "d"
        case .left: "l"
        case .right: "r"
        }
    }

    init?(letter: Character) {
        switch letter {
        case "u": self = .up
        case "d": self = .down
        case "l": self = .left
        case "r": self = .right
        default: return nil
        }
    }
}
