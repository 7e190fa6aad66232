// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TiltCore
import TiltSystem
@testable import TiltDevices

/// What follows when a capture ends (the source's table of fallbacks), over a fake
/// device: no libiio, no umockdev.
@Suite struct IIOSourceTests {
    static func source(_ device: FakeIIODevice) -> IIOSource {
        let clock = device.clock
        return IIOSource(deviceID: "iio:device1", info: SensorInfo(kind: .iio, name: "iio:device1"),
                         readClock: { clock.withLock { $0 } }) { (_, _) throws(SensorError) in device }
    }

    /// Services `source` as the loop does until `done` says so, or 20 s passed (only a
    /// hang takes that long).
    static func run(_ source: IIOSource, now: () -> Double = MonotonicClock.now,
                    until done: ([SensorEvent]) -> Bool) throws -> [SensorEvent] {
        var events: [SensorEvent] = []
        let limit = MonotonicClock.now() + 20
        while MonotonicClock.now() < limit {
            if let descriptor = source.wait.descriptor {
                _ = try Poll.wait([(descriptor, .readable)], timeout: 0.05)
            }
            events += source.service(now: now())
            if done(events) { break }
        }
        return events
    }

    static func warnings(_ events: [SensorEvent]) -> [String] {
        events.compactMap { if case .warning(let line) = $0 { line } else { nil } }
    }

    static func hasSamples(_ events: [SensorEvent]) -> Bool {
        events.contains { if case .samples = $0 { true } else { false } }
    }

    @Test func aDeviceWithABufferCapturesItAndPutsEverythingBackAtStop() throws {
        let device = try FakeIIODevice()
        let buffer = FakeScanBuffer()
        buffer.chunks = [FakeScanBuffer.scan(0, 2, 20)]
        device.buffer = buffer
        let source = Self.source(device)
        try source.start()
        #expect(source.info.buffered == true)
        #expect(source.info.name == "fake_accel")
        // Raised from 12.5 Hz to the slowest rate offered of at least 50.
        #expect(source.info.samplingRate == 62.5)
        let events = source.service(now: MonotonicClock.now())
        guard case .samples(let samples)? = events.first, events.count == 1 else { Issue.record("\(events)"); return }
        #expect(samples.map(\.acceleration) == [Vector3(0, 1, 10)])
        source.stop()
        #expect(buffer.destroyed)
        #expect(device.sysfs.read("in_accel_sampling_frequency") == "12.500000")
        #expect(source.wait == .idle)
    }

    @Test func aSilentBufferGivesWayToPolling() throws {
        let device = try FakeIIODevice()
        let buffer = FakeScanBuffer()
        device.buffer = buffer
        let source = Self.source(device)
        try source.start()
        let swaps = source.descriptorSwaps
        #expect(source.service(now: MonotonicClock.now()).isEmpty)
        let events = try Self.run(source, now: { MonotonicClock.now() + 60 }, until: Self.hasSamples)
        #expect(Self.warnings(events) == ["iio:device1: the buffer delivered nothing; polling instead"])
        #expect(Self.hasSamples(events))
        #expect(buffer.destroyed)
        #expect(source.info.buffered == false)
        #expect(source.descriptorSwaps != swaps)
        source.stop()
    }

    @Test func aDeviceWithoutABufferIsPolledAndSaysWhy() throws {
        let device = try FakeIIODevice()
        let source = Self.source(device)
        try source.start()
        defer { source.stop() }
        #expect(source.info.buffered == false)
        let events = try Self.run(source, until: Self.hasSamples)
        #expect(Self.warnings(events) == ["iio:device1: cannot enable the buffer (\(Errno.busy)); polling instead"])
    }

    /// Reads that wait for fresh data raise the rate; reads no faster at the raised
    /// rate put it back.
    @Test func slowReadsRaiseTheRateAndPutItBackWhenTheyStaySlow() throws {
        let device = try FakeIIODevice { rate in (rate ?? 0) < 200 ? 0.015 : 0.03 }
        let source = Self.source(device)
        try source.start()
        func rateLines(_ events: [SensorEvent]) -> [String] { Self.warnings(events).filter { $0.contains("data rate") } }
        let lines = rateLines(try Self.run(source) { rateLines($0).count >= 2 })
        #expect(lines.count == 2)
        #expect(lines.first?.contains("data rate raised from 62.5 to") == true)
        #expect(lines.last?.hasSuffix("data rate put back to 62.5 Hz") == true)
        #expect(device.sysfs.read("in_accel_sampling_frequency") == "62.5")
        #expect(source.info.buffered == false)
        source.stop()
        #expect(device.sysfs.read("in_accel_sampling_frequency") == "12.500000")
    }

    @Test func aBufferAnotherProgramHoldsIsPolledBesideItChangingNothing() throws {
        let device = try FakeIIODevice()
        try device.sysfs.write("buffer/enable", "1")
        let source = Self.source(device)
        try source.start()
        defer { source.stop() }
        #expect(source.info.samplingRate == 12.5)
        let events = try Self.run(source, until: Self.hasSamples)
        #expect(Self.warnings(events).first?.hasPrefix("iio:device1: its buffer is enabled and ") == true)
        #expect(device.journal.isEmpty)
        #expect(device.sysfs.read("in_accel_sampling_frequency") == "12.500000")
    }

    @Test func aBufferAnotherProgramHoldsWhoseDriverRefusesRawReadsIsBusy() throws {
        let device = try FakeIIODevice()
        try device.sysfs.write("buffer/enable", "1")
        device.probeError = .busy
        let source = Self.source(device)
        let error = #expect(throws: SensorError.self) { try source.start() }
        #expect(error?.kind == .busy)
        #expect(source.wait == .idle)
    }

    @Test func aBufferTakenWhilePollingMakesTheSourceBusy() throws {
        let device = try FakeIIODevice()
        let source = Self.source(device)
        try source.start()
        device.readError.withLock { $0 = .busy }
        let events = try Self.run(source) { $0.last.map { if case .busy = $0 { true } else { false } } ?? false }
        guard case .busy(let message)? = events.last else { Issue.record("not busy: \(events)"); return }
        #expect(message.hasPrefix("the accelerometer is in use by another program"))
        #expect(source.wait == .idle)
    }

    @Test func aDeviceThatGoesIsRemoved() throws {
        let device = try FakeIIODevice()
        let source = Self.source(device)
        try source.start()
        device.gone.withLock { $0 = true }
        device.readError.withLock { $0 = .ioError }
        let events = try Self.run(source) { $0.last == .removed }
        #expect(events.last == .removed)
        #expect(source.wait == .idle)
    }

    @Test func aWatchedBufferSomebodyOpensIsTheirsAndPolled() throws {
        let device = try FakeIIODevice()
        try device.sysfs.write("buffer/enable", "1")
        try device.sysfs.write("node", "")
        device.buffer = FakeScanBuffer()
        let source = Self.source(device)
        try source.start()
        defer { source.stop() }
        #expect(!source.isSettled)
        try FileDescriptor.open(device.sysfs.file("node")).close()
        let events = try Self.run(source, until: Self.hasSamples)
        #expect(Self.warnings(events) == ["iio:device1: another program reads its buffer now and then; polling, changing nothing"])
        #expect(source.isSettled)
        #expect(source.info.buffered == false)
        #expect(device.sysfs.read("buffer/enable") == "1")
    }

    @Test func aWatchedBufferNobodyOpensIsTakenBackAndCaptured() throws {
        let device = try FakeIIODevice()
        try device.sysfs.write("buffer/enable", "1")
        try device.sysfs.write("node", "")
        device.buffer = FakeScanBuffer()
        let source = Self.source(device)
        try source.start()
        defer { source.stop() }
        #expect(!source.isSettled)
        let events = source.service(now: MonotonicClock.now() + BufferOwnership.watchTime)
        #expect(Self.warnings(events) == ["iio:device1: took back the buffer a stopped program left enabled"])
        #expect(source.isSettled)
        #expect(source.info.buffered == true)
        #expect(device.sysfs.read("buffer/enable") == "0")
    }

    /// One matrix is applied, chosen once: the configuration's, else the device's own.
    @Test func theConfiguredMountMatrixReplacesTheDevicesOwn() throws {
        let device = try FakeIIODevice()
        let buffer = FakeScanBuffer()
        device.buffer = buffer
        let own = try MountMatrix.parse("0, 1, 0; 0, 0, -1; -1, 0, 0")
        let source = IIOSource(deviceID: "iio:device1", info: SensorInfo(kind: .iio, name: "iio:device1", mountMatrix: own)) {
            (_, _) throws(SensorError) in device
        }
        try source.start()
        defer { source.stop() }
        func next() -> [Vector3] {
            buffer.chunks = [FakeScanBuffer.scan(2, 4, 20)]
            return source.service(now: MonotonicClock.now()).flatMap { event -> [Vector3] in
                if case .samples(let samples) = event { samples.map(\.acceleration) } else { [] }
            }
        }
        // The sensor reads (1, 2, 10); its own matrix makes that (sy, −sz, −sx).
        #expect(next() == [Vector3(2, -10, -1)])
        let configured = try MountMatrix.parse("-1, 0, 0; 0, -1, 0; 0, 0, 1")
        source.setMountMatrix(configured)
        #expect(source.info.mountMatrix == configured)
        #expect(next() == [Vector3(-1, -2, 10)])
        source.setMountMatrix(nil)
        #expect(source.info.mountMatrix == own)
        #expect(next() == [Vector3(2, -10, -1)])
    }
}
