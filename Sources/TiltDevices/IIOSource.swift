// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltSystem

/// An IIO accelerometer (docs/sensors.md, IIO), composed of one part per concern, each
/// in its own file:
///
/// - `OpenIIODevice` (the kernel's: `SysfsIIODevice`, its attributes read through
///   sysfs, `IIOAttributes`): the device while the source runs, with its `IIOAxes` (raw
///   values to samples through scale and offset) and `SysfsJournal` (whatever the
///   source changes in sysfs, `stop` puts back); libiio's side (`LibIIODevice`) is
///   opened only when a buffer starts;
/// - `BufferOwnership`: whether an enabled buffer is another program's (the source then
///   polls changing nothing, or says the sensor is busy) or a stopped program's, taken
///   back once nobody has opened its node for `BufferOwnership.watchTime`;
/// - `RateControl`: the driver's data rate, raised at start and when polled reads wait
///   for fresh data;
/// - the captures (`IIOCapture`), one at a time: `BufferWatch` while the source finds
///   out whose an enabled buffer is; `BufferCapture` (with `TriggerPlan` and
///   `ScanTimes`) when the device has scan elements and a trigger to use; otherwise, or
///   when the buffer cannot be enabled or stays silent, `RawPolling` reads
///   `in_accel_*_raw` on a thread of its own.
///
/// The source applies the mount matrix to what its captures deliver (`service`).
///
/// When a capture ends, `follow` (the table of fallbacks) picks the next or stops the
/// source: the one place a running source stops itself.
///
/// Threads: the device (and libiio's context, its devices, channels and buffer, when a
/// buffer started) is used by the caller's thread, except while a polled source runs:
/// from the reader's start to its stop, only the reader thread reads the axes' raw
/// files (`service` only takes what the reader queued). `stop` joins the reader before
/// it restores sysfs.
public final class IIOSource: SensorSource {
    /// `iio:deviceN`.
    public let deviceID: String
    public private(set) var info: SensorInfo
    /// The device's own mount matrix, from discovery.
    private let deviceMatrix: Matrix3

    /// Opens the device at `start`: the kernel's through sysfs, or a test's.
    typealias Open = (_ deviceID: String, _ info: SensorInfo) throws(SensorError) -> any OpenIIODevice
    private let open: Open
    /// The clock a polled read's duration is measured on (a test's plays the driver's read times).
    private let readClock: @Sendable () -> Double
    private var device: (any OpenIIODevice)?
    private var capture: (any IIOCapture)?
    /// The buffer is another program's: nothing is written.
    private var foreign = false
    /// The driver's data rate (`sampling_frequency`), when known and not 0.
    private var deviceRate: Double?
    /// Lines for the log from `start`, handed over at the next `service`.
    private var pending: [SensorEvent] = []
    /// Asked of the driver at `start`: `SamplingRate.minimum`, or more while a client plays.
    private var minimumRate = SamplingRate.minimum

    public func setMinimumRate(_ hertz: Double) { minimumRate = max(SamplingRate.minimum, hertz) }

    public func setMountMatrix(_ configured: Matrix3?) {
        info.mountMatrix = MountMatrix.chosen(configured: configured, device: deviceMatrix)
    }
    public private(set) var descriptorSwaps = 0

    /// `info` is what discovery found (`SensorCandidate.makeSource`): the sysfs path,
    /// the location and the mount matrix come from udev.
    public convenience init(deviceID: String, info: SensorInfo) {
        self.init(deviceID: deviceID, info: info) { (id, info) throws(SensorError) in
            try SysfsIIODevice(deviceID: id, info: info)
        }
    }

    init(deviceID: String, info: SensorInfo, readClock: @escaping @Sendable () -> Double = { MonotonicClock.now() },
         open: @escaping Open) {
        self.deviceID = deviceID
        self.info = info
        self.open = open
        self.readClock = readClock
        deviceMatrix = info.mountMatrix
    }

    // MARK: start and stop

    public func start() throws(SensorError) {
        stop()
        pending = []
        let device = try open(deviceID, info)
        if let name = device.name { info.name = name }
        self.device = device
        do throws(SensorError) {
            // An enabled buffer is another program's (iio-sensor-proxy) only while that
            // program holds the node or opens it now and then: its rate, trigger and scan
            // elements are its own, so nothing is written, and nothing restored. One left
            // enabled by a program that died is taken back.
            switch device.ownership.find(now: MonotonicClock.now()) {
            case .free:
                pending = try begin(device, foreign: false)
            case .foreign(let note):
                pending = [.warning(note)] + (try begin(device, foreign: true))
            case .watching(let watch, let deadline):
                capture = BufferWatch(ownership: device.ownership, watch: watch, deadline: deadline)
            case .unwatchable(let note):
                let (taken, takeBackNote) = device.ownership.takeBack()
                pending = [.warning(note), .warning(takeBackNote)] + (try begin(device, foreign: !taken))
            }
        } catch {
            stop()
            throw error
        }
    }

    /// Starts capture: as the buffer's owner, or (`foreign`) beside the program that
    /// has it, changing nothing. Lines for the log.
    private func begin(_ device: any OpenIIODevice, foreign: Bool) throws(SensorError) -> [SensorEvent] {
        self.foreign = foreign
        var notes: [String] = []
        let rate: Double?
        if foreign {
            // Some drivers refuse raw reads while their buffer runs (bmc150, kxcjk-1013:
            // EBUSY); then there is nothing to poll until the other program lets go. The
            // HID sensor hub's answers them, and is polled.
            do throws(Errno) {
                try device.probeRaw()
            } catch where error == .busy {
                throw device.ownership.busyError()
            } catch {
                // Left to the reader, which reports it.
            }
            rate = device.rates.current()
        } else {
            let raised = device.rates.raise(minimum: minimumRate)
            rate = raised.rate
            notes += raised.note.map { [$0] } ?? []
        }
        // Some drivers (the HID sensor hub) read 0: "the device's default".
        deviceRate = rate.flatMap { $0 > 0 ? $0 : nil }
        info.samplingRate = deviceRate
        if !foreign {
            let (buffered, lines) = device.startBuffer(samplingRate: info.samplingRate, now: MonotonicClock.now())
            notes += lines
            if let buffered {
                capture = buffered
                info.buffered = true
                return notes.map(SensorEvent.warning)
            }
        }
        try poll(device)
        return notes.map(SensorEvent.warning)
    }

    /// Reads `in_accel_*_raw` at the sampling rate on a thread of its own.
    private func poll(_ device: any OpenIIODevice) throws(SensorError) {
        let rate = RawPolling.rate(deviceRate: deviceRate, minimum: minimumRate)
        let rates = device.rates, deviceRate = deviceRate, foreign = foreign
        do {
            // From here until its stop, only the reader thread reads the device.
            capture = try RawPolling(
                rate: rate, deviceID: deviceID, readClock: readClock,
                read: { () throws(Errno) in try device.readSample() },
                isGone: { device.isGone },
                judge: { readTime, interval in
                    rates.judge(readTime: readTime, interval: interval, rate: deviceRate, foreign: foreign)
                })
            descriptorSwaps += 1
        } catch {
            throw SensorError("\(deviceID): cannot start the thread that reads in_accel_*_raw: \(error)")
        }
        info.buffered = false
        info.samplingRate = rate
    }

    /// The table of fallbacks: what follows the end of the capture in progress. The
    /// events it makes; the source is stopped when nothing follows.
    private func follow(_ end: CaptureEnd, _ device: any OpenIIODevice) -> [SensorEvent] {
        capture?.stop()
        capture = nil
        descriptorSwaps += 1
        do throws(SensorError) {
            switch end {
            case .silent:
                try poll(device)
                return []
            case .slowReads(let rate, let line):
                let (done, note) = device.rates.set(rate)
                if done { deviceRate = rate }
                try poll(device)
                return [.warning(line)] + (note.map { [.warning($0)] } ?? [])
            case .foreignBuffer(let note):
                return [.warning(note)] + (try begin(device, foreign: true))
            case .staleBuffer:
                let (taken, note) = device.ownership.takeBack()
                return [.warning(note)] + (try begin(device, foreign: !taken))
            case .removed:
                stop()
                return [.removed]
            case .busy:
                stop()
                return [.busy(device.ownership.busyError().message)]
            case .failed(let message):
                stop()
                return [.failed(message)]
            }
        } catch {
            stop()
            return [error.kind == .busy ? .busy(error.message) : .failed(error.message)]
        }
    }

    public func stop() {
        guard let device else { return }
        self.device = nil
        // Joined, if it was polling: the device is this thread's again.
        capture?.stop()
        capture = nil
        device.journal.restoreAll()
    }

    public var isSettled: Bool { !(capture is BufferWatch) }

    public var wait: SensorWait { capture?.wait ?? .idle }

    // MARK: service

    public func service(now: Double) -> [SensorEvent] {
        var events = pending
        pending = []
        guard let device, let capture else { return events }
        let turn = capture.service(now: now)
        let matrix = info.mountMatrix
        events += turn.events.map { event in
            guard case .samples(let samples) = event else { return event }
            return .samples(samples.map { Sample(time: $0.time, acceleration: matrix * $0.acceleration) })
        }
        if let end = turn.end { events += follow(end, device) }
        return events
    }
}
