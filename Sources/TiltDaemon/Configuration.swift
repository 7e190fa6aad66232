// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore
import TiltDevices

/// The daemon's configuration file (INI style; docs/tiltpuzzled.conf lists every key). Every key is
/// optional; a missing file is the defaults; an unknown key or a bad value is an
/// error naming the line, so a typo never passes silently.
public struct Configuration: Equatable, Sendable {
    public var detector = TiltDetector.Configuration()
    /// Replaces the mount matrix the sensor reports (nil: use the sensor's).
    public var mountMatrixOverride: Matrix3?
    public var undoLevels = History.defaultLimit
    public var defaultSize = 4
    public var limits = Hub.Limits()
    public var source = "auto"
    public var alwaysOn = false
    /// Hz to ask an IIO sensor for while a client plays.
    public var sampleRate = SamplingRate.playing

    public init() {}

    public static let defaultPath = "/etc/tiltpuzzle/tiltpuzzled.conf"

    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { line > 0 ? "line \(line): \(message)" : message }
    }

    /// Every key: section, name, default, and what it sets. The documentation and
    /// the parser both read this table.
    public static let keys: [(section: String, name: String, defaultValue: String, help: String)] = [
        ("detector", "trigger-angle", "20", "degrees from neutral at which a tilt fires"),
        ("detector", "release-angle", "10", "degrees under which both axes must return to re-arm"),
        ("detector", "magnitude-tolerance", "0.25", "largest deviation of |a| from 1 g, as a fraction of g, before a sample is a bump"),
        ("detector", "max-angular-rate", "720", "degrees per second; a faster turn is a bump"),
        ("detector", "settle-time", "0.1", "seconds of samples ignored after a bump"),
        ("detector", "screen-rotation", "0", "0, 90, 180 or 270: how the picture is turned, counter-clockwise"),
        ("detector", "mount-matrix", "", "nine numbers, row by row: replaces the sensor's mount matrix"),
        ("detector", "auto-neutral", "true", "a starting pose held still (never near neutral, no tilt fired yet) becomes the neutral pose"),
        ("detector", "auto-neutral-hold", "1", "seconds the starting pose must be held still to become neutral (0.2 to 10)"),
        ("game", "undo-levels", "1000", "undo levels kept (0 to 100000)"),
        ("game", "default-size", "4", "board side of the first game; a later `new` without a size keeps the current side (2 to 10)"),
        ("clients", "max-clients", "256", "clients attached at once (1 to 100000)"),
        ("clients", "max-queued-bytes", "1048576", "unsent bytes a client may have before it is dropped as not reading; at a quarter of it the client is paused (docs/protocol.md)"),
        ("sensor", "source", "auto", "auto, none, iio, iio:NAME, evdev, evdev:PATH, evdev:NAME or replay:FILE"),
        ("sensor", "always-on", "false", "keep the sensor running with no client attached"),
        ("sensor", "sample-rate", "100", "Hz to ask an IIO sensor for while a client plays: the lowest offered rate of at least this, else the fastest (50 to 1000)"),
    ]

    public static func parse(_ text: String) throws(Problem) -> Configuration {
        var configuration = Configuration()
        var section = ""
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let line = rawLine.trimmingWhitespace
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else { throw Problem(line: number, message: "unclosed section header") }
                section = String(line.dropFirst().dropLast()).trimmingWhitespace
                guard keys.contains(where: { $0.section == section }) else {
                    throw Problem(line: number, message: "unknown section [\(section)]")
                }
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw Problem(line: number, message: "expected 'key = value'")
            }
            let key = String(line[..<equals]).trimmingWhitespace
            let value = String(line[line.index(after: equals)...]).trimmingWhitespace
            guard keys.contains(where: { $0.section == section && $0.name == key }) else {
                let place = section.isEmpty ? "outside any section" : "in [\(section)]"
                throw Problem(line: number, message: "unknown key '\(key)' \(place)")
            }
            do throws(Problem) {
                try configuration.set(section: section, key: key, value: value)
            } catch {
                throw Problem(line: number, message: error.message)
            }
        }
        do throws(TiltDetector.Configuration.Problem) {
            try configuration.detector.validate()
        } catch {
            throw Problem(line: 0, message: error.description)
        }
        return configuration
    }

    private mutating func set(section: String, key: String, value: String) throws(Problem) {
        func number(_ range: ClosedRange<Double>) throws(Problem) -> Double {
            guard let n = Double(value), n.isFinite, range.contains(n) else {
                throw Problem(line: 0, message: "\(key) must be a number from \(range.lowerBound) to \(range.upperBound), not '\(value)'")
            }
            return n
        }
        func integer(_ range: ClosedRange<Int>) throws(Problem) -> Int {
            guard let n = Int(value), range.contains(n) else {
                throw Problem(line: 0, message: "\(key) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(value)'")
            }
            return n
        }
        func flag() throws(Problem) -> Bool {
            guard let flag = ["true": true, "yes": true, "1": true, "false": false, "no": false, "0": false][value] else {
                throw Problem(line: 0, message: "\(key) must be true or false, not '\(value)'")
            }
            return flag
        }
        switch (section, key) {
        case ("detector", "trigger-angle"): detector.triggerAngle = try number(TiltAngles.detector)
        case ("detector", "release-angle"): detector.releaseAngle = try number(TiltAngles.detector)
        case ("detector", "magnitude-tolerance"): detector.magnitudeTolerance = try number(0...1)
        case ("detector", "max-angular-rate"): detector.maxAngularRate = try number(1...100_000)
        case ("detector", "settle-time"): detector.settleTime = try number(0...10)
        case ("detector", "screen-rotation"):
            guard let degrees = Int(value), degrees % 90 == 0, let rotation = ScreenRotation(rawValue: degrees) else {
                throw Problem(line: 0, message: "screen-rotation must be \(ScreenRotation.allowedText), not '\(value)'")
            }
            detector.screenRotation = rotation
        case ("detector", "mount-matrix"):
            if value.isEmpty { mountMatrixOverride = nil; return }
            let numbers = value.split(whereSeparator: { $0 == "," || $0 == ";" || $0 == " " }).map { Double($0) }
            guard numbers.count == 9, let matrix = Matrix3(numbers.compactMap { $0 }), abs(matrix.determinant) > 1e-6 else {
                throw Problem(line: 0, message: "mount-matrix must be nine numbers of an invertible matrix, not '\(value)'")
            }
            mountMatrixOverride = matrix
        case ("detector", "auto-neutral"): detector.autoNeutral = try flag()
        case ("detector", "auto-neutral-hold"): detector.autoNeutralHold = try number(0.2...10)
        case ("game", "undo-levels"): undoLevels = try integer(0...100_000)
        case ("game", "default-size"): defaultSize = try integer(Board.sides.lowerBound...Board.sides.upperBound)
        case ("clients", "max-clients"): limits.maxClients = try integer(1...100_000)
        case ("clients", "max-queued-bytes"): limits.maxQueuedBytes = try integer(4096...(1 << 30))
        case ("sensor", "source"):
            if value != "none" {
                do throws(SensorError) { _ = try SensorSpec(parsing: value) } catch { throw Problem(line: 0, message: error.message) }
            }
            source = value
        case ("sensor", "always-on"): alwaysOn = try flag()
        case ("sensor", "sample-rate"): sampleRate = try number(50...1000)
        default: throw Problem(line: 0, message: "unknown key '\(key)'")
        }
    }
}
