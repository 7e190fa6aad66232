// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore

/// How far the tablet must tilt to move a tile, and how far back to re-arm: the two
/// detector angles a player may choose (docs/protocol.md, `configure` and `settings`).
public struct Sensitivity: Equatable, Sendable {
    /// Degrees from neutral at which a tilt fires.
    public var trigger: Double
    /// Degrees under which both axes must return to re-arm.
    public var release: Double

    public init(trigger: Double, release: Double) {
        self.trigger = trigger
        self.release = release
    }

    /// Angles a player may choose (`TiltAngles`, where the detector's bounds are too).
    public static let triggerRange = TiltAngles.playerTrigger
    public static let releaseRange = TiltAngles.playerRelease
    public static let minimumHysteresis = TiltAngles.minimumHysteresis

    /// Why angles are refused: a kind to act on, and the text the `configure` reply carries.
    public enum Problem: Error, Equatable, Sendable, CaseIterable, CustomStringConvertible {
        case triggerOutOfRange, releaseOutOfRange, tooLittleHysteresis

        /// In English on the wire; a client says it in the player's language.
        public var text: TranslatableText {
            switch self {
            case .triggerOutOfRange:
                TranslatableText("\"trigger\" must be from {0} to {1} degrees",
                                 Sensitivity.triggerRange.lowerBound, Sensitivity.triggerRange.upperBound)
            case .releaseOutOfRange:
                TranslatableText("\"release\" must be from {0} to {1} degrees",
                                 Sensitivity.releaseRange.lowerBound, Sensitivity.releaseRange.upperBound)
            case .tooLittleHysteresis:
                TranslatableText("\"release\" must be at least {0} degrees below \"trigger\"", Sensitivity.minimumHysteresis)
            }
        }

        public var description: String { text.english }
    }

    /// Why these angles are refused; nil when they are fine.
    public var problem: Problem? {
        guard trigger.isFinite, Self.triggerRange.contains(trigger) else { return .triggerOutOfRange }
        guard release.isFinite, Self.releaseRange.contains(release) else { return .releaseOutOfRange }
        guard release <= trigger - Self.minimumHysteresis else { return .tooLittleHysteresis }
        return nil
    }

    /// The choices the graphical client offers.
    public enum Preset: String, CaseIterable, Sendable {
        case gentle, normal, firm

        public var sensitivity: Sensitivity {
            switch self {
            case .gentle: Sensitivity(trigger: 14, release: 7)
            case .normal: Sensitivity(trigger: 20, release: 10)
            case .firm: Sensitivity(trigger: 28, release: 14)
            }
        }

        /// The preset with exactly these angles, if any.
        public init?(_ sensitivity: Sensitivity) {
            guard let match = Self.allCases.first(where: { $0.sensitivity == sensitivity }) else { return nil }
            self = match
        }

        /// The next choice, round and round.
        public var next: Preset {
            let all = Self.allCases
            return all[(all.firstIndex(of: self)! + 1) % all.count]
        }
    }
}
