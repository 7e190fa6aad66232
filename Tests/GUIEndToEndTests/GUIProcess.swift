// SPDX-License-Identifier: GPL-3.0-or-later
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
    /// test sounds on the machine's speakers. The settings file and the pictures folder are
    /// the test's own too (`configHome`, `picturesFolder`), never the home folder's.
    /// `launcher` goes before the program.
    init(display: VirtualDisplay, directory: TestSupport.TemporaryDirectory, arguments: [String],
         stateHome: String? = nil, audio: [String: String] = ["SDL_AUDIODRIVER": "dummy"], launcher: [String] = []) throws {
        logPath = directory.path + "/gui.log"
        var environment: [String: String?] = [
            "DISPLAY": display.name, "SDL_VIDEODRIVER": "x11", "WAYLAND_DISPLAY": nil,
            "XDG_STATE_HOME": stateHome ?? Self.stateHomeWithFirstStartSeen(in: directory),
            "XDG_CONFIG_HOME": Self.configHome(in: directory), "XDG_PICTURES_DIR": Self.picturesFolder(in: directory),
        ]
        environment.merge(audio.mapValues { $0 }) { _, new in new }
        let log = try VirtualDisplay.outputFile(logPath)
        process = try ChildProcess(launcher + [BuiltProducts.url("tiltpuzzle-gui").path] + arguments, environment: environment,
                                   standardOutput: log, standardError: log, otherDescriptors: .closed)
    }

    /// The window's XDG config folder in `directory`: its settings file is `tiltpuzzle/gui.conf` there.
    static func configHome(in directory: TestSupport.TemporaryDirectory) -> String {
        let home = directory.path + "/xdg-config"
        try? FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        return home
    }

    /// Writes the window's settings file (docs/gui.md, Pictures) in `directory`'s config folder.
    static func writeSettings(_ text: String, in directory: TestSupport.TemporaryDirectory) throws {
        let folder = configHome(in: directory) + "/tiltpuzzle"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try text.write(toFile: folder + "/gui.conf", atomically: true, encoding: .utf8)
    }

    /// The window's pictures folder in `directory`, empty unless a test puts pictures in it.
    static func picturesFolder(in directory: TestSupport.TemporaryDirectory) -> String {
        let folder = directory.path + "/pictures"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
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

    /// The process's resident memory in bytes (VmRSS in /proc).
    func residentBytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(process.pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kib = Int(line.split(whereSeparator: \.isWhitespace).dropFirst().first ?? "") else {
            throw TestFailure("no VmRSS in /proc/\(process.pid)/status")
        }
        return kib * 1024
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
