// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCore
import TiltWire

/// The messages of docs/protocol.md for the gauge and calibration, as sent and as read.
@Suite struct PlayMessageTests {
    @Test func poseIsSentInTenthsOfADegreeAndReadBack() throws {
        let pose = PoseReport(x: 12.345, y: -3.26, armed: true, trigger: 20, release: 10)
        let line = String(decoding: ServerMessage.pose(pose).encoded(), as: UTF8.self)
        #expect(line.contains(#""type":"pose""#) && line.contains(#""x":12.3"#) && line.contains(#""y":-3.3"#))
        let decoded = try ServerMessage.decode(String(line.dropLast()))
        #expect(decoded == .pose(PoseReport(x: 12.3, y: -3.3, armed: true, trigger: 20, release: 10)))
    }

    @Test func calibratedSaysWhetherItWasAutomatic() throws {
        #expect(try ServerMessage.decode(#"{"type":"calibrated","auto":true}"#) == .calibrated(auto: true))
        let line = String(decoding: ServerMessage.calibrated(auto: false).encoded(), as: UTF8.self)
        #expect(line == #"{"type":"calibrated","auto":false}"# + "\n")
    }

    @Test func visibleChangesAreHalfADegreeOrAStateChange() {
        let a = PoseReport(x: 1, y: 1, armed: true, trigger: 20, release: 10)
        var b = a
        b.x = 1.49
        #expect(!a.differsVisibly(from: b))
        b.x = 1.5
        #expect(a.differsVisibly(from: b))
        b = a
        b.armed = false
        #expect(a.differsVisibly(from: b))
        b = a
        b.trigger = 25
        #expect(a.differsVisibly(from: b))
    }
}
