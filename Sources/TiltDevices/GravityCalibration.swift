// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore

/// The scale of an accelerometer whose driver states none (resolution 0: the Wii
/// Remote's, lis3lv02d's), from gravity at rest: the first time the readings hold
/// still, their length is 1 g (docs/sensors.md, "evdev").
///
/// Readings are in the driver's units, centred. Still means `window` readings in a row
/// each within `stillness` (a fraction of their mean's length) of their mean; a mean
/// shorter than `minimumUnits` is no gravity (a driver reporting zeros). One scale for
/// the three axes: one pose cannot tell the axes' gains apart, and tilt detection
/// reads directions, which a common scale keeps.
public struct GravityCalibration: Sendable {
    public static let window = 25
    public static let stillness = 0.03
    public static let minimumUnits = 8.0

    private var recent: [Vector3] = []
    /// Units per g, once found; it is kept for as long as the source runs.
    public private(set) var unitsPerG: Double?

    public init() {}

    /// Takes a reading; the units per g when this reading completes a still window.
    public mutating func take(_ reading: Vector3) -> Double? {
        guard unitsPerG == nil, reading.isFinite else { return nil }
        recent.append(reading)
        if recent.count > Self.window { recent.removeFirst(recent.count - Self.window) }
        guard recent.count == Self.window else { return nil }
        let mean = recent.reduce(Vector3.zero, +) * (1 / Double(Self.window))
        let length = mean.length
        guard length >= Self.minimumUnits,
              recent.allSatisfy({ ($0 - mean).length <= Self.stillness * length }) else { return nil }
        unitsPerG = length
        recent = []
        return length
    }
}
