// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltSystem

/// Buffered capture of an IIO accelerometer (docs/sensors.md, IIO, "Buffered
/// capture"): its trigger, x/y/z and the timestamp enabled, `current_timestamp_clock`
/// monotonic, a non-blocking libiio buffer drained when its descriptor is readable.
/// Every setting it changes goes into the source's journal first. A buffer that stays
/// silent until `silenceDeadline` ends it, and the source polls instead.
final class BufferCapture: IIOCapture {
    /// Scans per libiio buffer. libiio sets `buffer/watermark` to it, and the kernel
    /// makes the node readable only once that many scans wait: 1, so every scan wakes
    /// us (32 meant a third of a second of latency at 100 Hz on a real driver).
    static let bufferSamples = 1
    /// Scans the kernel buffer holds (`buffer/length`), for when the loop is late.
    static let kernelBufferScans = 64
    /// Refills per drain at the most, so the loop stays responsive.
    static let refillsPerDrain = 64
    /// Seconds a new buffer may stay silent before the source polls instead (or ten
    /// sample periods, if that is longer).
    static let silenceLimit = 1.0

    let buffer: any ScanBuffer
    let descriptor: FileDescriptor
    private var decoder: ScanDecoder
    /// Where x, y, z and the timestamp sit among the decoded elements.
    private let slots: [Int]
    private let timestampSlot: Int?
    private var times: ScanTimes
    private let axes: IIOAxes
    /// `iio:deviceN`, for the messages.
    private let deviceID: String
    /// Whether the device has gone, asked when a read fails or brings nothing.
    private let isGone: () -> Bool
    /// Until the first scan: when to give up on the buffer and poll instead.
    private(set) var silenceDeadline: Double?

    init(buffer: any ScanBuffer, descriptor: FileDescriptor, decoder: ScanDecoder, slots: [Int], timestampSlot: Int?,
         times: ScanTimes, axes: IIOAxes, deviceID: String, isGone: @escaping () -> Bool, startedAt now: Double) {
        self.buffer = buffer
        self.descriptor = descriptor
        self.decoder = decoder
        self.slots = slots
        self.timestampSlot = timestampSlot
        self.times = times
        self.axes = axes
        self.deviceID = deviceID
        self.isGone = isGone
        // A buffer that never delivers (a trigger that does not fire) must not leave
        // the game without a sensor: after this long without a scan, poll instead.
        silenceDeadline = now + max(Self.silenceLimit, 10 / (times.samplingRate ?? 50))
    }

    /// Sets up capture on libiio's `device` at `now`, with the trigger `trigger` says
    /// (made from sysfs before libiio was opened); nil (with what it changed rolled back)
    /// when it is not possible. `samplingRate` is the driver's data rate, if known. Lines
    /// for the log either way.
    static func start(_ device: LibIIODevice, trigger: TriggerPlan, samplingRate: Double?,
                      now: Double) -> (capture: BufferCapture?, notes: [String]) {
        let deviceID = device.deviceID, sysfsDirectory = device.sysfsDirectory, journal = device.journal
        let axes = device.axes, iio = device.device
        var notes: [String] = []
        let scanChannels = iio.channels.filter(\.isScanElement)
        let axisChannels = device.channels
        guard axisChannels.allSatisfy({ $0.isScanElement && $0.format != nil }) else { return (nil, notes) }
        // The trigger to set, as a device of libiio's context; one gone since sysfs named it is none to use.
        var triggerToSet: (device: IIODevice, name: String)?
        switch trigger {
        case .missing: return (nil, notes)
        case .keep: break
        case .set(let name):
            guard let found = device.context.device(name) else { return (nil, notes) }
            triggerToSet = (found, name)
        }
        let mark = journal.mark
        let monotonic = useMonotonicTimestamps(iio, journal: journal)
        if let (triggerDevice, name) = triggerToSet {
            do {
                try iio.setTrigger(triggerDevice)
                journal.record { try? iio.setTrigger(nil) }
            } catch {
                notes.append("\(deviceID): cannot set trigger \(name): \(error)")
            }
        }
        // libiio rewrites every scan element's enable flag, and sets `buffer/length`
        // and `buffer/watermark` when it creates the buffer.
        journal.keep(scanElementFiles(sysfsDirectory: sysfsDirectory, scanElements: scanChannels.map(\.id)))
        journal.keep(bufferFiles(sysfsDirectory: sysfsDirectory))

        let timestamp = iio.channel("timestamp").flatMap { $0.isScanElement && $0.format != nil ? $0 : nil }
        let layout = layout(scanElements: scanChannels.map { ($0.id, $0.index) }, axes: axisChannels.map(\.id),
                            timestamp: timestamp?.id)
        for channel in scanChannels {
            if layout.enabled.contains(channel.id) { channel.enable() } else { channel.disable() }
        }
        let enabled = layout.enabled.compactMap { id in scanChannels.first { $0.id == id } }
        let decoder = ScanDecoder(formats: enabled.compactMap(\.format))
        do {
            try iio.setKernelBuffersCount(kernelBufferScans / bufferSamples)
            let buffer = try iio.createBuffer(samples: bufferSamples)
            try buffer.setBlocking(false)
            guard let descriptor = buffer.descriptor else { throw Errno.badFileDescriptor }
            if let expected = iio.sampleSize, expected != decoder.scanSize {
                notes.append("\(deviceID): libiio counts \(expected) bytes per scan, the IIO ABI \(decoder.scanSize)")
            }
            let capture = BufferCapture(
                buffer: buffer, descriptor: descriptor, decoder: decoder,
                slots: layout.slots, timestampSlot: layout.timestampSlot,
                times: ScanTimes(monotonicStamps: monotonic, kernelBufferScans: kernelBufferScans,
                                 samplingRate: samplingRate),
                axes: axes, deviceID: deviceID, isGone: device.isGone, startedAt: now)
            return (capture, notes)
        } catch {
            notes.append("\(deviceID): cannot enable the buffer (\(error)); polling instead")
            journal.rollBack(to: mark)
            return (nil, notes)
        }
    }

    /// The scan elements to enable (the axes and the timestamp, if any), in scan index
    /// order, and where each axis and the timestamp sit among them in a scan.
    static func layout(scanElements: [(id: String, index: Int)], axes: [String], timestamp: String?)
        -> (enabled: [String], slots: [Int], timestampSlot: Int?) {
        let wanted = axes + (timestamp.map { [$0] } ?? [])
        let enabled = scanElements.filter { wanted.contains($0.id) }.sorted { $0.index < $1.index }.map(\.id)
        return (enabled, axes.compactMap { enabled.firstIndex(of: $0) }, timestamp.flatMap { enabled.firstIndex(of: $0) })
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

    var wait: SensorWait {
        silenceDeadline.map { .readableUntil(descriptor, $0) } ?? .readable(descriptor)
    }

    /// Disables the buffer and closes its node.
    func stop() { buffer.destroy() }

    /// What the buffer holds (`drain`); the end when the buffer has stayed silent
    /// past its deadline.
    func service(now: Double) -> CaptureTurn {
        var turn = drain()
        guard turn.end == nil else { return turn }
        if !turn.events.isEmpty {
            silenceDeadline = nil
        } else if let deadline = silenceDeadline, now >= deadline {
            turn.events.append(.warning("\(deviceID): the buffer delivered nothing; polling instead"))
            turn.end = .silent
        }
        return turn
    }

    /// The buffer's scans as samples (and lines for the log about their times), up to
    /// `refillsPerDrain` refills; the end, when reading the buffer failed or nothing
    /// came and the device has gone (`isGone`): `removed` or `failed`.
    func drain() -> CaptureTurn {
        var samples: [Sample] = []
        var turn = CaptureTurn()
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
                    turn.events.append(.warning("\(deviceID): the buffer's timestamps \(problem); using the time scans arrive instead"))
                }
                samples.append(axes.sample(slots.map { Double(scan[$0]) }, time: time))
            }
        }
        if !samples.isEmpty { turn.events.append(.samples(samples)) }
        if let failure {
            turn.end = failure == .noSuchDevice || isGone() ? .removed : .failed("\(deviceID): reading the buffer failed: \(failure)")
        } else if samples.isEmpty && isGone() {
            turn.end = .removed
        }
        return turn
    }
}

/// What buffered capture reads scans from: libiio's buffer, or a test's.
protocol ScanBuffer: AnyObject {
    /// Reads what the kernel has (non-blocking: EAGAIN when nothing); the byte count.
    func refill() throws(Errno) -> Int
    /// The bytes of the last refill.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R
    /// Disables the buffer; safe to call twice.
    func destroy()
}

extension IIOBuffer: ScanBuffer {}
