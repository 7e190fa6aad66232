// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TiltCore
@testable import TiltDevices

/// The scale of axes without a resolution, from gravity at rest (docs/sensors.md, "evdev").
@Suite struct GravityCalibrationTests {
    static let window = GravityCalibration.window

    @Test func stillReadingsGiveTheirLengthAsOneG() {
        var calibration = GravityCalibration()
        let reading = Vector3(30, -40, 91.4)   // a Wii Remote, about 104 units per g
        let results = (0..<Self.window).map { i in calibration.take(reading + Vector3(Double(i % 3) - 1, 0, 0)) }
        #expect(results.dropLast().allSatisfy { $0 == nil })
        let unitsPerG = try? #require(results.last ?? nil)
        #expect(unitsPerG.map { abs($0 - reading.length) < 0.5 } == true, "\(String(describing: unitsPerG))")
        #expect(calibration.unitsPerG == unitsPerG)
        #expect(calibration.take(reading * 2) == nil, "found once, kept")
    }

    @Test func movingReadingsGiveNothingUntilTheyRest() {
        var calibration = GravityCalibration()
        for i in 0..<(3 * Self.window) {
            let angle = Double(i) * 0.05
            #expect(calibration.take(Vector3(100 * sin(angle), 0, 100 * cos(angle))) == nil)
        }
        var found: Double?
        for _ in 0..<Self.window { found = calibration.take(Vector3(0, 0, 1000)) ?? found }
        #expect(found == 1000)
    }

    @Test func zerosAreNoGravity() {
        var calibration = GravityCalibration()
        for _ in 0..<(2 * Self.window) { #expect(calibration.take(.zero) == nil) }
        #expect(calibration.unitsPerG == nil)
    }

    /// The conversion: centred on the range's middle where it does not span zero,
    /// resolution first, gravity where there is none.
    @Test func theConversionCentresScalesAndCalibrates() {
        let g = standardGravity
        var stated = AxisConversion(axes: Array(repeating: AbsoluteAxis(value: 0, minimum: -512, maximum: 511,
                                                                         resolution: 113), count: 3))
        #expect(!stated.awaitsGravity)
        let (a, calibrated) = stated.convert([0, 113, -113])
        #expect(calibrated == nil && abs(a.y - g) < 1e-9 && abs(a.z + g) < 1e-9)

        var unsigned = AxisConversion(axes: Array(repeating: AbsoluteAxis(value: 0, minimum: 0, maximum: 1023,
                                                                          resolution: 0), count: 3))
        #expect(unsigned.awaitsGravity)
        var last: (acceleration: Vector3, calibrated: Double?) = (.zero, nil)
        for _ in 0..<Self.window { last = unsigned.convert([512, 512, 616]) }
        let length = Vector3(0.5, 0.5, 104.5).length   // 512 and 616 about the middle, 511.5
        #expect(last.calibrated.map { abs($0 - length) < 1e-9 } == true, "\(last)")
        #expect(abs(last.acceleration.z - 104.5 * g / length) < 1e-9 && abs(last.acceleration.x - 0.5 * g / length) < 1e-9)
        #expect(!unsigned.awaitsGravity)
    }
}
