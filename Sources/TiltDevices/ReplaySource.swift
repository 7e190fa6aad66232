// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltSystem

/// Replays a trace file (docs/traces.md) at a speed factor, or as fast as possible.
///
/// Samples keep their recorded timestamps, so the detector sees exactly the
/// recording whatever the speed. Every start replays from the beginning.
public final class ReplaySource: SensorSource {
    public enum Speed: Sendable, Equatable {
        case factor(Double)
        case max
    }

    public let path: String
    public let speed: Speed
    public private(set) var info: SensorInfo

    /// At `max` speed, samples handed out per service call, so the loop stays responsive.
    static let batchLimit = 512

    private var descriptor: FileDescriptor?
    private var reader: TraceReader?
    private var pending: Sample?
    private var firstTime: Double?
    private var startedAt = 0.0
    private var ended = false

    public init(path: String, speed: Speed = .factor(1)) {
        self.path = path
        self.speed = speed
        info = SensorInfo(kind: .replay, name: path.split(separator: "/").last.map(String.init) ?? path)
    }

    public func start() throws(SensorError) {
        stop()
        do {
            let fd = try FileDescriptor.open(path)
            descriptor = fd
            reader = TraceReader(descriptor: fd)
        } catch {
            throw SensorError("cannot open trace \(path): \(error)")
        }
        startedAt = MonotonicClock.now()
        firstTime = nil
        pending = nil
        ended = false
    }

    public func stop() {
        try? descriptor?.close()
        descriptor = nil
        reader = nil
        pending = nil
    }

    public var wait: SensorWait {
        guard reader != nil, !ended else { return .idle }
        guard let pending, let firstTime, case .factor(let factor) = speed else {
            return .deadline(0)   // max speed, or the first sample not read yet: now
        }
        return .deadline(startedAt + (pending.time - firstTime) / factor)
    }

    public func service(now: Double) -> [SensorEvent] {
        guard reader != nil, !ended else { return [] }
        var events: [SensorEvent] = []
        var batch: [Sample] = []
        var warnings = 0
        while batch.count + warnings < Self.batchLimit {
            if pending == nil {
                do throws(TraceReader.Failure) {
                    pending = try reader!.next()
                } catch {
                    if case .io = error {
                        flush(&batch, into: &events)
                        events.append(.failed("\(path): \(error)"))
                        ended = true
                        stop()
                        return events
                    }
                    flush(&batch, into: &events)
                    if case .malformed(let problem) = error, problem.meansNotATrace {
                        // Not a trace at all: every further line would be another error.
                        events.append(.failed("\(path): not a trace: \(problem)"))
                        ended = true
                        stop()
                        return events
                    }
                    events.append(.warning("\(path): \(error)"))
                    // Bad lines count towards the batch, so a broken file cannot hog the loop.
                    warnings += 1
                    if warnings + batch.count >= Self.batchLimit { break }
                    continue
                }
                guard let sample = pending else {
                    flush(&batch, into: &events)
                    events.append(.ended)
                    ended = true
                    stop()
                    return events
                }
                if firstTime == nil { firstTime = sample.time }
            }
            guard let sample = pending, let firstTime else { break }
            if case .factor(let factor) = speed, startedAt + (sample.time - firstTime) / factor > now { break }
            batch.append(sample)
            pending = nil
        }
        flush(&batch, into: &events)
        return events
    }

    /// A trace is in the device frame already: only a configured matrix is applied.
    public func setMountMatrix(_ configured: Matrix3?) {
        info.mountMatrix = MountMatrix.chosen(configured: configured, device: .identity)
    }

    private func flush(_ batch: inout [Sample], into events: inout [SensorEvent]) {
        let matrix = info.mountMatrix
        if matrix != .identity {
            batch = batch.map { Sample(time: $0.time, acceleration: matrix * $0.acceleration) }
        }
        if !batch.isEmpty { events.append(.samples(batch)) }
        batch.removeAll()
    }
}
