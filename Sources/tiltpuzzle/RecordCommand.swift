// SPDX-License-Identifier: GPL-3.0-or-later
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
    static let source = OptionSpec("--source", value: "SPEC",
                                   help: L("auto (default), iio, iio:NAME, evdev, evdev:PATH, evdev:NAME or replay:FILE."))
    static let seconds = OptionSpec("--seconds", value: "N", help: L("How long to record (default 10)."))
    static let samples = OptionSpec("--samples", value: "N", help: L("Stop after this many samples."))
    static let output = OptionSpec("--output", short: "o", value: "FILE", help: L("The trace file to write ('-': standard output)."))
    static let spec = CommandSpec(
        "record", summary: L("Record a sensor's samples to a trace file."),
        options: [source, seconds, samples, output],
        discussion: L("The sensor is opened directly, so the daemon should not be using it. Times start at 0 with the first sample; values are m/s² in the device frame (the mount matrix applied). Ctrl-C ends the recording and keeps what was recorded."))

    static let defaultSeconds = 10.0

    static func run(_ arguments: ParsedArguments) -> Int32 {
        let spec: SensorSpec
        let seconds: Double
        let limit: Int?
        let output: String
        do throws(UsageError) {
            do throws(SensorError) {
                spec = try SensorSpec(parsing: arguments.value(source) ?? "auto")
            } catch {
                throw UsageError(error.message)
            }
            seconds = try arguments.value(Self.seconds, as: L("a positive number of seconds")) {
                Double($0).flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
            } ?? defaultSeconds
            limit = try arguments.value(samples, as: L("a positive count")) { Int($0).flatMap { $0 > 0 ? $0 : nil } }
            guard let file = arguments.value(Self.output) else {
                throw UsageError(L("'record' needs --output FILE"), hint: L("see '{0} --help'", "tiltpuzzle record"))
            }
            output = file
        } catch {
            return StandardError.report(error, program: "tiltpuzzle", help: "tiltpuzzle record")
        }

        // A trace to replay is an input file: missing, it is EX_NOINPUT, not a sensor away.
        if case .replay(let file) = spec {
            do {
                try FileDescriptor.open(file).close()
            } catch {
                StandardError.print("tiltpuzzle: " + L("cannot read the trace {0}: {1}", file, error))
                return ExitStatus.noInput
            }
        }
        guard let source = SensorDiscovery.resolve(spec) else {
            StandardError.print("tiltpuzzle: " + L("no accelerometer found for '{0}' (see 'tiltpuzzle sensors')", spec))
            return ExitStatus.unavailable
        }
        let descriptor: FileDescriptor
        do {
            descriptor = output == "-" ? .standardOutput : try FileDescriptor.open(output, [.writeOnly, .create, .truncate])
        } catch {
            StandardError.print("tiltpuzzle: " + L("cannot create {0}: {1}", output, error))
            return ExitStatus.cannotCreate
        }
        defer { if output != "-" { try? descriptor.close() } }
        do throws(SensorError) {
            try source.start()
        } catch {
            StandardError.print("tiltpuzzle: " + L("cannot start {0}: {1}", spec, error))
            return ExitStatus.unavailable
        }
        defer { source.stop() }

        let info = source.info
        var writer: TraceWriter
        do {
            writer = try TraceWriter(descriptor: descriptor, comments: [describe(info)])
        } catch {
            StandardError.print("tiltpuzzle: " + L("cannot write {0}: {1}", output, error))
            return ExitStatus.cannotCreate
        }
        var recording = Recorder(info: info, limit: limit)
        let ending = recording.run(source, until: MonotonicClock.now() + seconds,
                                   warn: { StandardError.print("tiltpuzzle: \($0)") },
                                   write: { (sample: Sample) throws(Errno) in try writer.write(sample) })
        if ending != .finished { StandardError.print("tiltpuzzle: \(ending)") }
        do {
            try writer.flush()
        } catch {
            StandardError.print("tiltpuzzle: " + L("cannot write {0}: {1}", output, error))
            return ExitStatus.cannotCreate
        }
        let origin = "\(info.kind.rawValue) \(info.name)"
        StandardError.print("tiltpuzzle: " + (output == "-"
            ? L.plural("recorded {0} sample over {1} s from {2}", "recorded {0} samples over {1} s from {2}", recording.count,
                       recording.duration.formatted3, origin)
            : L.plural("recorded {0} sample over {1} s from {2} to {3}", "recorded {0} samples over {1} s from {2} to {3}",
                       recording.count, recording.duration.formatted3, origin, output)))
        // 0 when the time or the count was reached, the replay ended or the user
        // stopped it; 74 when the sensor went away or failed (docs/client.md).
        return ending == .finished ? ExitStatus.ok : ExitStatus.ioError
    }

    static func describe(_ info: SensorInfo) -> String {
        var parts = ["\(info.kind.rawValue) \(info.name)"]
        if let node = info.deviceNode { parts.append(node) }
        if let buffered = info.buffered { parts.append(buffered ? L("buffered") : L("polled")) }
        if let rate = info.samplingRate { parts.append("\(rate.formatted3) Hz") }
        if info.mountMatrix != .identity { parts.append(L("mount matrix {0} applied", MountMatrix.text(info.mountMatrix))) }
        return L("recorded from {0}", parts.joined(separator: ", "))
    }
}

private extension Double {
    /// Three decimals at most: "2.5", "0.125", "10".
    var formatted3: String {
        let rounded = (self * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
