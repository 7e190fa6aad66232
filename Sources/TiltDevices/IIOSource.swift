import TiltCore
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// An IIO accelerometer through libiio's local backend.
///
/// Buffered capture when the device has scan elements: its own trigger, at least
/// `SamplingRate.minimum`, x/y/z and the timestamp enabled, a non-blocking buffer
/// read when its descriptor is readable. Otherwise, or when the buffer cannot be
/// enabled, `in_accel_*_raw` is polled at the sampling rate by a reader thread
/// (`PolledReader`): such reads block. Values are `(raw + offset) × scale` (m/s²),
/// taken to the device frame by the mount matrix. Whatever `start` changes in sysfs,
/// `stop` puts back. A buffer another program is reading (iio-sensor-proxy) is not
/// ours: the source then polls and changes nothing at all. A buffer left enabled by a
/// program that died is taken back (docs/sensors.md, "A buffer in use").
///
/// Threads: libiio (the context, its devices, channels and buffer) is used by the
/// caller's thread, except while a polled source runs: from the reader's start to
/// `stop`, only the reader thread reads the axes' channels, and the caller's thread
/// touches nothing of libiio (`service` only takes what the reader queued). `stop`
/// joins the reader before it restores sysfs or releases the context.
public final class IIOSource: SensorSource {
    /// `iio:deviceN`.
    public let deviceID: String
    public private(set) var info: SensorInfo

    /// Scans per libiio buffer. libiio sets `buffer/watermark` to it, and the kernel
    /// makes the node readable only once that many scans wait: 1, so every scan wakes
    /// us (32 meant a third of a second of latency at 100 Hz on a real driver).
    static let bufferSamples = 1
    /// Scans the kernel buffer holds (`buffer/length`), for when the loop is late.
    static let kernelBufferScans = 64
    /// Refills per service call at the most, so the loop stays responsive.
    static let refillsPerService = 64
    static let defaultPollRate = 50.0
    /// Seconds a new buffer may stay silent before the source polls instead.
    static let silenceLimit = 1.0
    static let pollRates = 1.0...100.0
    /// Consecutive failed raw reads before a polled source gives up.
    static let pollFailureLimit = 25

    private var session: Session?
    private var warnings: [String] = []
    /// Asked of the driver at `start`: `SamplingRate.minimum`, or more while a client plays.
    private var minimumRate = SamplingRate.minimum

    public func setMinimumRate(_ hertz: Double) { minimumRate = max(SamplingRate.minimum, hertz) }

    /// `info` is what discovery found (`SensorCandidate.makeSource`): the sysfs path,
    /// the location and the mount matrix come from udev.
    public init(deviceID: String, info: SensorInfo) {
        self.deviceID = deviceID
        self.info = info
    }

    private struct Axis {
        var channel: IIOChannel
        var scale: Double
        var offset: Double

        func value(_ raw: Double) -> Double { (raw + offset) * scale }
    }

    private enum Mode {
        case buffered(Capture)
        /// Raw attributes read by the reader thread; `failures` in a row so far.
        case polled(PolledReader, failures: Int)
        /// Set up, not capturing yet (within `start`).
        case starting
    }

    private struct Capture {
        var buffer: IIOBuffer
        var descriptor: FileDescriptor
        var decoder: ScanDecoder
        /// Where x, y, z and the timestamp sit among the decoded elements.
        var slots: [Int]
        var timestampSlot: Int?
        var monotonicTimestamps: Bool
        /// Until the first scan: when to give up on the buffer and poll instead.
        var silenceDeadline: Double?
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
        } catch .libraryUnavailable(let reason) {
            throw SensorError(IIOError.libraryUnavailable(reason).description)
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
        if let name = device.name { info.name = name }
        let session = Session(context: context, device: device, axes: axes, matrix: info.mountMatrix, mode: .starting)
        self.session = session
        // An enabled buffer is another program's (iio-sensor-proxy) only while that
        // program holds the node: its rate, trigger and scan elements are its own, so
        // nothing is written, and nothing restored. One left enabled by a program that
        // died (this daemon after SIGKILL, an OOM kill, a watchdog abort) is taken back.
        let foreign: Bool
        if SysfsFile.read(sysfsLinkPath + "/buffer/enable") == "1" {
            foreign = !takeBackStaleBuffer()
        } else {
            foreign = false
        }
        let rate: Double?
        if foreign {
            rate = Self.rateAttribute(session)?.read("sampling_frequency")?.sysfsNumber
        } else {
            rate = raiseSamplingFrequency(session)
        }
        // Some drivers (the HID sensor hub) read 0: "the device's default".
        info.samplingRate = rate.flatMap { $0 > 0 ? $0 : nil }
        if !foreign, var capture = startCapture(session) {
            // A buffer that never delivers (a trigger that does not fire) must not leave
            // the game without a sensor: after this long without a scan, poll instead.
            capture.silenceDeadline = MonotonicClock.now() + max(Self.silenceLimit, 10 / (info.samplingRate ?? 50))
            session.mode = .buffered(capture)
            info.buffered = true
            return
        }
        try startPolling(session)
    }

    /// The kernel lets one process at a time open an IIO device's node (EBUSY for the
    /// others), and a reader of the buffer holds it open. So when the buffer is enabled
    /// but the node opens, nobody is reading: the program that enabled it is gone.
    /// Disables such a buffer (buffered capture then sets it up again) and returns
    /// true; returns false, changing nothing, when the node is held or cannot be opened.
    private func takeBackStaleBuffer() -> Bool {
        let node = info.deviceNode ?? "/dev/\(deviceID)"
        if let error = Self.nodeOpenError(node) {
            warnings.append(error == .busy
                ? "\(deviceID): its buffer is in use by another program; polling, changing nothing"
                : "\(deviceID): its buffer is enabled and \(node) cannot be opened (\(error)); polling, changing nothing")
            return false
        }
        do {
            try SysfsFile.write(sysfsLinkPath + "/buffer/enable", "0")
        } catch {
            warnings.append("\(deviceID): cannot disable the buffer a stopped program left enabled (\(error)); polling, changing nothing")
            return false
        }
        warnings.append("\(deviceID): took back the buffer a stopped program left enabled")
        return true
    }

    /// Opens the node and closes it again; the error if it would not open.
    /// (`Syscall` name "open IIO node", for tests to play a busy device.)
    static func nodeOpenError(_ node: String) -> Errno? {
        do {
            let fd = try Syscall.call("open IIO node") { Glibc.open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
            try? FileDescriptor(rawValue: fd).close()
            return nil
        } catch {
            return error
        }
    }

    /// Reads `in_accel_*_raw` at the sampling rate on a thread of its own.
    private func startPolling(_ session: Session) throws(SensorError) {
        let axes = session.axes
        let pollRate = info.samplingRate.map { min(max($0, Self.pollRates.lowerBound), Self.pollRates.upperBound) }
            ?? Self.defaultPollRate
        let matrix = session.matrix
        do {
            // From here until `stop` joins it, only the reader thread uses libiio.
            let reader = try PolledReader(interval: 1 / pollRate, first: MonotonicClock.now()) { () throws(Errno) in
                let raw = try axes.map { (axis: Axis) throws(Errno) -> Double in
                    guard let value = try axis.channel.attribute("raw").sysfsNumber else { throw Errno.ioError }
                    return value
                }
                return Self.sample(axes, matrix, raw, time: MonotonicClock.now())
            }
            session.mode = .polled(reader, failures: 0)
        } catch {
            stop()
            throw SensorError("\(deviceID): cannot start the thread that reads in_accel_*_raw: \(error)")
        }
        info.buffered = false
        info.samplingRate = pollRate
    }

    public func stop() {
        guard let session else { return }
        self.session = nil
        switch session.mode {
        case .buffered(let capture): capture.buffer.destroy()
        // Joined: libiio is this thread's again.
        case .polled(let reader, _): reader.stop()
        case .starting: break
        }
        for undo in session.restore.reversed() { undo() }
    }

    public var wait: SensorWait {
        switch session?.mode {
        case .buffered(let capture)?:
            capture.silenceDeadline.map { .readableUntil(capture.descriptor, $0) } ?? .readable(capture.descriptor)
        case .polled(let reader, _)?: .readable(reader.ready.descriptor)
        case .starting?, nil: .idle
        }
    }

    private static func number(_ channel: IIOChannel, _ attribute: String, default value: Double) throws(SensorError) -> Double {
        guard channel.hasAttribute(attribute) else { return value }
        let file = channel.attributeFile(attribute) ?? attribute
        guard let text = try? channel.attribute(attribute) else { throw SensorError("cannot read \(file)") }
        guard let number = text.sysfsNumber else { throw SensorError("\(file) is not a number: '\(text)'") }
        return number
    }

    /// `sampling_frequency` and its `_available`: the device's, or the axes' shared ones.
    private struct RateAttribute {
        var read: (String) -> String?
        var write: (String, String) throws(Errno) -> Void
    }

    private static func rateAttribute(_ session: Session) -> RateAttribute? {
        let device = session.device
        let channel = session.axes[0].channel
        if device.hasAttribute("sampling_frequency") {
            return RateAttribute(read: { device.hasAttribute($0) ? try? device.attribute($0) : nil },
                                 write: { (name: String, value: String) throws(Errno) in try device.setAttribute(name, value) })
        }
        if channel.hasAttribute("sampling_frequency") {
            return RateAttribute(read: { channel.hasAttribute($0) ? try? channel.attribute($0) : nil },
                                 write: { (name: String, value: String) throws(Errno) in try channel.setAttribute(name, value) })
        }
        return nil
    }

    /// Raises the sampling frequency to what `SamplingRate.choose` picks from the
    /// driver's offer; returns the rate in effect, if known.
    private func raiseSamplingFrequency(_ session: Session) -> Double? {
        guard let attribute = Self.rateAttribute(session),
              let previousText = attribute.read("sampling_frequency") else { return nil }
        let previous = previousText.sysfsNumber
        guard let offered = attribute.read("sampling_frequency_available").flatMap(SamplingRate.Offer.init(parsing:)),
              let target = SamplingRate.choose(current: previous, offer: offered, minimum: minimumRate) else { return previous }
        do {
            try attribute.write("sampling_frequency", target.sysfsText)
        } catch {
            warnings.append("\(deviceID): cannot set sampling_frequency to \(target.sysfsText): \(error)")
            return previous
        }
        session.restore.append { try? attribute.write("sampling_frequency", previousText) }
        return target
    }

    // MARK: buffered capture

    /// Sets up buffered capture; nil (with everything put back) when it is not possible.
    private func startCapture(_ session: Session) -> Capture? {
        let device = session.device
        let scanChannels = device.channels.filter(\.isScanElement)
        guard session.axes.allSatisfy({ $0.channel.isScanElement && $0.channel.format != nil }) else { return nil }
        let undoFrom = session.restore.count
        let monotonic = useMonotonicTimestamps(session)
        selectTrigger(session)
        saveScanElements(session, scanChannels)
        saveBufferSettings(session)

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
            try device.setKernelBuffersCount(Self.kernelBufferScans / Self.bufferSamples)
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
            // An unset trigger reads as 0 bytes, which libiio 0.24 reports as EIO; a
            // device that takes no trigger has no current_trigger at all.
            let path = sysfsLinkPath + "/trigger/current_trigger"
            guard SysfsFile.exists(path), SysfsFile.read(path) == "" else { return }
            current = nil
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
        restoreLater(session, channels.map { sysfsLinkPath + "/scan_elements/in_\($0.id)_en" })
    }

    /// Records `buffer/length` and `buffer/watermark`, which libiio sets when it
    /// creates the buffer.
    private func saveBufferSettings(_ session: Session) {
        restoreLater(session, ["buffer/length", "buffer/watermark"].map { sysfsLinkPath + "/" + $0 })
    }

    /// Puts these sysfs files back as they are now when the session ends.
    private func restoreLater(_ session: Session, _ paths: [String]) {
        let saved = paths.compactMap { path in SysfsFile.read(path).map { (path, $0) } }
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
            let drained = drain(session, &capture)
            events += drained
            guard self.session != nil else { break }
            if !drained.isEmpty {
                capture.silenceDeadline = nil
            } else if let deadline = capture.silenceDeadline, now >= deadline {
                events.append(.warning("\(deviceID): the buffer delivered nothing; polling instead"))
                capture.buffer.destroy()
                do throws(SensorError) {
                    try startPolling(session)
                } catch {
                    stop()
                    events.append(.failed(error.message))
                }
                break
            }
            session.mode = .buffered(capture)
        case .polled(let reader, let failures):
            events += collect(session, reader, failures: failures)
        case .starting:
            break
        }
        return events
    }

    /// What the reader thread queued, in order: the samples; a warning at the first
    /// failed read of a run, `failed` (the source stopped) after `pollFailureLimit`
    /// in a row, `removed` when the device has gone.
    private func collect(_ session: Session, _ reader: PolledReader, failures: Int) -> [SensorEvent] {
        var events: [SensorEvent] = []
        var samples: [Sample] = []
        var failures = failures
        func flush() {
            if !samples.isEmpty { events.append(.samples(samples)) }
            samples = []
        }
        for outcome in reader.take() {
            switch outcome {
            case .sample(let sample):
                samples.append(sample)
                failures = 0
            case .readFailed(let error):
                flush()
                if let end = lost(error) { return events + [end] }
                failures += 1
                if failures >= Self.pollFailureLimit {
                    stop()
                    return events + [.failed("\(deviceID): reading in_accel_*_raw failed \(failures) times: \(error)")]
                }
                if failures == 1 { events.append(.warning("\(deviceID): cannot read in_accel_*_raw: \(error)")) }
            case .stopped(let error):
                flush()
                stop()
                return events + [.failed("\(deviceID): the thread that reads in_accel_*_raw stopped: \(error)")]
            }
        }
        flush()
        session.mode = .polled(reader, failures: failures)
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
                samples.append(Self.sample(session.axes, session.matrix, raw, time: time ?? readTime))
            }
        }
        if samples.isEmpty, !SysfsFile.exists(sysfsPath) {
            stop()
            return [.removed]
        }
        return samples.isEmpty ? [] : [.samples(samples)]
    }

    /// `raw` x, y, z as a sample in m/s², device frame.
    private static func sample(_ axes: [Axis], _ matrix: Matrix3, _ raw: [Double], time: Double) -> Sample {
        let sensor = Vector3(axes[0].value(raw[0]), axes[1].value(raw[1]), axes[2].value(raw[2]))
        return Sample(time: time, acceleration: matrix * sensor)
    }

    /// `.removed` (with the source stopped) when the device is gone; nil otherwise.
    private func lost(_ error: Errno) -> SensorEvent? {
        guard error == .noSuchDevice || !SysfsFile.exists(sysfsPath) else { return nil }
        stop()
        return .removed
    }
}
