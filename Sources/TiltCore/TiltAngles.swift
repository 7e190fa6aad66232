// SPDX-License-Identifier: GPL-3.0-or-later
/// The bounds on the tilt detector's two angles, written once: the detector refuses
/// what it cannot work with, the configuration file is read within the same bounds,
/// and a player choosing over the protocol (`configure`) gets the narrower ranges a
/// hand can use (docs/tilt-detection.md, docs/protocol.md).
public enum TiltAngles {
    /// A trigger lies strictly inside it (at 90° from neutral the tablet stands on its
    /// edge); a release from its lower end up to, not including, the trigger.
    public static let detector = 0.0...90.0
    /// A trigger a player may choose: under 5° fires on a tremor, over 60° is hard to
    /// reach holding a tablet.
    public static let playerTrigger = 5.0...60.0
    /// A release a player may choose, at least `minimumHysteresis` under the trigger.
    public static let playerRelease = 1.0...58.0
    public static let minimumHysteresis = 2.0

    /// Whether the detector can work with these angles.
    public static func detectorAccepts(trigger: Double) -> Bool {
        trigger > detector.lowerBound && trigger < detector.upperBound
    }

    public static func detectorAccepts(release: Double, trigger: Double) -> Bool {
        release >= detector.lowerBound && release < trigger
    }
}
