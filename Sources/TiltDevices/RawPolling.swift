// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltSystem

/// Polled capture of an IIO accelerometer (docs/sensors.md, IIO, "Polling"):
/// `in_accel_*_raw` read at the poll rate by a `PolledReader` thread, and what it
/// queued turned into events on the loop's thread; once enough reads are timed, the
/// driver's data rate is judged from them.
///
/// Threads: from `init` until `stop`, only the reader thread calls `read` (and so
/// reads the axes' raw files).
final class RawPolling: IIOCapture {
    let reader: PolledReader
    /// Seconds between reads.
    let interval: Double
    /// `iio:deviceN`, for the messages.
    let deviceID: String
    /// Whether the device has gone, asked after a failed read.
    private let isGone: () -> Bool
    /// What the reads' mean duration asks of the source (`RateControl.judge`).
    private let judge: (_ readTime: Double, _ interval: Double) -> RateControl.Change
    /// Failed reads in a row so far.
    private var failures = 0

    /// Consecutive failed raw reads before a polled source gives up.
    static let failureLimit = 25
    /// Polled reads timed before the driver's rate is judged.
    static let readsTimed = 5
    static let rates = 1.0...100.0, defaultRate = 50.0

    /// The rate to poll at: the driver's data rate, clamped; a driver with no rate of
    /// its own to say (or 0) is read at the rate asked for.
    static func rate(deviceRate: Double?, minimum: Double) -> Double {
        min(max(deviceRate ?? max(defaultRate, minimum), rates.lowerBound), rates.upperBound)
    }

    /// Starts the reader thread, which calls `read` every `1 / rate` seconds and times
    /// it on `readClock`.
    init(rate: Double, deviceID: String, readClock: @escaping @Sendable () -> Double = { MonotonicClock.now() },
         read: @escaping () throws(Errno) -> Sample,
         isGone: @escaping () -> Bool = { false },
         judge: @escaping (_ readTime: Double, _ interval: Double) -> RateControl.Change = { _, _ in .nothing }) throws(Errno) {
        interval = 1 / rate
        self.deviceID = deviceID
        self.isGone = isGone
        self.judge = judge
        reader = try PolledReader(interval: interval, first: MonotonicClock.now(), readClock: readClock, read: read)
    }

    var wait: SensorWait { .readable(reader.ready.descriptor) }

    /// Joins the reader: the device is the caller's thread's again.
    func stop() { reader.stop() }

    /// What the reader thread queued, in order: the samples; a warning at the first
    /// failed read of a run, and the end after `failureLimit` in a row, or when the
    /// device has gone (a read failed and `isGone` says so) or is busy; then what the
    /// reads' duration asks.
    func service(now: Double) -> CaptureTurn {
        var turn = collect()
        if turn.end == nil, reader.readTime.count >= Self.readsTimed {
            switch judge(reader.readTime.mean, interval) {
            case .nothing: break
            case .warning(let line): turn.events.append(.warning(line))
            case .setRate(let rate, let line): turn.end = .slowReads(rate: rate, line: line)
            }
        }
        return turn
    }

    private func collect() -> CaptureTurn {
        var turn = CaptureTurn()
        var samples: [Sample] = []
        func flush() {
            if !samples.isEmpty { turn.events.append(.samples(samples)) }
            samples = []
        }
        for outcome in reader.take() {
            switch outcome {
            case .sample(let sample):
                samples.append(sample)
                failures = 0
            case .readFailed(let error):
                flush()
                if error == .noSuchDevice || isGone() { turn.end = .removed; return turn }
                if error == .busy { turn.end = .busy; return turn }
                failures += 1
                if failures >= Self.failureLimit {
                    turn.end = .failed("\(deviceID): reading in_accel_*_raw failed \(failures) times: \(error)")
                    return turn
                }
                if failures == 1 { turn.events.append(.warning("\(deviceID): cannot read in_accel_*_raw: \(error)")) }
            case .stopped(let error):
                flush()
                turn.end = .failed("\(deviceID): the thread that reads in_accel_*_raw stopped: \(error)")
                return turn
            }
        }
        flush()
        return turn
    }
}
