import TiltCommandLine
import TiltCore
import TiltDevices
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// `tiltpuzzle record`: samples from a sensor opened directly (not through the
/// daemon, which may hold it or not run at all) into a trace file (docs/traces.md).
enum RecordCommand: ClientCommand {
    static let spec = CommandSpec(
        "record", summary: "Record a sensor's samples to a trace file.",
        options: [
            OptionSpec("--source", value: "SPEC",
                       help: "auto (default), iio, iio:NAME, evdev, evdev:/dev/input/eventN or replay:FILE."),
            OptionSpec("--seconds", value: "N", help: "How long to record (default 10)."),
            OptionSpec("--samples", value: "N", help: "Stop after this many samples."),
            OptionSpec("--output", short: "o", value: "FILE", help: "The trace file to write ('-': standard output)."),
        ],
        discussion: """
        The sensor is opened directly, so the daemon should not be using it. Times
        start at 0 with the first sample; values are m/s² in the device frame (the
        mount matrix applied). Ctrl-C ends the recording and keeps what was recorded.
        """)

    static let defaultSeconds = 10.0
    /// sysexits.h EX_CANTCREAT.

    static func run(_ arguments: ParsedArguments) -> Int32 {
        let spec: SensorSpec
        let seconds: Double
        let limit: Int?
        let output: String
        do throws(UsageError) {
            do throws(SensorError) {
                spec = try SensorSpec(parsing: arguments.value("--source") ?? "auto")
            } catch {
                throw UsageError(error.message)
            }
            seconds = try arguments.value("--seconds", as: "a positive number of seconds") {
                Double($0).flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
            } ?? defaultSeconds
            limit = try arguments.value("--samples", as: "a positive count") { Int($0).flatMap { $0 > 0 ? $0 : nil } }
            guard let file = arguments.value("--output") else {
                throw UsageError("'record' needs --output FILE", hint: "see 'tiltpuzzle record --help'")
            }
            output = file
        } catch {
            StandardError.print("tiltpuzzle: \(error.message)")
            if let hint = error.hint { StandardError.print("(\(hint))") }
            return ExitStatus.usage
        }

        guard let source = SensorDiscovery.resolve(spec) else {
            StandardError.print("tiltpuzzle: no accelerometer found for '\(spec)' (see 'tiltpuzzle sensors')")
            return ExitStatus.unavailable
        }
        let descriptor: FileDescriptor
        do {
            descriptor = output == "-" ? .standardOutput : try FileDescriptor.open(output, [.writeOnly, .create, .truncate])
        } catch {
            StandardError.print("tiltpuzzle: cannot create \(output): \(error)")
            return ExitStatus.cannotCreate
        }
        defer { if output != "-" { try? descriptor.close() } }
        do throws(SensorError) {
            try source.start()
        } catch {
            StandardError.print("tiltpuzzle: cannot start \(spec): \(error)")
            return ExitStatus.unavailable
        }
        defer { source.stop() }

        let info = source.info
        var writer: TraceWriter
        do {
            writer = try TraceWriter(descriptor: descriptor, comments: [describe(info)])
        } catch {
            StandardError.print("tiltpuzzle: cannot write \(output): \(error)")
            return ExitStatus.cannotCreate
        }
        var recording = Recording(info: info, limit: limit)
        let status = recording.run(source, until: MonotonicClock.now() + seconds) { (sample: Sample) throws(Errno) in
            try writer.write(sample)
        }
        do {
            try writer.flush()
        } catch {
            StandardError.print("tiltpuzzle: cannot write \(output): \(error)")
            return ExitStatus.cannotCreate
        }
        StandardError.print("tiltpuzzle: recorded \(recording.count) samples over \(recording.duration.formatted3) s from "
                   + "\(info.kind.rawValue) \(info.name)" + (output == "-" ? "" : " to \(output)"))
        return status
    }

    static func describe(_ info: SensorInfo) -> String {
        var parts = ["\(info.kind.rawValue) \(info.name)"]
        if let node = info.deviceNode { parts.append(node) }
        if let buffered = info.buffered { parts.append(buffered ? "buffered" : "polled") }
        if let rate = info.samplingRate { parts.append("\(rate.formatted3) Hz") }
        if info.mountMatrix != .identity { parts.append("mount matrix \(MountMatrix.text(info.mountMatrix)) applied") }
        return "recorded from " + parts.joined(separator: ", ")
    }
}

/// The recording loop: waits on the source (poll), on udev for its removal and on
/// SIGINT/SIGTERM, and hands samples on with times from the first one.
private struct Recording {
    let info: SensorInfo
    let limit: Int?
    private(set) var count = 0
    private var origin: Double?
    private(set) var duration = 0.0

    init(info: SensorInfo, limit: Int?) {
        self.info = info
        self.limit = limit
    }

    /// The exit status: 0 when the time or the sample count is reached, the replay
    /// ends or the user interrupts; 1 when the sensor went away or failed.
    mutating func run(_ source: SensorSource, until end: Double, write: (Sample) throws(Errno) -> Void) -> Int32 {
        let monitor = try? HotplugMonitor()
        let signals = try? SignalDescriptor([SIGINT, SIGTERM])
        let others = [monitor?.descriptor, signals?.descriptor].compactMap { $0 }
        while MonotonicClock.now() < end {
            let readiness: SensorPoll.Readiness
            do {
                readiness = try SensorPoll.wait(source.wait, others: others, until: end)
            } catch {
                StandardError.print("tiltpuzzle: waiting for the sensor failed: \(error)")
                return 1
            }
            if let signals, readiness.readable.contains(signals.descriptor), !signals.read().isEmpty { return 0 }
            if let monitor, readiness.readable.contains(monitor.descriptor), monitor.receive().contains(where: { $0.removes(info) }) {
                StandardError.print("tiltpuzzle: the sensor was removed")
                return 1
            }
            guard readiness.sourceDue else { continue }
            for event in source.service(now: MonotonicClock.now()) {
                switch event {
                case .samples(let samples):
                    for sample in samples {
                        let start = origin ?? sample.time
                        origin = start
                        do {
                            try write(Sample(time: sample.time - start, acceleration: sample.acceleration))
                        } catch {
                            StandardError.print("tiltpuzzle: cannot write the trace: \(error)")
                            return 1
                        }
                        count += 1
                        duration = sample.time - start
                        if let limit, count >= limit { return 0 }
                    }
                case .ended:
                    return 0
                case .removed:
                    StandardError.print("tiltpuzzle: the sensor was removed")
                    return 1
                case .failed(let message):
                    StandardError.print("tiltpuzzle: the sensor failed: \(message)")
                    return 1
                case .warning(let message):
                    StandardError.print("tiltpuzzle: \(message)")
                }
            }
        }
        return 0
    }
}

private extension Double {
    /// Three decimals at most: "2.5", "0.125", "10".
    var formatted3: String {
        let rounded = (self * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
