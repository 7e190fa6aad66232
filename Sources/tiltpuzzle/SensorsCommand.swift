// SPDX-License-Identifier: GPL-3.0-or-later
import TiltClient
import TiltCommandLine
import TiltCore
import TiltDevices
import TiltSystem
import TiltWire

/// `tiltpuzzle sensors`: the accelerometers this machine has, as discovery sees
/// them (no daemon needed), in the order `--source auto` picks from.
enum SensorsCommand: ClientCommand {
    static let json = OptionSpec("--json", help: L("Print one JSON object instead of text."))
    static let spec = CommandSpec(
        "sensors", summary: L("List the accelerometers found, best first."),
        options: [json],
        discussion: L("Accelerometers in a keyboard base are listed but not used. When a daemon answers, the sensor it reads is marked. The exit status is 69 when there is no usable accelerometer."))

    static func run(_ arguments: ParsedArguments) -> Int32 {
        let found = SensorDiscovery.candidates(includeBase: true)
        let usable = found.contains { !$0.isBase }
        let daemon = daemonSensor(arguments)
        func inUse(_ candidate: SensorCandidate) -> Bool? {
            guard let daemon else { return nil }
            return daemon.device != nil
                && (daemon.device == candidate.info.deviceNode || daemon.device == candidate.info.sysfsPath)
        }
        if arguments.flag(json) {
            var writer = JSONWriter()
            writer.field("sensors", raw: .array(found.map { json($0, inUse: inUse($0)) }))
            print(String(decoding: writer.line().dropLast(), as: UTF8.self))
        } else if found.isEmpty {
            print(L("No accelerometer found."))
        } else {
            for (index, candidate) in found.enumerated() {
                text(candidate, index: index + 1, inUse: inUse(candidate) == true).forEach { print($0) }
            }
        }
        return usable ? ExitStatus.ok : ExitStatus.unavailable
    }

    /// What a running daemon says about its sensor; nil when none answers (that is
    /// not an error here: the list comes from udev, not from the daemon).
    static func daemonSensor(_ arguments: ParsedArguments) -> SensorReport? {
        let candidates = DaemonConnection.candidatePaths(explicit: arguments.value(GlobalOption.socket),
                                                         environment: processEnvironment())
        guard let connection = try? DaemonConnection(candidates: candidates),
              let messages = try? connection.request(.sensor, timeout: 2) else { return nil }
        return messages.compactMap { if case .sensor(let report) = $0 { report } else { nil } }.last
    }

    static func text(_ candidate: SensorCandidate, index: Int, inUse: Bool) -> [String] {
        let info = candidate.info
        var summary: [String] = [info.kind == .iio ? "IIO" : "evdev"]
        if let buffered = info.buffered { summary.append(buffered ? L("buffered") : L("polled")) }
        if let rate = info.samplingRate { summary.append("\(rate.sysfsText) Hz") }
        var lines = ["\(index). \(info.name) (\(candidate.sysname)): " + summary.joined(separator: ", ")
                     + (candidate.isBase ? L("; in the keyboard base, not used") : "")
                     + (inUse ? L("; used by the daemon") : "")]
        lines.append("   " + L("sysfs: {0}", info.sysfsPath ?? "-"))
        lines.append("   " + L("node: {0}", info.deviceNode ?? "-"))
        lines.append("   " + L("location: {0}", info.location ?? L("unknown")))
        lines.append("   " + L("mount matrix: {0}", MountMatrix.text(info.mountMatrix)))
        lines += candidate.notes.map { "   " + L("note: {0}", $0) }
        return lines
    }

    static func json(_ candidate: SensorCandidate, inUse: Bool?) -> JSONValue {
        let info = candidate.info
        func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
        return .object([
            ("kind", .string(info.kind.rawValue)),
            ("name", .string(info.name)),
            ("sysname", .string(candidate.sysname)),
            ("sysfsPath", optional(info.sysfsPath)),
            ("node", optional(info.deviceNode)),
            ("location", optional(info.location)),
            ("mountMatrix", .array(info.mountMatrix.values.map { .number($0.sysfsText) })),
            ("rate", info.samplingRate.map { .number($0.sysfsText) } ?? .null),
            ("buffered", info.buffered.map(JSONValue.bool) ?? .null),
            ("used", .bool(!candidate.isBase)),
            ("daemonUses", inUse.map(JSONValue.bool) ?? .null),
            ("notes", .array(candidate.notes.map(JSONValue.string))),
        ])
    }
}
