// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltSystem

/// An IIO accelerometer through libiio's local backend (docs/sensors.md, IIO), composed
/// of one part per concern, each in its own file:
///
/// - `BufferOwnership`: whether an enabled buffer is another program's (the source then
///   polls changing nothing, or says the sensor is busy) or a stopped program's, taken
///   back once nobody has opened its node for `BufferOwnership.watchTime`;
/// - `RateControl`: the driver's data rate, raised at start and when polled reads wait
///   for fresh data;
/// - `BufferCapture` (with `TriggerPlan` and `ScanTimes`): buffered capture when the
///   device has scan elements and a trigger to use; otherwise, or when the buffer
///   cannot be enabled, `RawPolling` reads `in_accel_*_raw` on a thread of its own;
/// - `IIOAxes`: raw values to samples through scale, offset and the mount matrix;
/// - `SysfsJournal`: whatever `start` changes in sysfs, `stop` puts back.
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

    /// Seconds a new buffer may stay silent before the source polls instead.
    static let silenceLimit = 1.0
    /// Polled reads timed before the source judges whether the driver is too slow.
    static let readsTimed = 5

    private var opened: OpenDevice?
    private let notes = SourceNotes()
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

    private enum Mode {
        case buffered(BufferCapture)
        /// Raw attributes read by the reader thread.
        case polled(RawPolling)
        /// Set up, not capturing yet (within `start`).
        case starting
        /// An enabled buffer whose node nobody held: watched for a program that opens
        /// it now and then, until the deadline, before it is taken back.
        case watching(OpenWatch, deadline: Double)
    }

    private final class OpenDevice {
        let context: IIOContext
        let device: IIODevice
        let axes: IIOAxes
        let holder: BufferOwnership
        /// Undoes our sysfs changes at stop.
        let journal: SysfsJournal
        let rates: RateControl
        var mode = Mode.starting
        /// The buffer is another program's: nothing is written.
        var foreign = false
        /// The driver's data rate (`sampling_frequency`), when known and not 0.
        var deviceRate: Double?

        init(context: IIOContext, device: IIODevice, axes: IIOAxes, holder: BufferOwnership,
             journal: SysfsJournal, rates: RateControl) {
            self.context = context
            self.device = device
            self.axes = axes
            self.holder = holder
            self.journal = journal
            self.rates = rates
        }
    }

    private var sysfsPath: String { info.sysfsPath ?? "/sys/bus/iio/devices/\(deviceID)" }
    private var sysfsLinkPath: String { "/sys/bus/iio/devices/\(deviceID)" }

    // MARK: start and stop

    public func start() throws(SensorError) {
        stop()
        _ = notes.take()
        let context: IIOContext
        do {
            context = try IIOContext()
        } catch .libraryUnavailable(let reason) {
            throw SensorError(IIOError.libraryUnavailable(reason).description)
        } catch {
            throw SensorError("cannot open the IIO devices: \(error)")
        }
        guard let device = context.device(deviceID) else { throw SensorError("no IIO device \(deviceID)") }
        let axes = try IIOAxes(device: device, deviceID: deviceID, matrix: info.mountMatrix)
        if let name = device.name { info.name = name }
        let journal = SysfsJournal()
        let opened = OpenDevice(
            context: context, device: device, axes: axes,
            holder: BufferOwnership(deviceID: deviceID, sysfsDirectory: sysfsLinkPath, node: info.deviceNode ?? "/dev/\(deviceID)"),
            journal: journal,
            rates: RateControl(deviceID: deviceID, attribute: RateAttribute.find(device: device, axes: axes.channels),
                               journal: journal, notes: notes))
        self.opened = opened
        // An enabled buffer is another program's (iio-sensor-proxy) only while that
        // program holds the node or opens it now and then: its rate, trigger and scan
        // elements are its own, so nothing is written, and nothing restored. One left
        // enabled by a program that died is taken back.
        switch opened.holder.find(now: MonotonicClock.now()) {
        case .free:
            try begin(opened, foreign: false)
        case .foreign(let note):
            notes.add(note)
            try begin(opened, foreign: true)
        case .watching(let watch, let deadline):
            opened.mode = .watching(watch, deadline: deadline)
        case .unwatchable(let note):
            notes.add(note)
            try begin(opened, foreign: !takeBack(opened))
        }
    }

    /// Starts capture: as the buffer's owner, or (`foreign`) beside the program that
    /// has it, changing nothing.
    private func begin(_ opened: OpenDevice, foreign: Bool) throws(SensorError) {
        opened.foreign = foreign
        if foreign {
            // Some drivers refuse raw reads while their buffer runs (bmc150, kxcjk-1013:
            // EBUSY); then there is nothing to poll until the other program lets go. The
            // HID sensor hub's answers them, and is polled.
            do throws(Errno) {
                _ = try IIOAxes.readRaw(opened.axes.axes[0])
            } catch where error == .busy {
                stop()
                throw opened.holder.busyError()
            } catch {
                // Left to the reader, which reports it.
            }
        }
        let rate = foreign ? opened.rates.current() : opened.rates.raise(minimum: minimumRate)
        // Some drivers (the HID sensor hub) read 0: "the device's default".
        opened.deviceRate = rate.flatMap { $0 > 0 ? $0 : nil }
        info.samplingRate = opened.deviceRate
        if !foreign, var capture = BufferCapture.start(
            opened.device, deviceID: deviceID, axes: opened.axes, context: opened.context,
            sysfsDirectory: sysfsLinkPath, samplingRate: info.samplingRate, journal: opened.journal, notes: notes) {
            // A buffer that never delivers (a trigger that does not fire) must not leave
            // the game without a sensor: after this long without a scan, poll instead.
            capture.silenceDeadline = MonotonicClock.now() + max(Self.silenceLimit, 10 / (info.samplingRate ?? 50))
            opened.mode = .buffered(capture)
            info.buffered = true
            return
        }
        try startPolling(opened)
    }

    /// The watch ended: another program opened the node meanwhile, so the buffer is
    /// its own; or nobody did, and the buffer is a stopped program's, taken back.
    private func endWatch(_ opened: OpenDevice, _ watch: OpenWatch, now: Double, deadline: Double) -> [SensorEvent] {
        guard let verdict = opened.holder.verdict(watch, now: now, deadline: deadline) else { return [] }
        watch.close()
        opened.mode = .starting
        waitGeneration += 1
        var foreign = true
        switch verdict {
        case .foreign(let note): notes.add(note)
        case .stale: foreign = !takeBack(opened)
        }
        do throws(SensorError) {
            try begin(opened, foreign: foreign)
        } catch {
            if self.opened != nil { stop() }
            return [error.kind == .busy ? .busy(error.message) : .failed(error.message)]
        }
        return []
    }

    /// Disables the buffer a stopped program left enabled; false when it cannot.
    private func takeBack(_ opened: OpenDevice) -> Bool {
        let (taken, note) = opened.holder.takeBack()
        notes.add(note)
        return taken
    }

    /// Reads `in_accel_*_raw` at the sampling rate on a thread of its own.
    private func startPolling(_ opened: OpenDevice) throws(SensorError) {
        let rate = RawPolling.rate(deviceRate: opened.deviceRate, minimum: minimumRate)
        do {
            // From here until `stop` joins it, only the reader thread uses libiio.
            opened.mode = .polled(try RawPolling(opened.axes, rate: rate))
            waitGeneration += 1
        } catch {
            stop()
            throw SensorError("\(deviceID): cannot start the thread that reads in_accel_*_raw: \(error)")
        }
        info.buffered = false
        info.samplingRate = rate
    }

    /// Stops the reader, sets the data rate, and polls again.
    private func restartPolling(_ opened: OpenDevice, _ reader: PolledReader, _ rate: Double, _ message: String) -> [SensorEvent] {
        reader.stop()
        opened.mode = .starting
        if opened.rates.set(rate) { opened.deviceRate = rate }
        do throws(SensorError) {
            try startPolling(opened)
        } catch {
            stop()
            return [.failed(error.message)]
        }
        return [.warning(message)]
    }

    public func stop() {
        guard let opened else { return }
        self.opened = nil
        switch opened.mode {
        case .buffered(let capture): capture.buffer.destroy()
        // Joined: libiio is this thread's again.
        case .polled(let polling): polling.reader.stop()
        case .watching(let watch, _): watch.close()
        case .starting: break
        }
        opened.journal.restoreAll()
    }

    public var isSettled: Bool {
        if case .watching? = opened?.mode { false } else { true }
    }

    public var wait: SensorWait {
        switch opened?.mode {
        case .buffered(let capture)?:
            capture.silenceDeadline.map { .readableUntil(capture.descriptor, $0) } ?? .readable(capture.descriptor)
        case .polled(let polling)?: .readable(polling.reader.ready.descriptor)
        case .watching(let watch, let deadline)?: .readableUntil(watch.descriptor, deadline)
        case .starting?, nil: .idle
        }
    }

    // MARK: service

    public func service(now: Double) -> [SensorEvent] {
        var events = notes.take().map(SensorEvent.warning)
        guard let opened else { return events }
        switch opened.mode {
        case .buffered(var capture):
            let (drained, end) = capture.drain(opened.axes, deviceID: deviceID) { !SysfsFile.exists(sysfsPath) }
            events += drained
            if let end {
                stop()
                events.append(end)
                break
            }
            if !drained.isEmpty {
                capture.silenceDeadline = nil
            } else if let deadline = capture.silenceDeadline, now >= deadline {
                events.append(.warning("\(deviceID): the buffer delivered nothing; polling instead"))
                capture.buffer.destroy()
                do throws(SensorError) {
                    try startPolling(opened)
                } catch {
                    stop()
                    events.append(.failed(error.message))
                }
                break
            }
            opened.mode = .buffered(capture)
        case .polled(var polling):
            let (collected, end) = polling.collect(deviceID: deviceID) { !SysfsFile.exists(sysfsPath) }
            events += collected
            if let end {
                stop()
                switch end {
                case .removed: events.append(.removed)
                case .busy: events.append(.busy(opened.holder.busyError().message))
                case .failed(let message): events.append(.failed(message))
                }
                break
            }
            opened.mode = .polled(polling)
            let reader = polling.reader
            if opened.rates.judgement != .done, reader.readTime.count >= Self.readsTimed {
                switch opened.rates.judge(readTime: reader.readTime.mean, interval: polling.interval,
                                           rate: opened.deviceRate, foreign: opened.foreign) {
                case .nothing: break
                case .warning(let line): events.append(.warning(line))
                case .setRate(let rate, let line): events += restartPolling(opened, reader, rate, line)
                }
            }
        case .watching(let watch, let deadline):
            events += endWatch(opened, watch, now: now, deadline: deadline)
            events += notes.take().map(SensorEvent.warning)
        case .starting:
            break
        }
        return events
    }
}
