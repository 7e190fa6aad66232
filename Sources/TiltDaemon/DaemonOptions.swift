// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCommandLine
import TiltDevices
#if canImport(Glibc)
import Glibc
#endif

/// `tiltpuzzled`'s command line, declared once.
public struct DaemonOptions: Equatable, Sendable {
    /// The options, each declared once: the parser, the help and the accessors below use these.
    enum Option {
        static let source = OptionSpec("--source", value: "SPEC", help: "auto (default), none, iio[:NAME], evdev[:PATH] or replay:FILE.")
        static let replaySpeed = OptionSpec("--replay-speed", value: "FACTOR", help: "Replay speed: a factor (default 1) or max.")
        static let socket = OptionSpec("--socket", value: "PATH", help: "The socket to listen on (default: $RUNTIME_DIRECTORY, $XDG_RUNTIME_DIR/tiltpuzzle or /run/tiltpuzzle, then tiltpuzzled.sock).")
        static let stateDirectory = OptionSpec("--state-dir", value: "DIR", help: "Where the game is saved (default: $STATE_DIRECTORY, $XDG_STATE_HOME/tiltpuzzle or ~/.local/state/tiltpuzzle).")
        static let config = OptionSpec("--config", value: "FILE", help: "Configuration file (default: \(Configuration.defaultPath) if it exists).")
        static let alwaysOn = OptionSpec("--always-on", help: "Keep the sensor running with no client attached.")
        static let logLevel = OptionSpec("--log-level", value: "LEVEL", help: "error, warning, notice, info (default) or debug.")
        static let version = OptionSpec("--version", help: "Print the version and exit.")
    }

    public static let spec = CommandSpec(
        "tiltpuzzled",
        summary: "tiltpuzzled: turns an accelerometer's tilts into sliding-puzzle moves and serves them on a Unix socket.",
        options: [Option.source, Option.replaySpeed, Option.socket, Option.stateDirectory, Option.config,
                  Option.alwaysOn, Option.logLevel, Option.version],
        discussion: "Signals: SIGTERM and SIGINT stop (the game is saved), SIGHUP reloads the configuration.")

    public var source: String?
    public var replaySpeed: ReplaySource.Speed = .factor(1)
    public var socketPath: String
    public var stateDirectory: String
    public var configPath: String?
    public var alwaysOn = false
    public var logLevel: Logger.Level = .info
    public var showVersion = false
    public var showHelp = false

    public static let socketName = "tiltpuzzled.sock"

    /// The options of a daemon embedded in another program (the demo's).
    public init(socketPath: String, stateDirectory: String, source: String, replaySpeed: ReplaySource.Speed) {
        self.socketPath = socketPath
        self.stateDirectory = stateDirectory
        self.source = source
        self.replaySpeed = replaySpeed
    }

    public init(arguments: [String], environment: [String: String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, for: Self.spec, program: "tiltpuzzled")
        showHelp = parsed.wantsHelp
        showVersion = parsed.flag(Option.version)
        source = parsed.value(Option.source)
        if let source, source != "none" {
            do throws(SensorError) { _ = try SensorSpec(parsing: source) } catch {
                throw UsageError("--source: \(error.message)", hint: "see 'tiltpuzzled --help'")
            }
        }
        if let speed = parsed.value(Option.replaySpeed) {
            if speed == "max" {
                replaySpeed = .max
            } else if let factor = Double(speed), factor > 0, factor.isFinite {
                replaySpeed = .factor(factor)
            } else {
                throw UsageError("--replay-speed expects a positive number or 'max', not '\(speed)'")
            }
        }
        if let level = parsed.value(Option.logLevel) {
            guard let parsedLevel = Logger.Level(name: level) else {
                throw UsageError("--log-level expects error, warning, notice, info or debug, not '\(level)'")
            }
            logLevel = parsedLevel
        }
        alwaysOn = parsed.flag(Option.alwaysOn)
        configPath = parsed.value(Option.config)
        socketPath = parsed.value(Option.socket) ?? Self.defaultSocketPath(environment)
        stateDirectory = parsed.value(Option.stateDirectory) ?? Self.defaultStateDirectory(environment)
    }

    public static func defaultSocketPath(_ environment: [String: String]) -> String {
        // systemd may list several directories, separated by colons.
        if let runtime = environment["RUNTIME_DIRECTORY"]?.split(separator: ":").first {
            return String(runtime) + "/" + socketName
        }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return runtime + "/tiltpuzzle/" + socketName
        }
        return "/run/tiltpuzzle/" + socketName
    }

    public static func defaultStateDirectory(_ environment: [String: String]) -> String {
        if let state = environment["STATE_DIRECTORY"]?.split(separator: ":").first { return String(state) }
        if let state = environment["XDG_STATE_HOME"], !state.isEmpty { return state + "/tiltpuzzle" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.local/state/tiltpuzzle" }
        return "/var/lib/tiltpuzzle"
    }
}
