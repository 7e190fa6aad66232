import TiltCore
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// An IIO accelerometer through libiio's local backend.
///
/// Buffered capture when the device has scan elements and a trigger to use: its own
/// trigger, at least `SamplingRate.minimum`, x/y/z and the timestamp enabled, a
/// non-blocking buffer read when its descriptor is readable. Otherwise, or when the
/// buffer cannot be enabled, `in_accel_*_raw` is polled at the sampling rate by a
/// reader thread (`PolledReader`): such reads block. Values are `(raw + offset) ×
/// scale` (m/s²), taken to the device frame by the mount matrix; a chip with x and y
/// only gets the z that gravity leaves, screen up (docs/tilt-detection.md). Whatever
/// `start` changes in sysfs, `stop` puts back. A buffer another program is reading
/// (iio-sensor-proxy) is not ours: the source then polls and changes nothing at all,
/// or, where the driver refuses raw reads meanwhile, does not start and says the
/// sensor is busy. A buffer left enabled by a program that died is taken back once
/// nobody has opened its node for `readerWatchTime` (docs/sensors.md, "A buffer in use").
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
    /// Seconds an enabled buffer's node is watched for another program's opens before
    /// the buffer is taken back: iio-sensor-proxy opens it every 700 ms while it reads.
    static let readerWatchTime = 1.5
    static let pollRates = 1.0...100.0
    /// Consecutive failed raw reads before a polled source gives up.
    static let pollFailureLimit = 25
    /// Polled reads timed before the source judges whether the driver is too slow.
    static let readsTimed = 5
    /// A polled sample's reads may take this share of the poll interval; a driver whose
    /// reads wait for fresh data (st_sensors: two data periods per read) is sped up to it
    /// when they take more than `slowRead` of it.
    static let readShare = 0.25
    static let slowRead = 0.75
    /// How far a buffer timestamp may run ahead of the clock at the read (seconds).
    static let timestampLead = 0.05

    private var session: Session?
    private var warnings: [String] = []
    /// Asked of the driver at `start`: `SamplingRate.minimum`, or more while a client plays.
    private var minimumRate = SamplingRate.minimum

    public func setMinimumRate(_ hertz: Double) { minimumRate = max(SamplingRate.minimum, hertz) }
    public private(set) var waitGeneration = 0

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
        /// An enabled buffer whose node nobody held: watched for a program that opens
        /// it now and then, until the deadline, before it is taken back.
        case watching(OpenWatch, deadline: Double)
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
        /// The last timestamp used as a sample time.
        var lastStamp: Double?
        /// The driver's stamps proved unusable (they stood still, went back or were far
        /// from the clock): samples get the time they were read.
        var arrivalTimes = false
        /// The last sample time handed out, so arrival times never go back either.
        var lastTime = -Double.infinity
    }

    private enum ReadJudgement: Equatable {
        case pending
        /// Raised from this rate, because reads took this long.
        case raised(previousRate: Double, readTime: Double)
        case done
    }

    private final class Session {
        let context: IIOContext
        let device: IIODevice
        let axes: [Axis]
        let matrix: Matrix3
        var mode: Mode
        /// Undoes our sysfs changes, most recent first.
        var restore: [() -> Void] = []
        /// The buffer is another program's: nothing is written.
        var foreign = false
        /// The driver's data rate (`sampling_frequency`), when known and not 0.
        var deviceRate: Double?
        /// The rate as found, once we have written ours (to put back at stop).
        var rateSaved = false
        /// Polled: seconds between reads, and what their duration made of the data rate.
        var pollInterval = 0.0
        var readJudgement = ReadJudgement.pending

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
                // Two-axis chips (MXC6255) measure the screen's plane only: enough to tilt.
                if id == "accel_z" { break }
                throw SensorError("\(deviceID) has no \(id) channel: not an accelerometer")
            }
            axes.append(Axis(channel: channel, scale: try Self.number(channel, "scale", default: 1),
                             offset: try Self.number(channel, "offset", default: 0)))
        }
        if let name = device.name { info.name = name }
        let session = Session(context: context, device: device, axes: axes, matrix: info.mountMatrix, mode: .starting)
        self.session = session
        // An enabled buffer is another program's (iio-sensor-proxy) only while that
        // program holds the node or opens it now and then: its rate, trigger and scan
        // elements are its own, so nothing is written, and nothing restored. One left
        // enabled by a program that died (this daemon after SIGKILL, an OOM kill, a
        // watchdog abort) is taken back.
        guard SysfsFile.read(sysfsLinkPath + "/buffer/enable") == "1" else {
            try begin(session, foreign: false)
            return
        }
        let node = info.deviceNode ?? "/dev/\(deviceID)"
        if let error = Self.nodeOpenError(node) {
            warnings.append(error == .busy
                ? "\(deviceID): its buffer is in use by another program; polling, changing nothing"
                : "\(deviceID): its buffer is enabled and \(node) cannot be opened (\(error)); polling, changing nothing")
            try begin(session, foreign: true)
            return
        }
        do throws(Errno) {
            session.mode = .watching(try OpenWatch(node), deadline: MonotonicClock.now() + Self.readerWatchTime)
        } catch {
            warnings.append("\(deviceID): cannot watch \(node) for other readers (\(error)); taking its buffer back now")
            try begin(session, foreign: !disableStaleBuffer())
        }
    }

    /// Starts capture: as the buffer's owner, or (`foreign`) beside the program that
    /// has it, changing nothing.
    private func begin(_ session: Session, foreign: Bool) throws(SensorError) {
        session.foreign = foreign
        if foreign {
            // Some drivers refuse raw reads while their buffer runs (bmc150, kxcjk-1013:
            // EBUSY); then there is nothing to poll until the other program lets go. The
            // HID sensor hub's answers them, and is polled.
            do throws(Errno) {
                _ = try Self.readRaw(session.axes[0])
            } catch where error == .busy {
                stop()
                throw busyError()
            } catch {
                // Left to the reader, which reports it.
            }
        }
        let rate: Double?
        if foreign {
            rate = Self.rateAttribute(session)?.read()?.sysfsNumber
        } else {
            rate = raiseSamplingFrequency(session)
        }
        // Some drivers (the HID sensor hub) read 0: "the device's default".
        session.deviceRate = rate.flatMap { $0 > 0 ? $0 : nil }
        info.samplingRate = session.deviceRate
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

    /// The watch ended: another program opened the node meanwhile, so the buffer is
    /// its own; or nobody did, and the buffer is a stopped program's, taken back.
    private func endWatch(_ session: Session, _ watch: OpenWatch, now: Double, deadline: Double) -> [SensorEvent] {
        let opened = watch.opened()
        guard opened || now >= deadline else { return [] }
        watch.close()
        session.mode = .starting
        waitGeneration += 1
        if opened {
            warnings.append("\(deviceID): another program reads its buffer now and then; polling, changing nothing")
        }
        do throws(SensorError) {
            try begin(session, foreign: opened || !disableStaleBuffer())
        } catch {
            if self.session != nil { stop() }
            return [error.busy ? .busy(error.message) : .failed(error.message)]
        }
        return []
    }

    /// The kernel lets one process at a time open an IIO device's node (EBUSY for the
    /// others), and a reader of the buffer holds it open, or opens it every time it
    /// reads. So when the buffer is enabled but nobody opened the node while it was
    /// watched, the program that enabled it is gone. Disables such a buffer (buffered
    /// capture then sets it up again) and returns true; returns false, changing
    /// nothing, when it cannot.
    private func disableStaleBuffer() -> Bool {
        do {
            try SysfsFile.write(sysfsLinkPath + "/buffer/enable", "0")
        } catch {
            warnings.append("\(deviceID): cannot disable the buffer a stopped program left enabled (\(error)); polling, changing nothing")
            return false
        }
        warnings.append("\(deviceID): took back the buffer a stopped program left enabled")
        return true
    }

    /// The sensor is held by another program: by name, where we may see its descriptors.
    private func busyError() -> SensorError {
        let node = info.deviceNode ?? "/dev/\(deviceID)"
        let names = NodeHolders.programs(holding: node)
        let who = names.isEmpty ? "another program" : "another program (\(names.joined(separator: ", ")))"
        return SensorError("the accelerometer is in use by \(who); tilting resumes when it is free", busy: true)
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
        // A driver with no rate of its own to say (or 0) is read at the rate asked for.
        let pollRate = min(max(session.deviceRate ?? max(Self.defaultPollRate, minimumRate), Self.pollRates.lowerBound),
                           Self.pollRates.upperBound)
        session.pollInterval = 1 / pollRate
        let matrix = session.matrix
        do {
            // From here until `stop` joins it, only the reader thread uses libiio.
            let reader = try PolledReader(interval: 1 / pollRate, first: MonotonicClock.now()) { () throws(Errno) in
                let raw = try axes.map { (axis: Axis) throws(Errno) -> Double in try Self.readRaw(axis) }
                return Self.sample(axes, matrix, raw, time: MonotonicClock.now())
            }
            session.mode = .polled(reader, failures: 0)
            waitGeneration += 1
        } catch {
            stop()
            throw SensorError("\(deviceID): cannot start the thread that reads in_accel_*_raw: \(error)")
        }
        info.buffered = false
        info.samplingRate = pollRate
    }

    /// One axis's `in_accel_*_raw`. (`Syscall` name "read IIO raw", for tests to play a
    /// driver that refuses raw reads while another program has its buffer.)
    private static func readRaw(_ axis: Axis) throws(Errno) -> Double {
        if let fault = Syscall.faultCheck("read IIO raw") { throw fault }
        guard let value = try axis.channel.attribute("raw").sysfsNumber else { throw Errno.ioError }
        return value
    }

    public func stop() {
        guard let session else { return }
        self.session = nil
        switch session.mode {
        case .buffered(let capture): capture.buffer.destroy()
        // Joined: libiio is this thread's again.
        case .polled(let reader, _): reader.stop()
        case .watching(let watch, _): watch.close()
        case .starting: break
        }
        for undo in session.restore.reversed() { undo() }
    }

    public var isSettled: Bool {
        if case .watching? = session?.mode { false } else { true }
    }

    public var wait: SensorWait {
        switch session?.mode {
        case .buffered(let capture)?:
            capture.silenceDeadline.map { .readableUntil(capture.descriptor, $0) } ?? .readable(capture.descriptor)
        case .polled(let reader, _)?: .readable(reader.ready.descriptor)
        case .watching(let watch, let deadline)?: .readableUntil(watch.descriptor, deadline)
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

    /// The data rate and its list of rates offered. Drivers name them every way the
    /// ABI allows, each on its own: the rate per device (`sampling_frequency`) or per
    /// channel (`in_accel_sampling_frequency`, or per axis), and the list per device
    /// (`sampling_frequency_available`) or per channel (`in_accel_…_available`), not
    /// always beside the rate (mma8452, bmc150: the rate per channel, the list per device).
    private struct RateAttribute {
        var read: () -> String?
        var write: (String) throws(Errno) -> Void
        var available: () -> String?
    }

    private static func rateAttribute(_ session: Session) -> RateAttribute? {
        let device = session.device
        let channel = session.axes[0].channel
        let rate = "sampling_frequency", list = "sampling_frequency_available"
        let deviceList: () -> String? = { device.hasAttribute(list) ? try? device.attribute(list) : nil }
        let channelList: () -> String? = { channel.hasAttribute(list) ? try? channel.attribute(list) : nil }
        if device.hasAttribute(rate) {
            return RateAttribute(read: { try? device.attribute(rate) },
                                 write: { (value: String) throws(Errno) in try device.setAttribute(rate, value) },
                                 available: { deviceList() ?? channelList() })
        }
        guard channel.hasAttribute(rate) else { return nil }
        // Shared by the axes (one file), or one per axis: each file written once.
        var files = Set<String>()
        let owners = session.axes.map(\.channel).filter {
            $0.hasAttribute(rate) && files.insert($0.attributeFile(rate) ?? $0.id).inserted
        }
        return RateAttribute(read: { try? channel.attribute(rate) },
                             write: { (value: String) throws(Errno) in
                                 for owner in owners { try owner.setAttribute(rate, value) }
                             },
                             available: { channelList() ?? deviceList() })
    }

    /// Raises the sampling frequency to what `SamplingRate.choose` picks from the
    /// driver's offer; returns the rate in effect, if known.
    private func raiseSamplingFrequency(_ session: Session) -> Double? {
        guard let attribute = Self.rateAttribute(session), let previousText = attribute.read() else { return nil }
        let previous = previousText.sysfsNumber
        guard let offered = attribute.available().flatMap(SamplingRate.Offer.init(parsing:)),
              let target = SamplingRate.choose(current: previous, offer: offered, minimum: minimumRate) else { return previous }
        return setRate(session, attribute, target) ? target : previous
    }

    /// Writes the data rate; the rate as found is put back at stop.
    private func setRate(_ session: Session, _ attribute: RateAttribute, _ target: Double) -> Bool {
        let found = session.rateSaved ? nil : attribute.read()
        do {
            try attribute.write(target.sysfsText)
        } catch {
            warnings.append("\(deviceID): cannot set sampling_frequency to \(target.sysfsText): \(error)")
            return false
        }
        if let found {
            session.rateSaved = true
            session.restore.append { try? attribute.write(found) }
        }
        return true
    }

    /// A driver whose raw reads wait for fresh data (st_sensors sleeps two data periods
    /// in each) cannot be polled faster than its data rate allows: when the reads take
    /// more than `slowRead` of the poll interval, the data rate goes up until they would take
    /// `readShare` of it, and polling starts again. A slow machine (or a slow bus) makes
    /// reads slow at any data rate: if the reads at the new rate are not clearly faster
    /// (under `0.7` of before), the rate found is put back. Nil when nothing changed.
    private func speedUpSlowReads(_ session: Session, _ reader: PolledReader) -> [SensorEvent]? {
        let took = reader.readTime.mean
        let interval = session.pollInterval
        let slow = "\(deviceID): reading in_accel_*_raw takes \(Int(took * 1000)) ms, polled every \(Int(interval * 1000)) ms"
        switch session.readJudgement {
        case .done:
            return nil
        case .raised(let previousRate, let previousTime):
            session.readJudgement = .done
            guard took > 0.7 * previousTime, let attribute = Self.rateAttribute(session) else { return nil }
            return restartPolling(session, reader, attribute, previousRate,
                                  slow + " at \(session.deviceRate?.sysfsText ?? "?") Hz too: data rate put back to \(previousRate.sysfsText) Hz")
        case .pending:
            session.readJudgement = .done
            guard took > Self.slowRead * interval, !session.foreign else { return nil }
            guard let attribute = Self.rateAttribute(session), let current = session.deviceRate,
                  let offered = attribute.available().flatMap(SamplingRate.Offer.init(parsing:)),
                  let target = SamplingRate.choose(current: nil, offer: offered,
                                                   minimum: current * took / (Self.readShare * interval)),
                  target > current else {
                return [.warning(slow + " (the driver offers no faster data rate)")]
            }
            session.readJudgement = .raised(previousRate: current, readTime: took)
            return restartPolling(session, reader, attribute, target,
                                  slow + ": data rate raised from \(current.sysfsText) to \(target.sysfsText) Hz"
                                  + " (a driver that waits for fresh data reads faster then)")
        }
    }

    /// Stops the reader, sets the data rate, and polls again.
    private func restartPolling(_ session: Session, _ reader: PolledReader, _ attribute: RateAttribute,
                                _ rate: Double, _ message: String) -> [SensorEvent] {
        reader.stop()
        session.mode = .starting
        if setRate(session, attribute, rate) { session.deviceRate = rate }
        do throws(SensorError) {
            try startPolling(session)
        } catch {
            stop()
            return [.failed(error.message)]
        }
        return [.warning(message)]
    }

    // MARK: buffered capture

    /// Sets up buffered capture; nil (with everything put back) when it is not possible.
    private func startCapture(_ session: Session) -> Capture? {
        let device = session.device
        let scanChannels = device.channels.filter(\.isScanElement)
        guard session.axes.allSatisfy({ $0.channel.isScanElement && $0.channel.format != nil }) else { return nil }
        // A device that needs a trigger and has none to use delivers nothing: no attempt.
        guard let trigger = triggerPlan(session) else { return nil }
        let undoFrom = session.restore.count
        let monotonic = useMonotonicTimestamps(session)
        if let trigger { setTrigger(session, trigger) }
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

    /// The trigger to set: the device's own (`<name>-dev<N>`) when none is set. `.some(nil)`
    /// when there is nothing to set: a trigger is set already (by the driver, as the HID
    /// sensor hub does, or by the administrator), or the device takes none. Nil when it
    /// needs one and there is none to use (an I2C chip without its interrupt wired).
    private func triggerPlan(_ session: Session) -> (IIODevice, String)?? {
        let device = session.device
        do {
            if try device.trigger() != nil { return .some(nil) }
        } catch {
            // An unset trigger reads as 0 bytes, which libiio 0.24 reports as EIO; a
            // device that takes no trigger has no current_trigger at all.
            let path = sysfsLinkPath + "/trigger/current_trigger"
            guard SysfsFile.exists(path), SysfsFile.read(path) == "" else { return .some(nil) }
        }
        guard let name = device.name else { return nil }
        let triggers = session.context.devices.filter(\.isTrigger).compactMap(\.name)
        guard let wanted = Self.preferredTrigger(deviceName: name, deviceID: deviceID, triggers: triggers),
              let trigger = session.context.device(wanted) else { return nil }
        return .some((trigger, wanted))
    }

    private func setTrigger(_ session: Session, _ trigger: (device: IIODevice, name: String)) {
        let device = session.device
        do {
            try device.setTrigger(trigger.device)
        } catch {
            warnings.append("\(deviceID): cannot set trigger \(trigger.name): \(error)")
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
            if self.session != nil, session.readJudgement != .done, reader.readTime.count >= Self.readsTimed,
               let changed = speedUpSlowReads(session, reader) {
                events += changed
            }
        case .watching(let watch, let deadline):
            events += endWatch(session, watch, now: now, deadline: deadline)
            events += warnings.map(SensorEvent.warning)
            warnings = []
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
                if error == .busy {
                    // Another program enabled the buffer since we started (the driver
                    // refuses raw reads meanwhile): busy, not lost.
                    stop()
                    return events + [.busy(busyError().message)]
                }
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
        var notes: [SensorEvent] = []
        for _ in 0..<Self.refillsPerService {
            let count: Int
            do {
                count = try capture.buffer.refill()
            } catch where error == .wouldBlock {
                break
            } catch {
                let end = lost(error) ?? .failed("\(deviceID): reading the buffer failed: \(error)")
                if self.session != nil { stop() }
                return notes + (samples.isEmpty ? [end] : [.samples(samples), end])
            }
            if count == 0 { break }
            let scans = capture.buffer.withBytes { capture.decoder.feed($0) }
            let readTime = MonotonicClock.now()
            for scan in scans {
                let raw = capture.slots.map { Double(scan[$0]) }
                var time = readTime
                if capture.monotonicTimestamps, !capture.arrivalTimes, let slot = capture.timestampSlot {
                    let stamp = Double(scan[slot]) / 1e9
                    if let problem = timestampProblem(stamp, after: capture.lastStamp, readAt: readTime) {
                        capture.arrivalTimes = true
                        notes.append(.warning("\(deviceID): the buffer's timestamps \(problem); "
                                              + "using the time scans arrive instead"))
                    } else {
                        time = stamp
                        capture.lastStamp = stamp
                    }
                }
                time = max(time, capture.lastTime)
                capture.lastTime = time
                samples.append(Self.sample(session.axes, session.matrix, raw, time: time))
            }
        }
        if samples.isEmpty, !SysfsFile.exists(sysfsPath) {
            stop()
            return notes + [.removed]
        }
        return notes + (samples.isEmpty ? [] : [.samples(samples)])
    }

    /// What is wrong with a buffer timestamp as a sample time, if anything: the clock
    /// is CLOCK_MONOTONIC, a scan is stamped when the trigger fired, so a good stamp
    /// follows the last one, is not ahead of the read, and is no older than the kernel
    /// buffer's length. (kxcjk-1013 under a trigger not its own stamps every scan 0.)
    private func timestampProblem(_ stamp: Double, after previous: Double?, readAt now: Double) -> String? {
        if let previous, stamp == previous { return "do not advance (\(stamp.sysfsText) s twice)" }
        if let previous, stamp < previous { return "go back (\(stamp.sysfsText) s after \(previous.sysfsText) s)" }
        if stamp > now + Self.timestampLead { return "are ahead of the clock (\(stamp.sysfsText) s at \(now.sysfsText) s)" }
        let oldest = max(2, 2 * Double(Self.kernelBufferScans) / (info.samplingRate ?? SamplingRate.minimum))
        if stamp < now - oldest { return "are far behind the clock (\(stamp.sysfsText) s at \(now.sysfsText) s)" }
        return nil
    }

    /// `raw` x, y, z (or x, y) as a sample in m/s², device frame.
    private static func sample(_ axes: [Axis], _ matrix: Matrix3, _ raw: [Double], time: Double) -> Sample {
        let x = axes[0].value(raw[0]), y = axes[1].value(raw[1])
        let z = axes.count > 2 ? axes[2].value(raw[2]) : planeZ(x, y)
        return Sample(time: time, acceleration: matrix * Vector3(x, y, z))
    }

    /// A two-axis chip's missing z: what 1 g leaves after x and y, the screen facing up
    /// (0 when x and y already reach 1 g, so an in-plane knock still exceeds it:
    /// docs/tilt-detection.md, "Two-axis sensors").
    static func planeZ(_ x: Double, _ y: Double) -> Double {
        let rest = standardGravity * standardGravity - x * x - y * y
        return rest > 0 ? rest.squareRoot() : 0
    }

    /// `.removed` (with the source stopped) when the device is gone; nil otherwise.
    private func lost(_ error: Errno) -> SensorEvent? {
        guard error == .noSuchDevice || !SysfsFile.exists(sysfsPath) else { return nil }
        stop()
        return .removed
    }
}
