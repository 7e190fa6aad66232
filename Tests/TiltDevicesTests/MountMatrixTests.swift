// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCore
@testable import TiltDevices

@Suite struct MountMatrixTests {
    @Test func parsesTheKernelAndUdevFormats() throws {
        let expected = try #require(Matrix3([0, 1, 0, -1, 0, 0, 0, 0, 1]))
        #expect(try MountMatrix.parse("0, 1, 0; -1, 0, 0; 0, 0, 1\n") == expected)
        #expect(try MountMatrix.parse("0,1,0;-1,0,0;0,0,1") == expected)
        #expect(try MountMatrix.parse(" 0, 1, 0 ;  -1, 0, 0 ; 0, 0, 1 ") == expected)
        #expect(try MountMatrix.parse("0.0, 1.0, 0; -1, 0.0, 0; 0, 0, 1.0") == expected)
        #expect(MountMatrix.text(expected) == "0, 1, 0; -1, 0, 0; 0, 0, 1")
    }

    @Test func isAppliedAsDeviceEqualsMTimesSensor() throws {
        // Rows are device axes in sensor coordinates: not symmetric, so Mᵀ would differ.
        let m = try MountMatrix.parse("0, 1, 0; 0, 0, -1; -1, 0, 0")
        #expect(m * Vector3(1, 2, 3) == Vector3(2, -3, -1))
        #expect(m != (try MountMatrix.parse("0, 0, -1; 1, 0, 0; 0, -1, 0")))
    }

    @Test(arguments: ["", "1, 0, 0; 0, 1, 0", "1, 0, 0; 0, 1, 0; 0, 0, 1; 1, 1, 1", "1, 0; 0, 1, 0; 0, 0, 1",
                      "1, 0, 0; 0, x, 0; 0, 0, 1", "0, 0, 0; 0, 0, 0; 0, 0, 0", "1, 0, 0; 1, 0, 0; 0, 0, 1",
                      "1, 0, 0; 0, nan, 0; 0, 0, 1"])
    func rejectsMalformedOrSingular(text: String) {
        #expect(throws: SensorError.self) { try MountMatrix.parse(text) }
    }

    @Test func errorsSayWhatIsWrong() {
        #expect(throws: SensorError("mount matrix '1, 0, 0; 0, 1, 0': expected 3 rows separated by ';', found 2")) {
            try MountMatrix.parse("1, 0, 0; 0, 1, 0")
        }
        #expect(throws: SensorError("mount matrix '1, 0, 0; 0, y, 0; 0, 0, 1': 'y' is not a number")) {
            try MountMatrix.parse("1, 0, 0; 0, y, 0; 0, 0, 1")
        }
    }
}
