// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltWire

/// Turns a press and a release (a finger or the mouse) into what the player meant:
/// a tap on a tile in the empty cell's row or column slides it (and the tiles
/// between it and the gap) — the protocol's `slide`; a swipe that starts on a tile
/// moves that tile one cell the way of the swipe — `move`; a tap on a button is
/// that button. The daemon decides whether a move is legal; a swipe that cannot
/// move comes back as "nothing moved" and the window bumps. A tap on a tile that no
/// slide can reach the gap from is known to be useless here, so it is answered at
/// once (the tile shakes) without asking the daemon.
public struct GestureRecognizer: Sendable {
    /// A swipe is a move of at least this share of a cell; anything shorter is a tap.
    public static let swipeThreshold = 0.3

    public enum Outcome: Equatable, Sendable {
        case command(Command)
        case control(Control)
        /// A tap on the tile in this cell, which is not in the gap's row or column.
        case cannotMove(index: Int)
    }

    private struct Press {
        var pointer: Int64
        var start: Point
    }
    private var press: Press?

    public init() {}

    /// A finger or button went down. A second finger while one is down is ignored,
    /// so resting a palm on the tablet does not confuse a swipe.
    public mutating func pointerDown(_ pointer: Int64, at point: Point) {
        guard press == nil else { return }
        press = Press(pointer: pointer, start: point)
    }

    /// The gesture was taken away (the window lost focus, the finger left the window).
    public mutating func cancel() { press = nil }

    /// A finger or button came up: what it meant on `layout`, with the empty cell at `empty`.
    public mutating func pointerUp(_ pointer: Int64, at end: Point, layout: Layout, empty: Int?) -> Outcome? {
        guard let press, press.pointer == pointer else { return nil }
        self.press = nil
        if let control = layout.control(at: press.start) {
            return layout.control(at: end) == control ? .control(control) : nil
        }
        guard let index = layout.cellIndex(at: press.start), let empty, index != empty else { return nil }
        let dx = end.x - press.start.x
        let dy = end.y - press.start.y
        if max(abs(dx), abs(dy)) >= Self.swipeThreshold * layout.cellSize {
            let direction: Direction = abs(dx) >= abs(dy) ? (dx > 0 ? .right : .left) : (dy > 0 ? .down : .up)
            return .command(.move(index: index, direction: direction))
        }
        let side = layout.side
        guard index / side == empty / side || index % side == empty % side else { return .cannotMove(index: index) }
        return .command(.slide(index: index))
    }
}
