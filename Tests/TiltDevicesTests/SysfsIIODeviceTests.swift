// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCore
import TiltSystem
@testable import TiltDevices

/// A device read through sysfs, over the fixtures' trees: its values, and when libiio's
/// side is opened (counted: a polled sensor never opens it; docs/performance.md, memory).
@Suite struct SysfsIIODeviceTests {
    /// Counts the opens of libiio's side, which fail here: there is no libiio context
    /// over a temporary folder.
    final class LibIIOOpens {
        var count = 0
        func open(_ device: SysfsIIODevice) throws(SensorError) -> LibIIODevice {
            count += 1
            throw SensorError("no libiio in this test")
        }
    }

    static func device(_ fixture: SysfsFixture, _ opens: LibIIOOpens) throws -> SysfsIIODevice {
        try SysfsIIODevice(deviceID: "iio:device1", info: SensorInfo(kind: .iio, name: "iio:device1", sysfsPath: fixture.path),
                           sysfsDirectory: fixture.path) { (device) throws(SensorError) in try opens.open(device) }
    }

    static func source(_ device: SysfsIIODevice) -> IIOSource {
        IIOSource(deviceID: "iio:device1", info: SensorInfo(kind: .iio, name: "iio:device1")) { (_, _) throws(SensorError) in
            device
        }
    }

    /// The buffered fixture (kxcjk1013) with raw files to poll.
    static func buffered(trigger: Bool) throws -> SysfsFixture {
        let fixture = try SysfsFixture("iio-buffered", device: "iio:device1")
        for (axis, raw) in [("x", "2"), ("y", "4"), ("z", "1024")] { try fixture.write("in_accel_\(axis)_raw", raw) }
        try fixture.write("in_accel_scale", "0.009582")
        if trigger { try fixture.writeBeside("trigger1/name", "kxcjk1013-dev1") }
        return fixture
    }

    @Test func aPolledSensorIsReadFromSysfsAndNeverOpensLibIIO() throws {
        let fixture = try SysfsFixture("iio-polled")
        let opens = LibIIOOpens()
        let device = try Self.device(fixture, opens)
        #expect(device.name == "bmc150_accel")
        #expect(device.axes.axes == Array(repeating: IIOAxes.Axis(scale: 0.019163, offset: 0), count: 3))
        let source = Self.source(device)
        try source.start()
        #expect(source.info.buffered == false)
        #expect(source.info.name == "bmc150_accel")
        // Raised from 12.5 Hz through in_accel_sampling_frequency, from the device's list.
        #expect(fixture.read("in_accel_sampling_frequency") == "62.5")
        let events = try IIOSourceTests.run(source, until: IIOSourceTests.hasSamples)
        let sample = try #require(events.lazy.compactMap { if case .samples(let s) = $0 { s.first } else { nil } }.first)
        #expect(sample.acceleration == Vector3(12 * 0.019163, -3 * 0.019163, 512 * 0.019163))
        source.stop()
        #expect(fixture.read("in_accel_sampling_frequency") == "12.500000")
        #expect(opens.count == 0)
    }

    @Test func aBufferWithoutATriggerToUseIsNotTriedAndLibIIOIsNotOpened() throws {
        let fixture = try Self.buffered(trigger: false)
        let opens = LibIIOOpens()
        let source = Self.source(try Self.device(fixture, opens))
        try source.start()
        defer { source.stop() }
        #expect(source.info.buffered == false)
        let events = try IIOSourceTests.run(source, until: IIOSourceTests.hasSamples)
        #expect(IIOSourceTests.warnings(events).isEmpty)
        #expect(opens.count == 0)
    }

    @Test func aBufferToStartOpensLibIIOOnceAndPollsWhenItCannot() throws {
        let fixture = try Self.buffered(trigger: true)
        let opens = LibIIOOpens()
        let source = Self.source(try Self.device(fixture, opens))
        try source.start()
        defer { source.stop() }
        #expect(opens.count == 1)
        #expect(source.info.buffered == false)
        let events = try IIOSourceTests.run(source, until: IIOSourceTests.hasSamples)
        #expect(IIOSourceTests.warnings(events)
                == ["iio:device1: cannot use its buffer (no libiio in this test); polling instead"])
    }

    @Test func aDeviceThatIsNotThereIsSaidSo() {
        let error = #expect(throws: SensorError.self) {
            try SysfsIIODevice(deviceID: "iio:device9", info: SensorInfo(kind: .iio, name: "iio:device9"),
                               sysfsDirectory: "/nonexistent/iio:device9")
        }
        #expect(error?.message == "no IIO device iio:device9")
    }
}
