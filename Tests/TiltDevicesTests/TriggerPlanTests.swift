// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import TiltDevices

/// Which trigger buffered capture sets, over the fixtures' sysfs files and trigger
/// names (setting it through libiio runs in TiltDeviceMockTests).
@Suite struct TriggerPlanTests {
    @Test func aDeviceWithAnEmptyTriggerNeedsOneAndADeviceWithoutTriggersDoesNot() throws {
        let buffered = try SysfsFixture("iio-buffered")
        #expect(TriggerPlan.needsTrigger(sysfsDirectory: buffered.path))
        try buffered.write("trigger/current_trigger", "kxcjk1013-dev1")
        #expect(!TriggerPlan.needsTrigger(sysfsDirectory: buffered.path))
        #expect(!TriggerPlan.needsTrigger(sysfsDirectory: try SysfsFixture("iio-polled").path))
    }

    @Test func thePlanIsMadeFromSysfs() throws {
        let buffered = try SysfsFixture("iio-buffered", device: "iio:device1")
        func plan(_ name: String? = "kxcjk1013") -> TriggerPlan {
            TriggerPlan.plan(sysfsDirectory: buffered.path, deviceName: name, deviceID: "iio:device1")
        }
        #expect(plan() == .missing)
        try buffered.writeBeside("trigger0/name", "bmc150_magn-dev0")
        #expect(plan() == .missing)
        try buffered.writeBeside("trigger1/name", "kxcjk1013-dev1")
        #expect(plan() == .set(name: "kxcjk1013-dev1"))
        #expect(plan(nil) == .missing)
        try buffered.write("trigger/current_trigger", "bmc150_magn-dev0")
        #expect(plan() == .keep)
        let polled = try SysfsFixture("iio-polled", device: "iio:device1")
        #expect(TriggerPlan.plan(sysfsDirectory: polled.path, deviceName: "bmc150_accel", deviceID: "iio:device1") == .keep)
    }

    @Test func theDevicesOwnTriggerComesFirstThenOneNamedAfterIt() {
        let triggers = ["accel_3d-dev3", "accel_3d-dev0", "gyro_3d-dev1", "kxcjk1013-any-motion-dev0"]
        #expect(TriggerPlan.preferredTrigger(deviceName: "accel_3d", deviceID: "iio:device0", triggers: triggers)
                == "accel_3d-dev0")
        #expect(TriggerPlan.preferredTrigger(deviceName: "accel_3d", deviceID: "iio:device5", triggers: triggers)
                == "accel_3d-dev3")
        #expect(TriggerPlan.preferredTrigger(deviceName: "kxcjk1013", deviceID: "iio:device1", triggers: triggers)
                == "kxcjk1013-any-motion-dev0")
        #expect(TriggerPlan.preferredTrigger(deviceName: "mxc4005", deviceID: "iio:device0", triggers: triggers) == nil)
    }
}
