// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TiltCore
import TiltSystem
@testable import TiltDevices

/// An IIO device for `IIOSource` without libiio: its sysfs files a fixture's
/// (`in_accel_sampling_frequency` and its list, `buffer/enable`), its node a plain file,
/// its raw reads and its buffer played by the test.
final class FakeIIODevice: OpenIIODevice, @unchecked Sendable {
    // @unchecked: `readSample` runs on the polling reader's thread; what it reads is
    // behind locks or the fixture's files.

    let sysfs: SysfsFixture
    let ownership: BufferOwnership
    let rates: RateControl
    let journal = SysfsJournal()
    /// The error raw reads fail with, if any.
    let readError = Locked<Errno?>(nil)
    /// Seconds a raw read takes at the driver's data rate, on `clock`.
    let readTime: @Sendable (Double?) -> Double
    /// The clock the source times reads on (`IIOSourceTests.source`): each read moves
    /// it on by `readTime`, so read times do not depend on the machine's speed.
    let clock = Locked(0.0)
    /// The error the probing raw read fails with, if any.
    var probeError: Errno?
    /// What buffered capture reads; nil for a device without a buffer.
    var buffer: FakeScanBuffer?
    let gone = Locked(false)

    init(readTime: @escaping @Sendable (Double?) -> Double = { _ in 0 }) throws {
        sysfs = try SysfsFixture("iio-polled")
        try sysfs.write("buffer/enable", "0")
        let sysfs = sysfs
        ownership = BufferOwnership(deviceID: "iio:device1", sysfsDirectory: sysfs.path, node: sysfs.file("node"))
        rates = RateControl(
            deviceID: "iio:device1",
            attribute: RateAttribute(
                read: { sysfs.read("in_accel_sampling_frequency") },
                write: { (value: String) throws(Errno) in try SysfsFile.write(sysfs.file("in_accel_sampling_frequency"), value) },
                available: { sysfs.read("sampling_frequency_available") }),
            journal: journal)
        self.readTime = readTime
    }

    var name: String? { "fake_accel" }
    var isGone: Bool { gone.withLock { $0 } }

    func probeRaw() throws(Errno) {
        if let probeError { throw probeError }
    }

    func readSample() throws(Errno) -> Sample {
        let seconds = readTime(sysfs.read("in_accel_sampling_frequency")?.sysfsNumber)
        clock.withLock { $0 += seconds }
        if let error = readError.withLock({ $0 }) { throw error }
        return Sample(time: MonotonicClock.now(), acceleration: Vector3(0, 0, 9.8))
    }

    func startBuffer(samplingRate: Double?, now: Double) -> (capture: (any IIOCapture)?, notes: [String]) {
        guard let buffer else { return (nil, ["iio:device1: cannot enable the buffer (\(Errno.busy)); polling instead"]) }
        return (FakeScanBuffer.capture(buffer, samplingRate: samplingRate, now: now) { [gone] in gone.withLock { $0 } }, [])
    }
}

/// A buffer whose refills the test hands over: each queued chunk is one refill; then
/// EAGAIN, or the failure set.
final class FakeScanBuffer: ScanBuffer {
    var chunks: [[UInt8]] = []
    var failure: Errno?
    private var last: [UInt8] = []
    private(set) var destroyed = false

    func refill() throws(Errno) -> Int {
        if let failure { throw failure }
        guard !chunks.isEmpty else { throw Errno.wouldBlock }
        last = chunks.removeFirst()
        return last.count
    }

    func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R { last.withUnsafeBytes(body) }

    func destroy() { destroyed = true }

    /// One scan of x, y and z as `le:s16/16>>0`.
    static func scan(_ values: Int16...) -> [UInt8] {
        values.flatMap { value in [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)] }
    }

    // A valid format: it cannot throw.
    static let format = try! ScanElementFormat(signed: true, bits: 16, storageBits: 16)

    /// Capture over `buffer` of three `le:s16/16` axes, scale 0.5, no timestamps.
    static func capture(_ buffer: FakeScanBuffer, samplingRate: Double?, now: Double,
                        isGone: @escaping () -> Bool = { false }) -> BufferCapture {
        BufferCapture(
            buffer: buffer, descriptor: FileDescriptor(rawValue: -1),
            decoder: ScanDecoder(formats: Array(repeating: format, count: 3)), slots: [0, 1, 2], timestampSlot: nil,
            times: ScanTimes(monotonicStamps: false, kernelBufferScans: BufferCapture.kernelBufferScans,
                             samplingRate: samplingRate),
            axes: IIOAxes(axes: Array(repeating: IIOAxes.Axis(scale: 0.5, offset: 0), count: 3)),
            deviceID: "iio:device1", isGone: isGone, startedAt: now)
    }
}
