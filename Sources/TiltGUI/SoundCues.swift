// SPDX-License-Identifier: GPL-3.0-or-later
/// Which sounds the scene's events call for, collected between two turns of the
/// window's loop and taken by it at the end of each (docs/gui.md, "Sound"). What
/// arrives in one turn plays once per kind: the moves of one `slide` (a row of three
/// tiles) or of a burst come in one read and sound as one slide, since a sound per
/// tile would lag behind the picture, which plays a burst in about a slide's time.
/// The order is the game's: a slide, then a bump, then the chime of the solve the
/// slide made.
import TiltSystem
public struct SoundCues: Equatable, Sendable {
    private var pending: Set<SoundEffect> = []

    public init() {}

    public mutating func add(_ effect: SoundEffect) { pending.insert(effect) }

    public var isEmpty: Bool { pending.isEmpty }

    /// What to play now, in order; empties the collection.
    public mutating func take() -> [SoundEffect] {
        defer { pending.removeAll() }
        return SoundEffect.allCases.filter(pending.contains)
    }

    /// A slide is left out while the sound card still holds more than this much of an
    /// earlier sound: queued behind it, it would be heard after its tile landed. A bump
    /// or the chime always plays: each says something the picture alone does not.
    public static let slideLag = 0.05

    /// Whether `effect` should be queued behind `queued` seconds of sound not yet played.
    public static func plays(_ effect: SoundEffect, behind queued: Double) -> Bool {
        effect != .slide || queued <= slideLag
    }

    /// The text of a sound on/off toggle (the key is `m`).
    public static func toggleLabel(muted: Bool) -> String {
        (muted ? L("Sound: off") : L("Sound: on")) + " (m)"
    }
}
