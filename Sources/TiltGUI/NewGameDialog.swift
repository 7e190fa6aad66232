// SPDX-License-Identifier: GPL-3.0-or-later
import TiltClient
import TiltCore
import TiltSystem
import TiltWire

/// The question New asks over the board (docs/gui.md, New game): which size, and,
/// when a game is in progress, whether to give it up. Everything in it is a button
/// at least a fingertip big, so it is answered by touch as well as by key.
public struct NewGameDialog: Equatable, Sendable {
    /// The sizes a finger can choose; `tiltpuzzle new --size` reaches the others.
    public static let sizes = Array(3...6)

    /// The size a new game would have.
    public var selected: Int
    /// The size of the game on the board now.
    public private(set) var current: Int
    /// The moves of the game New would throw away; nil when nothing is lost.
    public private(set) var lostMoves: Int?
    /// The revision of the board the question speaks of; nil when it was asked before
    /// the daemon told any.
    public private(set) var revision: Int?
    /// Whether the player chose a size; until then the choice is the board's own size.
    private var sizeChosen = false

    public enum Choice: Equatable, Sendable {
        case size(Int)
        case cancel
        case start
    }

    /// What New does with the board as it is: a game in progress (moved and not
    /// solved) is never thrown away without asking; an untouched or solved one starts
    /// over at once, at its size.
    public enum Request: Equatable, Sendable {
        case start(size: Int)
        case ask(NewGameDialog)
    }

    public static func request(state: GameState?) -> Request {
        let size = state?.size ?? 4
        guard let state, lostMoves(state) != nil else { return .start(size: size) }
        return .ask(NewGameDialog(state: state))
    }

    /// The size button: always asks, since choosing is the point; warns when a game would be lost.
    public static func chooseSize(state: GameState?) -> NewGameDialog {
        state.map(NewGameDialog.init(state:)) ?? NewGameDialog(current: 4, lostMoves: nil)
    }

    public init(current: Int, lostMoves: Int?, revision: Int? = nil) {
        self.current = current
        selected = Self.sizes.contains(current) ? current : 4
        self.lostMoves = lostMoves
        self.revision = revision
    }

    /// The question about the game `state` shows.
    public init(state: GameState) {
        self.init(current: state.size, lostMoves: Self.lostMoves(state), revision: state.revision)
    }

    /// What starting over would throw away: the moves of a game moved and not solved.
    private static func lostMoves(_ state: GameState) -> Int? {
        state.moves > 0 && !state.solved ? state.moves : nil
    }

    /// Keeps the open question true as the daemon's messages arrive (docs/gui.md, New
    /// game): `state` is the game after `message`. Another client's moves, undo or a
    /// solve change the size and the moves it warns of (a solved game loses nothing),
    /// and the size the player chose stays chosen. False when the game it asks about is
    /// gone: a `state` message for another revision than the one followed means the
    /// board was replaced without moves, which only a new game does (after a gap in
    /// the revisions it cannot tell, and a question that might be false is not asked).
    public mutating func follow(_ message: ServerMessage, state: GameState?) -> Bool {
        if case .state(let announced) = message, let revision, announced.revision != revision { return false }
        guard let state else { return true }
        current = state.size
        if !sizeChosen, Self.sizes.contains(current) { selected = current }
        lostMoves = Self.lostMoves(state)
        revision = state.revision
        return true
    }

    public var title: String { lostMoves == nil ? L("New game") : L("Start a new game?") }

    /// What the player is told before choosing.
    public var message: String {
        guard let lostMoves else { return L("Now {0}. Choose a size, then Start.", GameText.sizeText(current)) }
        return L.plural("This {1} game ({0} move) will be lost.", "This {1} game ({0} moves) will be lost.", lostMoves, GameText.sizeText(current))
    }

    public var cancelLabel: String { lostMoves == nil ? L("Cancel") : L("Keep playing") }
    public var startLabel: String { L("Start {0}", GameText.sizeText(selected)) }

    /// The request that starts the chosen game.
    public var command: Command { .new(size: selected, seed: nil, shuffle: true) }

    /// Keys while the question is up: y or Enter starts, n or Escape keeps the game,
    /// 3 to 6 choose the size.
    public static func choice(for key: Key) -> Choice? {
        switch key {
        case .escape: return .cancel
        case .enter: return .start
        case .character(let c):
            if let digit = c.wholeNumberValue, sizes.contains(digit) { return .size(digit) }
            switch c.lowercased() {
            case "y": return .start
            case "n": return .cancel
            default: return nil
            }
        default: return nil
        }
    }

    /// Where its parts go over `layout`'s board: the panel, its text, four size
    /// buttons in a row, then Cancel and Start.
    public struct Frames: Equatable, Sendable {
        public var panel: Rect
        public var text: Rect
        public var sizes: [(size: Int, frame: Rect)]
        public var cancel: Rect
        public var start: Rect

        public static func == (a: Frames, b: Frames) -> Bool {
            a.panel == b.panel && a.text == b.text && a.cancel == b.cancel && a.start == b.start
                && a.sizes.map(\.size) == b.sizes.map(\.size) && a.sizes.map(\.frame) == b.sizes.map(\.frame)
        }

        public func choice(at point: Point) -> Choice? {
            if let hit = sizes.first(where: { $0.frame.contains(point) }) { return .size(hit.size) }
            if cancel.contains(point) { return .cancel }
            if start.contains(point) { return .start }
            return nil
        }
    }

    /// Over the board, as wide as the window allows, buttons at least `layout.minimumTarget`.
    public static func frames(in layout: Layout) -> Frames {
        let gap = max(8, (layout.textSize * 0.5).rounded())
        let button = max(layout.minimumTarget, 2.2 * layout.textSize)
        let width = min(layout.window.width - 2 * gap, max(layout.board.width * 0.92, 4 * (button + gap) + gap))
        let text = 4 * layout.textSize * 1.25
        let height = gap + text + gap + button + gap + button + gap
        // Over the board's middle, but inside the window when the board is small.
        let top = min(max(gap, layout.board.center.y - height / 2), layout.window.height - gap - height)
        let panel = Rect(x: (layout.board.center.x - width / 2).rounded(), y: max(0, top).rounded(),
                         width: width.rounded(), height: height.rounded())
        let inner = panel.insetBy(gap)
        let textFrame = Rect(x: inner.x, y: inner.y, width: inner.width, height: text)
        let sizeWidth = ((inner.width - gap * Double(sizes.count - 1)) / Double(sizes.count)).rounded(.down)
        let sizeRow = textFrame.maxY + gap
        let sizeFrames = sizes.enumerated().map { offset, size in
            (size, Rect(x: inner.x + Double(offset) * (sizeWidth + gap), y: sizeRow, width: sizeWidth, height: button))
        }
        let actionRow = sizeRow + button + gap
        let half = ((inner.width - gap) / 2).rounded(.down)
        return Frames(panel: panel, text: textFrame, sizes: sizeFrames,
                      cancel: Rect(x: inner.x, y: actionRow, width: half, height: button),
                      start: Rect(x: inner.maxX - half, y: actionRow, width: half, height: button))
    }

    /// Applies a choice: the command to send when the game starts, and whether the
    /// question stays up.
    public mutating func choose(_ choice: Choice) -> (send: Command?, open: Bool) {
        switch choice {
        case .size(let size):
            selected = size
            sizeChosen = true
            return (nil, true)
        case .cancel: return (nil, false)
        case .start: return (command, false)
        }
    }
}
