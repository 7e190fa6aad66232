// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCore
@testable import TiltDevices

/// Raw values to samples in the sensor's frame: scale, offset, the two-axis chip's z
/// (reading them from sysfs: IIOAttributesTests; that libiio reads the same,
/// TiltDeviceMockTests).
@Suite struct IIOAxesTests {
    @Test func valuesAreRawPlusOffsetTimesScale() {
        // kxsd9: unsigned 12 bits centred by in_accel_offset −2048.
        let axes = IIOAxes(axes: Array(repeating: IIOAxes.Axis(scale: 0.5, offset: -2048), count: 3))
        let sample = axes.sample([2048, 2050, 2068], time: 7)
        #expect(sample.time == 7)
        #expect(sample.acceleration == Vector3(0, 1, 10))
    }

    @Test func aTwoAxisChipsZIsWhatGravityLeavesScreenUp() {
        let axes = IIOAxes(axes: Array(repeating: IIOAxes.Axis(scale: 1, offset: 0), count: 2))
        #expect(axes.sample([0, 0], time: 0).acceleration == Vector3(0, 0, standardGravity))
        let tilted = axes.sample([3, 4], time: 0).acceleration
        #expect(abs(tilted.z - (standardGravity * standardGravity - 25).squareRoot()) < 1e-12)
        // A knock in the plane beyond 1 g leaves nothing for z.
        #expect(IIOAxes.planeZ(standardGravity, 1) == 0)
        #expect(IIOAxes.planeZ(0, 0) == standardGravity)
    }
}
