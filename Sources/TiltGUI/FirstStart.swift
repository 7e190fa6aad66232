// SPDX-License-Identifier: GPL-3.0-or-later
/// The card the window shows the first time it opens (docs/gui.md, First start): how
/// to play, until a tap. That it was seen is remembered in the state folder, so it
/// shows once per user, not once per game.
import TiltSystem
public enum FirstStart {
    /// `$XDG_STATE_HOME/tiltpuzzle/welcomed`, or under `~/.local/state` (the XDG default); nil without either.
    public static func markerPath(environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/tiltpuzzle/welcomed" }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return home + "/.local/state/tiltpuzzle/welcomed"
    }

    public static var title: String { L("How to play") }
    public static var paragraphs: [String] {
        [
            L("Hold the tablet as you like: the way you hold it at the start counts as level."),
            L("Tilt it the way a tile should slide into the gap. The gauge shows how far you tilt: past its light ring, the tile moves."),
            L("Or tap a tile in the gap's row or column, or swipe a tile."),
        ]
    }
    public static var dismiss: String { L("Tap anywhere to play") }
}
