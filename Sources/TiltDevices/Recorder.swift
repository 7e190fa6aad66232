// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// Records a started source until a time, a sample count, Ctrl-C or the sensor's
/// end: waits on the source, on udev for its removal and on SIGINT/SIGTERM, and
/// hands each sample on with times counted from the first one (docs/traces.md).
public struct Recorder {
    public enum Ending: Equatable, Sendable, CustomStringConvertible {
        /// The time or the sample count was reached, the replay ended, or the user stopped it.
        case finished
        case removed
        case failed(String)

        public var description: String {
            switch self {
            case .finished: "finished"
            case .removed: "the sensor was removed"
            case .failed(let message): message
            }
        }
    }

    public let info: SensorInfo
    public let limit: Int?
    public private(set) var count = 0
    public private(set) var duration = 0.0
    private var origin: Double?

    public init(info: SensorInfo, limit: Int?) {
        self.info = info
        self.limit = limit
    }

    /// Runs until `end` (monotonic seconds) at the latest; `warn` gets the source's
    /// warnings, `write` each sample.
    public mutating func run(_ source: SensorSource, until end: Double, warn: (String) -> Void,
                             write: (Sample) throws(Errno) -> Void) -> Ending {
        let monitor = try? HotplugMonitor()
        let signals = try? SignalDescriptor([SIGINT, SIGTERM])
        defer { try? signals?.descriptor.close() }
        let others = [monitor?.descriptor, signals?.descriptor].compactMap { $0 }
        while MonotonicClock.now() < end {
            let readiness: SensorPoll.Readiness
            do {
                readiness = try SensorPoll.wait(source.wait, others: others, until: end)
            } catch {
                return .failed("waiting for the sensor failed: \(error)")
            }
            if let signals, readiness.readable.contains(signals.descriptor), !signals.read().isEmpty { return .finished }
            if let monitor, readiness.readable.contains(monitor.descriptor),
               monitor.receive().contains(where: { $0.removes(info) }) {
                return .removed
            }
            guard readiness.sourceDue else { continue }
            for event in source.service(now: MonotonicClock.now()) {
                switch event {
                case .samples(let samples):
                    for sample in samples {
                        let start = origin ?? sample.time
                        origin = start
                        do throws(Errno) {
                            try write(Sample(time: sample.time - start, acceleration: sample.acceleration))
                        } catch {
                            return .failed("cannot write the trace: \(error)")
                        }
                        count += 1
                        duration = sample.time - start
                        if let limit, count >= limit { return .finished }
                    }
                case .ended: return .finished
                case .removed: return .removed
                case .failed(let message): return .failed("the sensor failed: \(message)")
                case .busy(let message): return .failed(message)
                case .warning(let message): warn(message)
                }
            }
        }
        return .finished
    }
}
