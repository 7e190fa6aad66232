// SPDX-License-Identifier: GPL-3.0-or-later
/// Which sensor to use, as given on the command line or in the configuration:
/// `auto`, `iio`, `iio:NAME` (device name or `iio:deviceN`), `evdev`,
/// `evdev:PATH` (an event node, or a link to one), `evdev:NAME` (part of a device's
/// name) or `replay:FILE`.
public enum SensorSpec: Equatable, Sendable, CustomStringConvertible {
    /// The first accelerometer in discovery order.
    case auto
    /// The first IIO accelerometer, or the named one.
    case iio(String?)
    /// The first evdev accelerometer, the one at this node (an argument starting with
    /// `/`), or the first whose name holds the argument.
    case evdev(String?)
    /// A trace file.
    case replay(String)

    public static let syntax = "auto, iio, iio:NAME, evdev, evdev:PATH, evdev:NAME or replay:FILE"

    public init(parsing text: String) throws(SensorError) {
        let kind: Substring
        let argument: String?
        if let colon = text.firstIndex(of: ":") {
            kind = text[..<colon]
            argument = String(text[text.index(after: colon)...])
        } else {
            kind = text[...]
            argument = nil
        }
        func fail(_ problem: String) -> SensorError {
            SensorError("sensor source '\(text)': \(problem) (expected \(Self.syntax))")
        }
        switch kind {
        case "auto":
            guard argument == nil else { throw fail("auto takes no argument") }
            self = .auto
        case "iio":
            if let argument, argument.isEmpty { throw fail("no device name after 'iio:'") }
            self = .iio(argument)
        case "evdev":
            if let argument, argument.isEmpty || argument == "/" {
                throw fail("evdev needs an event node's path or part of a device's name")
            }
            self = .evdev(argument)
        case "replay":
            guard let argument, !argument.isEmpty else { throw fail("replay needs a trace file: replay:FILE") }
            self = .replay(argument)
        case "":
            throw fail("empty")
        default:
            throw fail("unknown kind '\(kind)'")
        }
    }

    public var description: String {
        switch self {
        case .auto: "auto"
        case .iio(let name): name.map { "iio:\($0)" } ?? "iio"
        case .evdev(let path): path.map { "evdev:\($0)" } ?? "evdev"
        case .replay(let file): "replay:\(file)"
        }
    }
}
