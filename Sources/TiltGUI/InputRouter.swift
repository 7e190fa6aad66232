// SPDX-License-Identifier: GPL-3.0-or-later
import TiltClient

/// Where the window's taps and keys go (docs/gui.md, Playing): the first-start card
/// takes them all until one puts it away; then the picture picker, then New's question,
/// each taking every tap and key while it is up; else the board: the keymap, the
/// buttons and the gestures on the tiles. A press on a panel counts only if it comes up
/// on the same part of it. Nothing here draws or sends: the window does what it is told.
public struct InputRouter: Sendable {
    public enum Input: Equatable, Sendable {
        case key(Key)
        case pointerDown(Int64, Point)
        case pointerUp(Int64, Point)
        /// A press that will not end well: focus lost.
        case pointerCancel
    }

    /// What is topmost over the board now.
    public enum Layer: Equatable, Sendable {
        case welcome
        case picker(PicturePicker)
        case dialog
        /// The board, its empty cell at `empty`; `peeking` while the whole picture hides the tiles.
        case board(empty: Int?, peeking: Bool)
    }

    /// What the input means.
    public enum Routed: Equatable, Sendable {
        /// The first-start card goes away.
        case welcomed
        /// A key for the picker (it moves its own focus).
        case pickerKey(Key)
        case picker(PicturePicker.Choice)
        case dialog(NewGameDialog.Choice)
        case action(UserAction)
        /// A tap on a tile that cannot move: it shakes.
        case cannotMove(index: Int)
        /// A tap on the board while the whole picture hides the tiles: the peek ends.
        case endPeek
    }

    private var gestures = GestureRecognizer()
    private var pickerPress: PicturePicker.Choice?
    private var dialogPress: NewGameDialog.Choice?

    public init() {}

    public mutating func route(_ input: Input, to layer: Layer, layout: Layout) -> Routed? {
        switch (layer, input) {
        case (_, .pointerCancel):
            forget()
            return nil
        case (.welcome, .key(let key)):
            return key == .other ? nil : welcomed()
        case (.welcome, .pointerUp):
            return welcomed()
        case (.welcome, .pointerDown):
            return nil
        case (.picker, .key(let key)):
            return .pickerKey(key)
        case (.picker(let picker), .pointerDown(_, let point)):
            pickerPress = picker.frames(in: layout).choice(at: point)
            return nil
        case (.picker(let picker), .pointerUp(_, let point)):
            defer { pickerPress = nil }
            guard let pressed = pickerPress, picker.frames(in: layout).choice(at: point) == pressed else { return nil }
            return .picker(pressed)
        case (.dialog, .key(let key)):
            return NewGameDialog.choice(for: key).map(Routed.dialog)
        case (.dialog, .pointerDown(_, let point)):
            dialogPress = NewGameDialog.frames(in: layout).choice(at: point)
            return nil
        case (.dialog, .pointerUp(_, let point)):
            defer { dialogPress = nil }
            guard let pressed = dialogPress, NewGameDialog.frames(in: layout).choice(at: point) == pressed else { return nil }
            return .dialog(pressed)
        case (.board, .key(let key)):
            return UserAction(key: key).map(Routed.action)
        case (.board, .pointerDown(let pointer, let point)):
            gestures.pointerDown(pointer, at: point)
            return nil
        case (.board(let empty, let peeking), .pointerUp(let pointer, let point)):
            switch gestures.pointerUp(pointer, at: point, layout: layout, empty: empty) {
            case .control(let control)?: return .action(UserAction(control: control))
            // The tiles are hidden under the picture: a touch on them only ends the peek.
            case .some where peeking: return .endPeek
            case .command(let command)?: return .action(.send(command))
            case .cannotMove(let index)?: return .cannotMove(index: index)
            case nil: return nil
            }
        }
    }

    /// Presses under way are forgotten (the card went, the daemon was lost).
    public mutating func forget() {
        gestures.cancel()
        pickerPress = nil
        dialogPress = nil
    }

    private mutating func welcomed() -> Routed {
        forget()
        return .welcomed
    }
}
