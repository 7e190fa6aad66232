// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltSystem

/// Buffered capture of an IIO accelerometer (docs/sensors.md, IIO, "Buffered
/// capture"): its trigger, x/y/z and the timestamp enabled, `current_timestamp_clock`
/// monotonic, a non-blocking libiio buffer drained when its descriptor is readable.
/// Every setting it changes goes into the source's journal first.
struct BufferCapture {
    /// Scans per libiio buffer. libiio sets `buffer/watermark` to it, and the kernel
    /// makes the node readable only once that many scans wait: 1, so every scan wakes
    /// us (32 meant a third of a second of latency at 100 Hz on a real driver).
    static let bufferSamples = 1
    /// Scans the kernel buffer holds (`buffer/length`), for when the loop is late.
    static let kernelBufferScans = 64
    /// Refills per drain at the most, so the loop stays responsive.
    static let refillsPerDrain = 64

    let buffer: IIOBuffer
    let descriptor: FileDescriptor
    private var decoder: ScanDecoder
    /// Where x, y, z and the timestamp sit among the decoded elements.
    private let slots: [Int]
    private let timestampSlot: Int?
    private var times: ScanTimes
    /// Until the first scan: when to give up on the buffer and poll instead.
    var silenceDeadline: Double?

    /// Sets up capture; nil (with what it changed rolled back) when it is not possible.
    /// `samplingRate` is the driver's data rate, if known.
    static func start(_ device: IIODevice, deviceID: String, axes: IIOAxes, context: IIOContext,
                      sysfsDirectory: String, samplingRate: Double?,
                      journal: SysfsJournal, notes: SourceNotes) -> BufferCapture? {
        let scanChannels = device.channels.filter(\.isScanElement)
        guard axes.channels.allSatisfy({ $0.isScanElement && $0.format != nil }) else { return nil }
        let trigger = TriggerPlan.plan(device, deviceID: deviceID, in: context, sysfsDirectory: sysfsDirectory)
        if case .missing = trigger { return nil }
        let mark = journal.mark
        let monotonic = useMonotonicTimestamps(device, journal: journal)
        if case .set(let triggerDevice, let name) = trigger {
            do {
                try device.setTrigger(triggerDevice)
                journal.record { try? device.setTrigger(nil) }
            } catch {
                notes.add("\(deviceID): cannot set trigger \(name): \(error)")
            }
        }
        // libiio rewrites every scan element's enable flag, and sets `buffer/length`
        // and `buffer/watermark` when it creates the buffer.
        journal.keep(scanElementFiles(sysfsDirectory: sysfsDirectory, scanElements: scanChannels.map(\.id)))
        journal.keep(bufferFiles(sysfsDirectory: sysfsDirectory))

        let timestamp = device.channel("timestamp").flatMap { $0.isScanElement && $0.format != nil ? $0 : nil }
        let wanted = axes.channels.map(\.id) + (timestamp.map { [$0.id] } ?? [])
        for channel in scanChannels {
            if wanted.contains(channel.id) { channel.enable() } else { channel.disable() }
        }
        let enabled = scanChannels.filter { wanted.contains($0.id) }.sorted { $0.index < $1.index }
        let decoder = ScanDecoder(formats: enabled.compactMap(\.format))
        do {
            try device.setKernelBuffersCount(kernelBufferScans / bufferSamples)
            let buffer = try device.createBuffer(samples: bufferSamples)
            try buffer.setBlocking(false)
            guard let descriptor = buffer.descriptor else { throw Errno.badFileDescriptor }
            if let expected = device.sampleSize, expected != decoder.scanSize {
                notes.add("\(deviceID): libiio counts \(expected) bytes per scan, the IIO ABI \(decoder.scanSize)")
            }
            return BufferCapture(
                buffer: buffer, descriptor: descriptor, decoder: decoder,
                slots: axes.channels.compactMap { axis in enabled.firstIndex { $0.id == axis.id } },
                timestampSlot: timestamp.flatMap { stamp in enabled.firstIndex { $0.id == stamp.id } },
                times: ScanTimes(monotonicStamps: monotonic, kernelBufferScans: kernelBufferScans,
                                 samplingRate: samplingRate))
        } catch {
            notes.add("\(deviceID): cannot enable the buffer (\(error)); polling instead")
            journal.rollBack(to: mark)
            return nil
        }
    }

    /// The sysfs files libiio writes when it sets up a buffer, besides the trigger:
    /// each scan element's enable flag; `buffer/length` and `buffer/watermark`.
    static func scanElementFiles(sysfsDirectory: String, scanElements: [String]) -> [String] {
        scanElements.map { sysfsDirectory + "/scan_elements/in_\($0)_en" }
    }

    static func bufferFiles(sysfsDirectory: String) -> [String] {
        ["buffer/length", "buffer/watermark"].map { sysfsDirectory + "/" + $0 }
    }

    /// Asks for CLOCK_MONOTONIC buffer timestamps, so they compare with our clock.
    private static func useMonotonicTimestamps(_ device: IIODevice, journal: SysfsJournal) -> Bool {
        let attribute = "current_timestamp_clock"
        guard device.hasAttribute(attribute), let previous = try? device.attribute(attribute) else { return false }
        if previous == "monotonic" { return true }
        guard (try? device.setAttribute(attribute, "monotonic")) != nil else { return false }
        journal.record { try? device.setAttribute(attribute, previous) }
        return (try? device.attribute(attribute)) == "monotonic"
    }

    /// The buffer's scans as samples (and lines for the log about their times), up to
    /// `refillsPerDrain` refills; the end, when reading the buffer failed or nothing
    /// came and the device has gone (`isGone`): `removed` or `failed`.
    mutating func drain(_ axes: IIOAxes, deviceID: String, isGone: () -> Bool) -> (events: [SensorEvent], end: SensorEvent?) {
        var samples: [Sample] = []
        var events: [SensorEvent] = []
        var failure: Errno?
        for _ in 0..<Self.refillsPerDrain {
            let count: Int
            do {
                count = try buffer.refill()
            } catch where error == .wouldBlock {
                break
            } catch {
                failure = error
                break
            }
            if count == 0 { break }
            let scans = buffer.withBytes { decoder.feed($0) }
            let readTime = MonotonicClock.now()
            for scan in scans {
                let stamp = timestampSlot.map { Double(scan[$0]) / 1e9 }
                let (time, problem) = times.time(stamp: stamp, readAt: readTime)
                if let problem {
                    events.append(.warning("\(deviceID): the buffer's timestamps \(problem); using the time scans arrive instead"))
                }
                samples.append(axes.sample(slots.map { Double(scan[$0]) }, time: time))
            }
        }
        if !samples.isEmpty { events.append(.samples(samples)) }
        if let failure {
            return (events, failure == .noSuchDevice || isGone() ? .removed : .failed("\(deviceID): reading the buffer failed: \(failure)"))
        }
        return (events, samples.isEmpty && isGone() ? .removed : nil)
    }
}
