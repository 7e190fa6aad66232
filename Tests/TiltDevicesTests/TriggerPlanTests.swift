// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import TiltDevices

/// Which trigger buffered capture sets, over the fixtures' sysfs files and trigger
/// names (choosing among libiio's devices runs in TiltDeviceMockTests).
@Suite struct TriggerPlanTests {
    @Test func aDeviceWithAnEmptyTriggerNeedsOneAndADeviceWithoutTriggersDoesNot() throws {
        let buffered = try SysfsFixture("iio-buffered")
        #expect(TriggerPlan.needsTrigger(sysfsDirectory: buffered.path))
        try buffered.write("trigger/current_trigger", "kxcjk1013-dev1")
        #expect(!TriggerPlan.needsTrigger(sysfsDirectory: buffered.path))
        #expect(!TriggerPlan.needsTrigger(sysfsDirectory: try SysfsFixture("iio-polled").path))
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
