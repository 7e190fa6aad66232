import TiltCore
import TiltSystem

/// An IIO accelerometer through libiio's local backend.
///
/// Buffered capture when the device has scan elements: its own trigger, at least
/// `SamplingRate.minimum`, x/y/z and the timestamp enabled, a non-blocking buffer
/// read when its descriptor is readable. Otherwise, or when the buffer cannot be
/// enabled (or another program has it), `in_accel_*_raw` is polled at the sampling
/// rate. Values are `(raw + offset) × scale` (m/s²), taken to the device frame by
/// the mount matrix. Whatever `start` changes in sysfs, `stop` puts back.
public final class IIOSource: SensorSource {
    /// `iio:deviceN`.
    public let deviceID: String
    public private(set) var info: SensorInfo
    /// The info came from discovery (udev's view: sysfs path, location, mount matrix).
    private var discovered: Bool

    /// Scans the buffer holds; the node wakes us as soon as one is there.
    static let bufferSamples = 32
    /// Refills per service call at the most, so the loop stays responsive.
    static let refillsPerService = 64
    static let defaultPollRate = 50.0
    static let pollRates = 1.0...100.0
    /// Consecutive failed raw reads before a polled source gives up.
    static let pollFailureLimit = 25

    private var session: Session?
    private var warnings: [String] = []

    /// A device found by discovery: `info` carries its sysfs path and mount matrix.
    public init(deviceID: String, info: SensorInfo) {
        self.deviceID = deviceID
        self.info = info
        discovered = true
    }

    /// A device by id alone: udev is asked at start for what discovery would know.
    public init(deviceID: String) {
        self.deviceID = deviceID
        info = SensorInfo(kind: .iio, name: deviceID)
        discovered = false
    }

    private struct Axis {
        var channel: IIOChannel
        var scale: Double
        var offset: Double

        func value(_ raw: Double) -> Double { (raw + offset) * scale }
    }

    private enum Mode {
        case buffered(Capture)
        case polled(interval: Double, next: Double, failures: Int)
    }

    private struct Capture {
        var buffer: IIOBuffer
        var descriptor: FileDescriptor
        var decoder: ScanDecoder
        /// Where x, y, z and the timestamp sit among the decoded elements.
        var slots: [Int]
        var timestampSlot: Int?
        var monotonicTimestamps: Bool
    }

    private final class Session {
        let context: IIOContext
        let device: IIODevice
        let axes: [Axis]
        let matrix: Matrix3
        var mode: Mode
        /// Undoes our sysfs changes, most recent first.
        var restore: [() -> Void] = []

        init(context: IIOContext, device: IIODevice, axes: [Axis], matrix: Matrix3, mode: Mode) {
            self.context = context
            self.device = device
            self.axes = axes
            self.matrix = matrix
            self.mode = mode
        }
    }

    private var sysfsPath: String { info.sysfsPath ?? "/sys/bus/iio/devices/\(deviceID)" }
    private var sysfsLinkPath: String { "/sys/bus/iio/devices/\(deviceID)" }

    // MARK: start and stop

    public func start() throws(SensorError) {
        stop()
        warnings = []
        let context: IIOContext
        do {
            context = try IIOContext()
        } catch {
            throw SensorError("cannot open the IIO devices: \(error)")
        }
        guard let device = context.device(deviceID) else { throw SensorError("no IIO device \(deviceID)") }
        var axes: [Axis] = []
        for id in ["accel_x", "accel_y", "accel_z"] {
            guard let channel = device.channel(id) else {
                throw SensorError("\(deviceID) has no \(id) channel: not an accelerometer")
            }
            axes.append(Axis(channel: channel, scale: try Self.number(channel, "scale", default: 1),
                             offset: try Self.number(channel, "offset", default: 0)))
        }
        if !discovered, let udev = UdevContext(), let found = udev.device(subsystem: "iio", sysname: deviceID)
            .flatMap({ SensorDiscovery.candidate($0) }) {
            info = found.info
            warnings += found.notes.map { "\(deviceID): \($0)" }
            discovered = true
        }
        if let name = device.name { info.name = name }
        let session = Session(context: context, device: device, axes: axes, matrix: info.mountMatrix,
                              mode: .polled(interval: 0, next: 0, failures: 0))
        self.session = session
        // Some drivers (the HID sensor hub) read 0: "the device's default".
        let rate = raiseSamplingFrequency(session).flatMap { $0 > 0 ? $0 : nil }
        info.samplingRate = rate
        if let capture = startCapture(session) {
            session.mode = .buffered(capture)
            info.buffered = true
        } else {
            let pollRate = rate.map { min(max($0, Self.pollRates.lowerBound), Self.pollRates.upperBound) }
                ?? Self.defaultPollRate
            session.mode = .polled(interval: 1 / pollRate, next: MonotonicClock.now(), failures: 0)
            info.buffered = false
            info.samplingRate = pollRate
        }
    }

    public func stop() {
        guard let session else { return }
        self.session = nil
        if case .buffered(let capture) = session.mode { capture.buffer.destroy() }
        for undo in session.restore.reversed() { undo() }
    }

    public var wait: SensorWait {
        switch session?.mode {
        case .buffered(let capture)?: .readable(capture.descriptor)
        case .polled(_, let next, _)?: .deadline(next)
        case nil: .idle
        }
    }

    private static func number(_ channel: IIOChannel, _ attribute: String, default value: Double) throws(SensorError) -> Double {
        guard channel.hasAttribute(attribute) else { return value }
        let file = channel.attributeFile(attribute) ?? attribute
        guard let text = try? channel.attribute(attribute) else { throw SensorError("cannot read \(file)") }
        guard let number = text.sysfsNumber else { throw SensorError("\(file) is not a number: '\(text)'") }
        return number
    }

    /// Raises the sampling frequency to what `SamplingRate.choose` picks from the
    /// driver's offer; returns the rate in effect, if known.
    private func raiseSamplingFrequency(_ session: Session) -> Double? {
        let device = session.device
        let channel = session.axes[0].channel
        let read: (String) -> String?
        let write: (String, String) throws(Errno) -> Void
        if device.hasAttribute("sampling_frequency") {
            read = { device.hasAttribute($0) ? try? device.attribute($0) : nil }
            write = { (name: String, value: String) throws(Errno) in try device.setAttribute(name, value) }
        } else if channel.hasAttribute("sampling_frequency") {
            read = { channel.hasAttribute($0) ? try? channel.attribute($0) : nil }
            write = { (name: String, value: String) throws(Errno) in try channel.setAttribute(name, value) }
        } else {
            return nil
        }
        guard let previousText = read("sampling_frequency") else { return nil }
        let previous = previousText.sysfsNumber
        guard let offered = read("sampling_frequency_available").flatMap(SamplingRate.Offer.init(parsing:)),
              let target = SamplingRate.choose(current: previous, offer: offered) else { return previous }
        do {
            try write("sampling_frequency", target.sysfsText)
        } catch {
            warnings.append("\(deviceID): cannot set sampling_frequency to \(target.sysfsText): \(error)")
            return previous
        }
        session.restore.append { try? write("sampling_frequency", previousText) }
        return target
    }

    // MARK: buffered capture

    /// Sets up buffered capture; nil (with everything put back) when it is not possible.
    private func startCapture(_ session: Session) -> Capture? {
        let device = session.device
        let scanChannels = device.channels.filter(\.isScanElement)
        guard session.axes.allSatisfy({ $0.channel.isScanElement && $0.channel.format != nil }) else { return nil }
        if SysfsFile.read(sysfsLinkPath + "/buffer/enable") == "1" {
            warnings.append("\(deviceID): its buffer is in use by another program; polling instead")
            return nil
        }
        let undoFrom = session.restore.count
        let monotonic = useMonotonicTimestamps(session)
        selectTrigger(session)
        saveScanElements(session, scanChannels)

        let timestamp = device.channel("timestamp").flatMap { $0.isScanElement && $0.format != nil ? $0 : nil }
        let wanted = session.axes.map(\.channel.id) + (timestamp.map { [$0.id] } ?? [])
        for channel in scanChannels {
            if wanted.contains(channel.id) { channel.enable() } else { channel.disable() }
        }
        let enabled = scanChannels.filter { wanted.contains($0.id) }.sorted { $0.index < $1.index }
        let decoder = ScanDecoder(formats: enabled.compactMap(\.format))
        let slots = session.axes.compactMap { axis in enabled.firstIndex { $0.id == axis.channel.id } }
        let timestampSlot = timestamp.flatMap { stamp in enabled.firstIndex { $0.id == stamp.id } }
        do {
            let buffer = try device.createBuffer(samples: Self.bufferSamples)
            try buffer.setBlocking(false)
            guard let descriptor = buffer.descriptor else { throw Errno.badFileDescriptor }
            if let expected = device.sampleSize, expected != decoder.scanSize {
                warnings.append("\(deviceID): libiio counts \(expected) bytes per scan, the IIO ABI \(decoder.scanSize)")
            }
            return Capture(buffer: buffer, descriptor: descriptor, decoder: decoder, slots: slots,
                           timestampSlot: timestampSlot, monotonicTimestamps: monotonic)
        } catch {
            warnings.append("\(deviceID): cannot enable the buffer (\(error)); polling instead")
            for undo in session.restore[undoFrom...].reversed() { undo() }
            session.restore.removeSubrange(undoFrom...)
            return nil
        }
    }

    /// Asks for CLOCK_MONOTONIC buffer timestamps, so they compare with our clock.
    private func useMonotonicTimestamps(_ session: Session) -> Bool {
        let device = session.device
        let attribute = "current_timestamp_clock"
        guard device.hasAttribute(attribute), let previous = try? device.attribute(attribute) else { return false }
        if previous == "monotonic" { return true }
        guard (try? device.setAttribute(attribute, "monotonic")) != nil else { return false }
        session.restore.append { try? device.setAttribute(attribute, previous) }
        return (try? device.attribute(attribute)) == "monotonic"
    }

    /// The device's own trigger (`<name>-dev<N>`) when none is set; a trigger already
    /// set (by the driver, as the HID sensor hub does, or by the administrator) is kept.
    private func selectTrigger(_ session: Session) {
        let device = session.device
        let current: IIODevice?
        do {
            current = try device.trigger()
        } catch {
            return   // the device takes no trigger
        }
        guard current == nil, let name = device.name else { return }
        let triggers = session.context.devices.filter(\.isTrigger).compactMap(\.name)
        guard let wanted = Self.preferredTrigger(deviceName: name, deviceID: deviceID, triggers: triggers),
              let trigger = session.context.device(wanted) else { return }
        do {
            try device.setTrigger(trigger)
        } catch {
            warnings.append("\(deviceID): cannot set trigger \(wanted): \(error)")
            return
        }
        session.restore.append { try? device.setTrigger(nil) }
    }

    /// The trigger a driver registers for its device: `<name>-dev<N>` for `iio:deviceN`,
    /// else one named after the device.
    public static func preferredTrigger(deviceName: String, deviceID: String, triggers: [String]) -> String? {
        let number = deviceID.hasPrefix("iio:device") ? String(deviceID.dropFirst("iio:device".count)) : nil
        if let number, triggers.contains("\(deviceName)-dev\(number)") { return "\(deviceName)-dev\(number)" }
        return triggers.first { $0.hasPrefix(deviceName + "-dev") } ?? triggers.first { $0.hasPrefix(deviceName + "-") }
    }

    /// Records every scan element's enable state; libiio rewrites them all.
    private func saveScanElements(_ session: Session, _ channels: [IIOChannel]) {
        let directory = sysfsLinkPath + "/scan_elements/"
        let saved = channels.compactMap { channel -> (String, String)? in
            let path = directory + "in_\(channel.id)_en"
            return SysfsFile.read(path).map { (path, $0) }
        }
        session.restore.append {
            for (path, value) in saved where SysfsFile.read(path) != value {
                try? SysfsFile.write(path, value)
            }
        }
    }

    // MARK: service

    public func service(now: Double) -> [SensorEvent] {
        var events = warnings.map(SensorEvent.warning)
        warnings = []
        guard let session else { return events }
        switch session.mode {
        case .buffered(var capture):
            events += drain(session, &capture)
            if self.session != nil { session.mode = .buffered(capture) }
        case .polled(let interval, let next, let failures):
            guard now >= next else { return events }
            var due = next + interval
            if due <= now { due = now + interval }
            do throws(Errno) {
                let raw = try session.axes.map { (axis: Axis) throws(Errno) -> Double in
                    let text = try axis.channel.attribute("raw")
                    guard let value = text.sysfsNumber else { throw Errno.ioError }
                    return value
                }
                session.mode = .polled(interval: interval, next: due, failures: 0)
                events.append(.samples([sample(session, raw, time: MonotonicClock.now())]))
            } catch {
                if let end = lost(error) { return events + [end] }
                session.mode = .polled(interval: interval, next: due, failures: failures + 1)
                if failures + 1 >= Self.pollFailureLimit {
                    stop()
                    return events + [.failed("\(deviceID): reading in_accel_*_raw failed \(failures + 1) times: \(error)")]
                }
                if failures == 0 { events.append(.warning("\(deviceID): cannot read in_accel_*_raw: \(error)")) }
            }
        }
        return events
    }

    private func drain(_ session: Session, _ capture: inout Capture) -> [SensorEvent] {
        var samples: [Sample] = []
        for _ in 0..<Self.refillsPerService {
            let count: Int
            do {
                count = try capture.buffer.refill()
            } catch where error == .wouldBlock {
                break
            } catch {
                let end = lost(error) ?? .failed("\(deviceID): reading the buffer failed: \(error)")
                if self.session != nil { stop() }
                return samples.isEmpty ? [end] : [.samples(samples), end]
            }
            if count == 0 { break }
            let scans = capture.buffer.withBytes { capture.decoder.feed($0) }
            let readTime = MonotonicClock.now()
            for scan in scans {
                let raw = capture.slots.map { Double(scan[$0]) }
                let time = capture.monotonicTimestamps ? capture.timestampSlot.map { Double(scan[$0]) / 1e9 } : nil
                samples.append(sample(session, raw, time: time ?? readTime))
            }
        }
        if samples.isEmpty, !SysfsFile.exists(sysfsPath) {
            stop()
            return [.removed]
        }
        return samples.isEmpty ? [] : [.samples(samples)]
    }

    private func sample(_ session: Session, _ raw: [Double], time: Double) -> Sample {
        let axes = session.axes
        let sensor = Vector3(axes[0].value(raw[0]), axes[1].value(raw[1]), axes[2].value(raw[2]))
        return Sample(time: time, acceleration: session.matrix * sensor)
    }

    /// `.removed` (with the source stopped) when the device is gone; nil otherwise.
    private func lost(_ error: Errno) -> SensorEvent? {
        guard error == .noSuchDevice || !SysfsFile.exists(sysfsPath) else { return nil }
        stop()
        return .removed
    }
}
