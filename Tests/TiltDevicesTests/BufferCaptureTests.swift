// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltCore
import TiltSystem
@testable import TiltDevices

/// What buffered capture journals, and what it makes of its buffer's refills, over the
/// fixtures' sysfs files and a buffer the test fills (setting it up through libiio runs
/// in TiltDeviceMockTests).
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

    /// The HID sensor hub's order: the timestamp first, an element not ours between.
    @Test func enablesTheAxesAndTheTimestampAndFindsThemInTheScan() {
        let elements = [("timestamp", 0), ("accel_z", 3), ("accel_x", 1), ("illuminance", 2), ("accel_y", 4)]
        let layout = BufferCapture.layout(scanElements: elements, axes: ["accel_x", "accel_y", "accel_z"],
                                          timestamp: "timestamp")
        #expect(layout.enabled == ["timestamp", "accel_x", "accel_z", "accel_y"])
        #expect(layout.slots == [1, 3, 2])
        #expect(layout.timestampSlot == 0)
        let twoAxes = BufferCapture.layout(scanElements: elements, axes: ["accel_x", "accel_y"], timestamp: nil)
        #expect(twoAxes.enabled == ["accel_x", "accel_y"])
        #expect(twoAxes.slots == [0, 1])
        #expect(twoAxes.timestampSlot == nil)
    }

    @Test func aDrainTurnsEveryRefillIntoSamplesAndEndsTheSilence() {
        let buffer = FakeScanBuffer()
        // Two scans, the second split across two refills.
        let second = FakeScanBuffer.scan(-2, 4, 20)
        buffer.chunks = [FakeScanBuffer.scan(2, 0, 20) + second.prefix(2), Array(second.dropFirst(2))]
        let capture = FakeScanBuffer.capture(buffer, samplingRate: 50, now: 0)
        #expect(capture.silenceDeadline == BufferCapture.silenceLimit)
        #expect(capture.wait == .readableUntil(capture.descriptor, BufferCapture.silenceLimit))
        let turn = capture.service(now: 0.5)
        guard case .samples(let samples)? = turn.events.first, turn.events.count == 1 else {
            Issue.record("\(turn.events)")
            return
        }
        #expect(samples.map(\.acceleration) == [Vector3(1, 0, 10), Vector3(-1, 2, 10)])
        #expect(turn.end == nil)
        #expect(capture.silenceDeadline == nil)
        #expect(capture.wait == .readable(capture.descriptor))
        #expect(capture.service(now: 60) == CaptureTurn())
    }

    @Test func aSlowDevicesBufferWaitsTenSamplePeriodsForItsFirstScan() {
        #expect(FakeScanBuffer.capture(FakeScanBuffer(), samplingRate: 2, now: 100).silenceDeadline == 105)
        #expect(FakeScanBuffer.capture(FakeScanBuffer(), samplingRate: nil, now: 100).silenceDeadline
                == 100 + BufferCapture.silenceLimit)
    }

    @Test func aBufferSilentPastItsDeadlineEnds() {
        let capture = FakeScanBuffer.capture(FakeScanBuffer(), samplingRate: 50, now: 0)
        #expect(capture.service(now: 0.5) == CaptureTurn())
        #expect(capture.service(now: 1) == CaptureTurn(
            events: [.warning("iio:device1: the buffer delivered nothing; polling instead")], end: .silent))
    }

    @Test func aFailedReadEndsItAsRemovedWhenTheDeviceWentElseAsFailed() {
        let buffer = FakeScanBuffer()
        buffer.failure = .ioError
        #expect(FakeScanBuffer.capture(buffer, samplingRate: 50, now: 0).drain()
                == CaptureTurn(end: .failed("iio:device1: reading the buffer failed: \(Errno.ioError)")))
        #expect(FakeScanBuffer.capture(buffer, samplingRate: 50, now: 0) { true }.drain() == CaptureTurn(end: .removed))
        buffer.failure = .noSuchDevice
        #expect(FakeScanBuffer.capture(buffer, samplingRate: 50, now: 0).drain() == CaptureTurn(end: .removed))
        buffer.failure = nil
        #expect(FakeScanBuffer.capture(buffer, samplingRate: 50, now: 0) { true }.drain() == CaptureTurn(end: .removed))
    }

    @Test func stopDisablesTheBuffer() {
        let buffer = FakeScanBuffer()
        FakeScanBuffer.capture(buffer, samplingRate: 50, now: 0).stop()
        #expect(buffer.destroyed)
    }
}
