// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TestSupport
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// An X server in memory (Xvfb) on a display number it picks itself, and the X
/// tools the test drives the window with. Missing tools fail the test: they are
/// in .ci/packages.txt, and a GUI test that quietly skips tests nothing.
final class VirtualDisplay {
    let name: String
    private let server: ChildProcess
    /// Where tools write their output: files, so a big screenshot never fills a pipe.
    private let directory: String

    static let screen = "1024x768x24"

    init(directory: TestSupport.TemporaryDirectory, screen: String = VirtualDisplay.screen) throws {
        self.directory = directory.path
        // -displayfd: the server chooses a free display and writes its number to fd 1.
        let numberFile = directory.path + "/display"
        server = try ChildProcess([try Self.tool("Xvfb", package: "xvfb"), "-displayfd", "1", "-screen", "0", screen,
                                   "-nolisten", "tcp"],
                                  standardOutput: try Self.outputFile(numberFile), standardError: .discard,
                                  otherDescriptors: .closed)
        let deadline = Date().addingTimeInterval(15)
        var said = ""
        while !said.hasSuffix("\n"), server.isRunning, Date() < deadline {
            usleep(10_000)
            said = (try? String(contentsOfFile: numberFile, encoding: .utf8)) ?? ""
        }
        guard let number = Int(said.filter(\.isNumber)), said.hasSuffix("\n") else {
            Self.kill(server)
            throw TestFailure("Xvfb did not start (it said '\(said)')")
        }
        name = ":\(number)"
    }

    /// A child's output into the file at `path`, emptied first: a tool run again
    /// writes the same file.
    static func outputFile(_ path: String) throws -> ChildProcess.Output {
        do {
            try FileDescriptor.open(path, [.writeOnly, .create, .truncate]).close()
        } catch {
            throw TestFailure("cannot write \(path): \(error)")
        }
        return .file(path)
    }

    /// Exactly `variables` as a child's environment, none of this process's.
    static func only(_ variables: [String: String]) -> [String: String?] {
        var environment: [String: String?] = ProcessEnvironment.current.mapValues { _ in nil }
        for (key, value) in variables { environment[key] = value }
        return environment
    }

    deinit { Self.kill(server) }

    /// SIGKILL, and the wait for its end.
    static func kill(_ process: ChildProcess) {
        process.signal(SIGKILL)
        process.wait()
    }

    /// Starts `command` with `environment`, its output in `outputPath`.
    static func start(_ command: [String], environment: [String: String?], outputPath: String) throws -> ChildProcess {
        let output = try outputFile(outputPath)
        return try ChildProcess(command, environment: environment, standardOutput: output, standardError: output,
                                otherDescriptors: .closed)
    }

    /// Runs `command` to its end (at most `timeout` s) with `environment`, its output in
    /// `outputPath`; that output. A tool that fails or does not end is a failure, which
    /// names it `described`.
    static func run(_ command: [String], described: String, environment: [String: String?], outputPath: String,
                    timeout: Double) throws -> String {
        let process = try start(command, environment: environment, outputPath: outputPath)
        guard let status = try process.wait(timeout: timeout) else {
            kill(process)
            throw TestFailure("\(described) took over \(Int(timeout)) s")
        }
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard status == 0 else { throw TestFailure("\(described) failed: \(text)") }
        return text
    }

    /// Runs an X tool on this display; its standard output.
    @discardableResult
    func run(_ tool: String, package: String, _ arguments: [String], timeout: Double = 10) throws -> String {
        try Self.run([try Self.tool(tool, package: package)] + arguments,
                     described: "\(tool) \(arguments.joined(separator: " "))",
                     environment: Self.only(["DISPLAY": name, "PATH": "/usr/bin:/bin"]), outputPath: directory + "/\(tool).out", timeout: timeout)
    }

    /// `name` on PATH, or a failure that says which package brings it.
    static func tool(_ name: String, package: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in (path + ":/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        throw TestFailure("\(name) is not installed: the GUI test needs it (Debian package \(package), see .ci/packages.txt)")
    }
}

/// Driving a window with the XTEST extension, as a person at the keyboard and mouse would.
extension VirtualDisplay {
    /// The window's id, once it is mapped.
    func waitForWindow(named title: String) throws -> String {
        let ids = try run("xdotool", package: "xdotool", ["search", "--sync", "--onlyvisible", "--name", "^\(title)$"], timeout: 20)
        guard let id = ids.split(separator: "\n").first else { throw TestFailure("no window named \(title)") }
        return String(id)
    }

    func key(_ name: String, window: String) throws {
        // Without a window manager the keyboard follows the pointer: keep it in the window.
        try run("xdotool", package: "xdotool", ["mousemove", "--window", window, "5", "5", "key", name])
    }

    func click(window: String, x: Double, y: Double) throws {
        try run("xdotool", package: "xdotool", ["mousemove", "--window", window, "\(Int(x))", "\(Int(y))", "click", "1"])
    }

    func drag(window: String, from start: (x: Double, y: Double), to end: (x: Double, y: Double)) throws {
        try run("xdotool", package: "xdotool", [
            "mousemove", "--window", window, "\(Int(start.x))", "\(Int(start.y))", "mousedown", "1",
            "mousemove", "--window", window, "\(Int((start.x + end.x) / 2))", "\(Int((start.y + end.y) / 2))",
            "mousemove", "--window", window, "\(Int(end.x))", "\(Int(end.y))", "mouseup", "1",
        ])
    }

    /// The window's pixels now; kept in `file`.
    func screenshot(window: String, file: String) throws -> Screenshot {
        try run("xwd", package: "x11-apps", ["-silent", "-id", window, "-out", file])
        return try Screenshot(xwd: Data(contentsOf: URL(fileURLWithPath: file)))
    }
}
