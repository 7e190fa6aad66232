// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import TiltDevices

/// What buffered capture journals and whether it needs a trigger, over the fixtures'
/// sysfs files (the capture itself runs against libiio in TiltDeviceMockTests).
@Suite struct BufferCaptureTests {
    @Test func journalsEveryFileLibiioRewrites() throws {
        let device = try SysfsFixture("iio-buffered")
        let files = BufferCapture.scanElementFiles(sysfsDirectory: device.path,
                                                   scanElements: ["accel_x", "accel_y", "accel_z", "timestamp"])
            + BufferCapture.bufferFiles(sysfsDirectory: device.path)
        #expect(files.map { device.read(String($0.dropFirst(device.path.count + 1))) } == ["0", "0", "0", "0", "2", "1"])
        let journal = SysfsJournal()
        journal.keep(files)
        for file in files { try SysfsFile.write(file, "7") }
        journal.restoreAll()
        #expect(files.map { SysfsFile.read($0) } == ["0", "0", "0", "0", "2", "1"])
    }

    @Test func aDeviceWithAnEmptyTriggerNeedsOneAndADeviceWithoutTriggersDoesNot() throws {
        let buffered = try SysfsFixture("iio-buffered")
        #expect(TriggerPlan.needsTrigger(sysfsDirectory: buffered.path))
        try buffered.write("trigger/current_trigger", "kxcjk1013-dev1")
        #expect(!TriggerPlan.needsTrigger(sysfsDirectory: buffered.path))
        #expect(!TriggerPlan.needsTrigger(sysfsDirectory: try SysfsFixture("iio-polled").path))
    }
}
