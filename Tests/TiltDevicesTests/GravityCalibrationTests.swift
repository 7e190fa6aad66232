// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TiltCore
@testable import TiltDevices

/// The scale of axes without a resolution, from gravity at rest (docs/sensors.md, "evdev").
@Suite struct GravityCalibrationTests {
    static let hold = GravityCalibration.hold

    /// A stream at 100 Hz that holds still: the reading that completes `hold` seconds
    /// gives the stretch's mean length as 1 g.
    @Test func readingsHeldStillGiveTheirLengthAsOneG() {
        var calibration = GravityCalibration()
        let reading = Vector3(30, -40, 91.4)   // a Wii Remote, about 104 units per g
        let results = (0...30).map { i in
            calibration.take(reading + Vector3(Double(i % 3) - 1, 0, 0), at: 10 + Double(i) / 100)
        }
        let found = results.firstIndex { $0 != nil }
        #expect(found == 25, "the first reading 0.25 s after the first")
        let unitsPerG = found.flatMap { results[$0] }
        #expect(unitsPerG.map { abs($0 - reading.length) < 0.5 } == true, "\(String(describing: unitsPerG))")
        #expect(calibration.unitsPerG == unitsPerG)
        #expect(calibration.take(reading * 2, at: 20) == nil, "found once, kept")
    }

    /// evdev sends nothing while nothing changes: a remote lying still is one reading,
    /// then, a second later, the first of a tilt. That one tells the rest was held.
    @Test func aRestWithoutEventsIsHeldUntilTheNextReading() {
        var calibration = GravityCalibration()
        #expect(calibration.take(Vector3(0, 0, 104), at: 5) == nil)
        #expect(calibration.take(Vector3(0, 2, 104), at: 6.5) == Vector3(0, 1, 104).length, "the mean of the two")
    }

    @Test func movingReadingsGiveNothingUntilTheyRest() {
        var calibration = GravityCalibration()
        for i in 0..<300 {
            let angle = Double(i) * 0.05
            #expect(calibration.take(Vector3(100 * sin(angle), 0, 100 * cos(angle)), at: Double(i) / 100) == nil)
        }
        var found: Double?
        for i in 0...30 { found = calibration.take(Vector3(0, 0, 1000), at: 3 + Double(i) / 100) ?? found }
        #expect(found == 1000)
    }

    /// A pause in moving readings is no rest: the stretch is the readings alike.
    @Test func aReadingAfterAPauseThatDiffersEndsNothingButItsOwnStretch() {
        var calibration = GravityCalibration()
        #expect(calibration.take(Vector3(0, 0, 100), at: 0) == nil)
        #expect(calibration.take(Vector3(0, 50, 87), at: 0.1) == nil)
        #expect(calibration.take(Vector3(0, 87, 50), at: 0.2) == nil)
        #expect(calibration.take(Vector3(0, 100, 0), at: 0.3) == nil)
        #expect(calibration.unitsPerG == nil)
    }

    @Test func zerosAreNoGravity() {
        var calibration = GravityCalibration()
        for i in 0..<100 { #expect(calibration.take(.zero, at: Double(i) / 10) == nil) }
        #expect(calibration.unitsPerG == nil)
    }

    /// The conversion: centred on the range's middle where it does not span zero,
    /// resolution first, gravity where there is none.
    @Test func theConversionCentresScalesAndCalibrates() {
        let g = standardGravity
        var stated = AxisConversion(axes: Array(repeating: AbsoluteAxis(value: 0, minimum: -512, maximum: 511,
                                                                         resolution: 113), count: 3))
        #expect(!stated.awaitsGravity)
        let (a, calibrated) = stated.convert([0, 113, -113], at: 0)
        #expect(calibrated == nil && abs(a.y - g) < 1e-9 && abs(a.z + g) < 1e-9)

        var unsigned = AxisConversion(axes: Array(repeating: AbsoluteAxis(value: 0, minimum: 0, maximum: 1023,
                                                                          resolution: 0), count: 3))
        #expect(unsigned.awaitsGravity)
        let before = unsigned.convert([512, 512, 616], at: 1).acceleration
        #expect(abs(before.z - 104.5 * 2 * g / 511.5) < 1e-9, "half the range is 2 g until it rests")
        let last = unsigned.convert([512, 512, 616], at: 2)
        let length = Vector3(0.5, 0.5, 104.5).length   // 512 and 616 about the middle, 511.5
        #expect(last.calibrated.map { abs($0 - length) < 1e-9 } == true, "\(last)")
        #expect(abs(last.acceleration.z - 104.5 * g / length) < 1e-9 && abs(last.acceleration.x - 0.5 * g / length) < 1e-9)
        #expect(!unsigned.awaitsGravity)
    }
}
