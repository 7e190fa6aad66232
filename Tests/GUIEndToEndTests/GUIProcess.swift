import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The built `tiltpuzzle-gui` on a virtual display, its standard error collected.
final class GUIProcess {
    let process = Process()
    private let logPath: String

    /// `stateHome`: the XDG state folder; by default one where the first-start card was seen.
    init(display: VirtualDisplay, directory: TemporaryDirectory, arguments: [String], stateHome: String? = nil) throws {
        logPath = directory.path + "/gui.log"
        process.executableURL = BuiltProducts.url("tiltpuzzle-gui")
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display.name
        environment["SDL_VIDEODRIVER"] = "x11"
        environment.removeValue(forKey: "WAYLAND_DISPLAY")
        environment["XDG_STATE_HOME"] = stateHome ?? Self.stateHomeWithFirstStartSeen(in: directory)
        process.environment = environment
        let log = try VirtualDisplay.outputFile(logPath)
        process.standardError = log
        process.standardOutput = log
        try process.run()
    }

    /// A state folder in which the first-start card was already dismissed, so it covers
    /// nothing the test looks at.
    static func stateHomeWithFirstStartSeen(in directory: TemporaryDirectory) -> String {
        let home = directory.path + "/xdg-state"
        try? FileManager.default.createDirectory(atPath: home + "/tiltpuzzle", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: home + "/tiltpuzzle/welcomed", contents: nil)
        chmod(home, 0o755)
        return home
    }

    var output: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Seconds of CPU the process has used (user and system), from /proc.
    func cpuSeconds() throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)
        // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
        let fields = stat[stat.index(after: stat.lastIndex(of: ")")!)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw TestFailure("cannot read /proc/\(process.processIdentifier)/stat: \(stat)")
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
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    deinit { VirtualDisplay.kill(process) }
}
