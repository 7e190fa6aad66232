// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
#if canImport(Glibc)
import Glibc
#endif

/// What the board shows while the daemon's moves play out: a tile slides, it does
/// not jump. Moves are queued and played one after another, in order; none is
/// skipped. A slide on its own takes `slideDuration` with an ease-out. Each move
/// that arrives sets a deadline one `slideDuration` later by which the whole queue
/// should have played, and the queued slides share the time left equally: when
/// moves come faster than they can be shown (a row slid at once, a key held down)
/// every slide speeds up, instead of the board falling further and further behind.
/// A slide never gets shorter than `minimumSlideFrames` frames, so each is drawn at
/// least once on its way; only a burst too big for that lags longer.
///
/// The animator has no clock: the event loop tells it how much time passed.
public struct Animator: Sendable {
    public static let slideDuration = 0.12
    public static let minimumSlideFrames = 2.0
    public static let bumpDuration = 0.16
    /// How far an illegal tilt pushes the board, in cells.
    public static let bumpDistance = 0.12
    /// A tapped tile that cannot move shakes sideways this long, this far (in cells)
    /// and this many times: a "no" that is over before the next tap.
    public static let nudgeDuration = 0.24
    public static let nudgeDistance = 0.08
    public static let nudgeShakes = 2.0

    public struct Slide: Equatable, Sendable {
        public var tile: Int
        public var from: Int
        public var to: Int
        public var direction: Direction
    }

    /// A tile and where to draw it, in (fractional) cells.
    public struct Placement: Equatable, Sendable {
        public var tile: Int
        public var row: Double
        public var column: Double
    }

    public private(set) var side: Int
    /// The board as drawn at rest: every finished slide applied.
    public private(set) var board: [Int]
    /// The board once every queued slide has played: what the daemon has now.
    public private(set) var target: [Int]
    /// One frame at the display's refresh rate.
    public var frameInterval: Double
    private var queue: [Slide] = []
    /// The current slide's linear progress, 0…1.
    private var progress = 0.0
    /// Time advanced so far, and when the queue should have played to its end.
    private var clock = 0.0
    private var deadline = 0.0
    private var bump: (direction: Direction, elapsed: Double)?
    /// The cell whose tile shakes, and for how long it has.
    private var nudge: (index: Int, elapsed: Double)?

    public init(board: [Int], side: Int, frameInterval: Double = 1.0 / 60) {
        self.side = side
        self.board = board
        self.target = board
        self.frameInterval = frameInterval
    }

    public var emptyValue: Int { side * side - 1 }
    public var isAnimating: Bool { !queue.isEmpty || bump != nil || nudge != nil }
    public var pendingSlides: Int { queue.count }
    public var current: Slide? { queue.first }
    /// The current slide's eased progress, 0…1.
    public var currentProgress: Double { Self.easeOut(progress) }

    /// Shows `board` at once, dropping whatever was still playing: for a new game
    /// or a fresh `state` after a gap.
    public mutating func reset(board: [Int], side: Int) {
        self.side = side
        self.board = board
        target = board
        queue.removeAll()
        progress = 0
        deadline = clock
        bump = nil
        nudge = nil
    }

    /// Queues the tile at `move.from` sliding into the empty cell at `move.to`.
    /// False, queuing nothing, when the move does not fit the board we know: the
    /// caller has missed something and should ask for the state.
    @discardableResult
    public mutating func enqueue(_ move: Move) -> Bool {
        guard target.indices.contains(move.from), target.indices.contains(move.to),
              target[move.to] == emptyValue, target[move.from] != emptyValue else { return false }
        queue.append(Slide(tile: target[move.from], from: move.from, to: move.to, direction: move.direction))
        target.swapAt(move.from, move.to)
        deadline = max(deadline, clock + Self.slideDuration)
        return true
    }

    /// The board nudges towards `direction` and back: a tilt that could not move anything.
    public mutating func bump(_ direction: Direction) {
        bump = (direction, 0)
    }

    /// The tile in cell `index` (of the board at rest) shakes: a tap that cannot move it.
    public mutating func nudge(at index: Int) {
        guard board.indices.contains(index), board[index] != emptyValue else { return }
        nudge = (index, 0)
    }

    /// How far the nudged tile is off its cell now, in cells (x right); nil when none shakes.
    public var nudgeOffset: (index: Int, x: Double)? {
        guard let nudge else { return nil }
        // A sine that dies away: 0 at the start, back at 0 at the end.
        let t = min(1, nudge.elapsed / Self.nudgeDuration)
        return (nudge.index, Self.nudgeDistance * (1 - t) * sin(2 * Double.pi * Self.nudgeShakes * t))
    }

    /// How long the current slide takes: its share of the time to the deadline.
    public var currentSlideDuration: Double {
        let work = max(Double(queue.count) - progress, 1e-9)
        let share = (deadline - clock) / work
        return min(Self.slideDuration, max(Self.minimumSlideFrames * frameInterval, share))
    }

    /// Time until every queued slide has played, at the present pace: how far the
    /// board lags behind the daemon.
    public var remainingTime: Double {
        (Double(queue.count) - progress) * currentSlideDuration
    }

    /// Moves the animations on by `seconds`. Time left over when a slide ends goes
    /// to the next one, so a late frame does not slow the queue down.
    public mutating func advance(by seconds: Double) {
        var left = max(0, seconds)
        while left > 0, let slide = queue.first {
            let duration = currentSlideDuration
            let needed = (1 - progress) * duration
            if left < needed {
                progress += left / duration
                clock += left
                left = 0
            } else {
                left -= needed
                clock += needed
                board.swapAt(slide.from, slide.to)
                queue.removeFirst()
                progress = 0
            }
        }
        clock += left
        if let current = bump {
            let elapsed = current.elapsed + seconds
            bump = elapsed < Self.bumpDuration ? (current.direction, elapsed) : nil
        }
        if let current = nudge {
            let elapsed = current.elapsed + seconds
            // A slide that took the tile's cell meanwhile ends the shake.
            nudge = elapsed < Self.nudgeDuration && board[current.index] != emptyValue ? (current.index, elapsed) : nil
        }
    }

    /// Every tile and where to draw it now.
    public var placements: [Placement] {
        let moving = queue.first
        let eased = currentProgress
        return board.indices.compactMap { index in
            let tile = board[index]
            guard tile != emptyValue else { return nil }
            var row = Double(index / side)
            var column = Double(index % side)
            if let moving, moving.from == index {
                row += (Double(moving.to / side) - row) * eased
                column += (Double(moving.to % side) - column) * eased
            } else if let shake = nudgeOffset, shake.index == index {
                column += shake.x
            }
            return Placement(tile: tile, row: row, column: column)
        }
    }

    /// How far the whole board is pushed now, in cells (x right, y down).
    public var boardOffset: (x: Double, y: Double) {
        guard let bump else { return (0, 0) }
        // Out and back in one arc: a parabola, 0 at both ends, 1 halfway.
        let t = bump.elapsed / Self.bumpDuration
        let amount = Self.bumpDistance * 4 * t * (1 - t)
        switch bump.direction {
        case .up: return (0, -amount)
        case .down: return (0, amount)
        case .left: return (-amount, 0)
        case .right: return (amount, 0)
        }
    }

    /// Fast at first, gently into place.
    static func easeOut(_ t: Double) -> Double {
        let rest = 1 - min(1, max(0, t))
        return 1 - rest * rest * rest
    }
}
