import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// An X server in memory (Xvfb) on a display number it picks itself, and the X
/// tools the test drives the window with. Missing tools fail the test: they are
/// in .ci/packages.txt, and a GUI test that quietly skips tests nothing.
final class VirtualDisplay {
    let name: String
    private let server = Process()
    /// Where tools write their output: files, so a big screenshot never fills a pipe.
    private let directory: String

    static let screen = "1024x768x24"

    init(directory: TemporaryDirectory, screen: String = VirtualDisplay.screen) throws {
        self.directory = directory.path
        server.executableURL = try Self.tool("Xvfb", package: "xvfb")
        // -displayfd: the server chooses a free display and writes its number to fd 1.
        server.arguments = ["-displayfd", "1", "-screen", "0", screen, "-nolisten", "tcp"]
        let numberFile = directory.path + "/display"
        server.standardOutput = try Self.outputFile(numberFile)
        server.standardError = FileHandle.nullDevice
        try server.run()
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

    static func outputFile(_ path: String) throws -> FileHandle {
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let handle = FileHandle(forWritingAtPath: path) else { throw TestFailure("cannot write \(path)") }
        return handle
    }

    deinit { Self.kill(server) }

    /// SIGKILL: the test runner starts children with SIGTERM blocked, so terminate() may not end them.
    static func kill(_ process: Process) {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Runs an X tool on this display; its standard output.
    @discardableResult
    func run(_ tool: String, package: String, _ arguments: [String], timeout: Double = 10) throws -> String {
        let process = Process()
        process.executableURL = try Self.tool(tool, package: package)
        process.arguments = arguments
        process.environment = ["DISPLAY": name, "PATH": "/usr/bin:/bin"]
        let outputPath = directory + "/\(tool).out"
        let output = try Self.outputFile(outputPath)
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(5_000) }
        if process.isRunning {
            Self.kill(process)
            throw TestFailure("\(tool) \(arguments.joined(separator: " ")) took over \(Int(timeout)) s")
        }
        process.waitUntilExit()
        try output.close()
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            throw TestFailure("\(tool) \(arguments.joined(separator: " ")) failed: \(text)")
        }
        return text
    }

    /// `name` on PATH, or a failure that says which package brings it.
    static func tool(_ name: String, package: String) throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in (path + ":/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return URL(fileURLWithPath: candidate) }
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
