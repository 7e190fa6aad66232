// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore

/// The scale of an accelerometer whose driver states none (resolution 0: the Wii
/// Remote's, lis3lv02d's), from gravity at rest: the first time a reading is held still
/// for `hold` seconds, its length is 1 g (docs/sensors.md, "evdev").
///
/// Readings are in the driver's units, centred. A still stretch is readings each within
/// `stillness` (a fraction of the length) of the stretch's first; it has lasted from its
/// first reading's time to the time of the next reading, whether that one still belongs
/// to it or not: evdev sends nothing for an axis that does not change (beyond its fuzz),
/// so a remote lying still sends nothing at all, and the reading that ends the rest is
/// the first to say how long it was held. A mean shorter than `minimumUnits` is no
/// gravity (a driver reporting zeros). One scale for the three axes: one pose cannot
/// tell the axes' gains apart, and tilt detection reads directions, which a common
/// scale keeps.
public struct GravityCalibration: Sendable {
    public static let hold = 0.25
    public static let stillness = 0.03
    public static let minimumUnits = 8.0

    private var first: (reading: Vector3, time: Double)?
    private var sum = Vector3.zero
    private var count = 0
    /// Units per g, once found; it is kept for as long as the source runs.
    public private(set) var unitsPerG: Double?

    public init() {}

    /// Takes a reading and its time; the units per g when the stretch before it (or
    /// ending with it) has been still for `hold` seconds.
    public mutating func take(_ reading: Vector3, at time: Double) -> Double? {
        guard unitsPerG == nil, reading.isFinite, time.isFinite else { return nil }
        if let first {
            let length = first.reading.length
            let still = (reading - first.reading).length <= Self.stillness * length
            if still {
                sum = sum + reading
                count += 1
            }
            let mean = (sum * (1 / Double(count))).length
            if time - first.time >= Self.hold, mean >= Self.minimumUnits {
                unitsPerG = mean
                return mean
            }
            if still { return nil }
        }
        first = (reading, time)
        sum = reading
        count = 1
        return nil
    }
}
