// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltSystem

/// Polled capture of an IIO accelerometer (docs/sensors.md, IIO, "Polling"):
/// `in_accel_*_raw` read at the poll rate by a `PolledReader` thread, and what it
/// queued turned into events on the loop's thread.
///
/// Threads: from `init` until the reader is stopped, only the reader thread reads
/// the axes' channels.
struct RawPolling {
    let reader: PolledReader
    /// Seconds between reads.
    let interval: Double
    /// Failed reads in a row so far.
    private var failures = 0

    /// Consecutive failed raw reads before a polled source gives up.
    static let failureLimit = 25
    static let rates = 1.0...100.0, defaultRate = 50.0

    /// The rate to poll at: the driver's data rate, clamped; a driver with no rate of
    /// its own to say (or 0) is read at the rate asked for.
    static func rate(deviceRate: Double?, minimum: Double) -> Double {
        min(max(deviceRate ?? max(defaultRate, minimum), rates.lowerBound), rates.upperBound)
    }

    /// Starts the reader thread, which calls `read` every `1 / rate` seconds.
    init(rate: Double, read: @escaping () throws(Errno) -> Sample) throws(Errno) {
        interval = 1 / rate
        reader = try PolledReader(interval: interval, first: MonotonicClock.now(), read: read)
    }

    /// Polls the axes' `in_accel_*_raw`.
    init(_ axes: IIOAxes, rate: Double) throws(Errno) {
        try self.init(rate: rate) { () throws(Errno) in axes.sample(try axes.readRaw(), time: MonotonicClock.now()) }
    }

    /// Why polling must end.
    enum End: Equatable {
        /// The device has gone.
        case removed
        /// Another program enabled the buffer since we started (the driver refuses raw
        /// reads meanwhile): busy, not lost.
        case busy
        case failed(String)
    }

    /// What the reader thread queued, in order: the samples; a warning at the first
    /// failed read of a run, and the end after `failureLimit` in a row, or when the
    /// device has gone (a read failed and `isGone` says so) or is busy.
    mutating func collect(deviceID: String, isGone: () -> Bool) -> (events: [SensorEvent], end: End?) {
        var events: [SensorEvent] = []
        var samples: [Sample] = []
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
                if error == .noSuchDevice || isGone() { return (events, .removed) }
                if error == .busy { return (events, .busy) }
                failures += 1
                if failures >= Self.failureLimit {
                    return (events, .failed("\(deviceID): reading in_accel_*_raw failed \(failures) times: \(error)"))
                }
                if failures == 1 { events.append(.warning("\(deviceID): cannot read in_accel_*_raw: \(error)")) }
            case .stopped(let error):
                flush()
                return (events, .failed("\(deviceID): the thread that reads in_accel_*_raw stopped: \(error)"))
            }
        }
        flush()
        return (events, nil)
    }
}
