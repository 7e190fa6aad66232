import Foundation
import TestSupport
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// The built `tiltpuzzle-gui` on a virtual display, its standard error collected.
final class GUIProcess {
    let process: ChildProcess
    private let logPath: String

    /// `stateHome`: the XDG state folder; by default one where the first-start card was seen.
    /// `audio`: how SDL is to play the board's sounds; by default its dummy driver, so no
    /// test sounds on the machine's speakers.
    init(display: VirtualDisplay, directory: TestSupport.TemporaryDirectory, arguments: [String],
         stateHome: String? = nil, audio: [String: String] = ["SDL_AUDIODRIVER": "dummy"]) throws {
        logPath = directory.path + "/gui.log"
        var environment: [String: String?] = [
            "DISPLAY": display.name, "SDL_VIDEODRIVER": "x11", "WAYLAND_DISPLAY": nil,
            "XDG_STATE_HOME": stateHome ?? Self.stateHomeWithFirstStartSeen(in: directory),
        ]
        environment.merge(audio.mapValues { $0 }) { _, new in new }
        let log = try VirtualDisplay.outputFile(logPath)
        process = try ChildProcess([BuiltProducts.url("tiltpuzzle-gui").path] + arguments, environment: environment,
                                   standardOutput: log, standardError: log, otherDescriptors: .closed)
    }

    /// A state folder in which the first-start card was already dismissed, so it covers
    /// nothing the test looks at.
    static func stateHomeWithFirstStartSeen(in directory: TestSupport.TemporaryDirectory) -> String {
        let home = directory.path + "/xdg-state"
        try? FileManager.default.createDirectory(atPath: home + "/tiltpuzzle", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: home + "/tiltpuzzle/welcomed", contents: nil)
        chmod(home, 0o755)
        return home
    }

    var output: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Seconds of CPU the process has used (user and system), from /proc.
    func cpuSeconds() throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(process.pid)/stat", encoding: .utf8)
        // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
        let fields = stat[stat.index(after: stat.lastIndex(of: ")")!)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw TestFailure("cannot read /proc/\(process.pid)/stat: \(stat)")
        }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Waits until the output has a line containing `text`; that line.
    func waitForLine(containing text: String, timeout: Double = 10) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if let line = output.split(separator: "\n").last(where: { $0.contains(text) }) { return String(line) }
            usleep(20_000)
        } while Date() < deadline
        return nil
    }

    func waitForExit(timeout: Double = 10) -> Int32? {
        try? process.wait(timeout: timeout)
    }

    deinit { VirtualDisplay.kill(process) }
}
