// SPDX-License-Identifier: GPL-3.0-or-later
/// The times buffered samples get (docs/sensors.md, IIO, "Buffered capture",
/// timestamps): the buffer's CLOCK_MONOTONIC stamps while they are usable, else the
/// time each scan was read; never a time before the last one handed out.
struct ScanTimes {
    /// How far a buffer timestamp may run ahead of the clock at the read (seconds).
    static let timestampLead = 0.05

    /// The stamps are on CLOCK_MONOTONIC, the clock everything else uses.
    let monotonicStamps: Bool
    /// Scans the kernel buffer holds, and the driver's data rate if known: how old a
    /// good stamp can be.
    let kernelBufferScans: Int
    let samplingRate: Double?
    /// The last timestamp used as a sample time.
    private var lastStamp: Double?
    /// The driver's stamps proved unusable (they stood still, went back or were far
    /// from the clock): samples get the time they were read.
    private(set) var arrivalTimes = false
    /// The last sample time handed out, so arrival times never go back either.
    private var lastTime = -Double.infinity

    init(monotonicStamps: Bool, kernelBufferScans: Int, samplingRate: Double?) {
        self.monotonicStamps = monotonicStamps
        self.kernelBufferScans = kernelBufferScans
        self.samplingRate = samplingRate
    }

    /// The time of a scan stamped `stamp` (seconds; nil without a timestamp element)
    /// and read at `readTime`; and, the first time the stamps prove unusable, what is
    /// wrong with them.
    mutating func time(stamp: Double?, readAt readTime: Double) -> (time: Double, problem: String?) {
        var time = readTime
        var problem: String?
        if monotonicStamps, !arrivalTimes, let stamp {
            problem = self.problem(stamp, readAt: readTime)
            if problem != nil {
                arrivalTimes = true
            } else {
                time = stamp
                lastStamp = stamp
            }
        }
        time = max(time, lastTime)
        lastTime = time
        return (time, problem)
    }

    /// What is wrong with a buffer timestamp as a sample time, if anything: a scan is
    /// stamped when the trigger fired, so a good stamp follows the last one, is not
    /// ahead of the read, and is no older than the kernel buffer's length.
    /// (kxcjk-1013 under a trigger not its own stamps every scan 0.)
    private func problem(_ stamp: Double, readAt now: Double) -> String? {
        if let previous = lastStamp, stamp == previous { return "do not advance (\(stamp.sysfsText) s twice)" }
        if let previous = lastStamp, stamp < previous { return "go back (\(stamp.sysfsText) s after \(previous.sysfsText) s)" }
        if stamp > now + Self.timestampLead { return "are ahead of the clock (\(stamp.sysfsText) s at \(now.sysfsText) s)" }
        let oldest = max(2, 2 * Double(kernelBufferScans) / (samplingRate ?? SamplingRate.minimum))
        if stamp < now - oldest { return "are far behind the clock (\(stamp.sysfsText) s at \(now.sysfsText) s)" }
        return nil
    }
}
