import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// What a finished `tiltpuzzle` run left behind.
struct ClientResult {
    var status: Int32
    var stdout: String
    var stderr: String

    var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
}

/// The built `tiltpuzzle`, run as a user runs it.
enum Client {
    static let path = BuiltProducts.url("tiltpuzzle").path

    /// The environment without the user's own socket settings, so only the test's count.
    static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for key in ["TILTPUZZLE_SOCKET", "XDG_RUNTIME_DIR", "TERM"] { environment.removeValue(forKey: key) }
        return environment.merging(extra) { _, new in new }
    }

    /// Runs `tiltpuzzle arguments…` to its end; `prefix` runs it through another program (setpriv).
    static func run(_ arguments: [String], environment extra: [String: String] = [:],
                    prefix: [String] = [], executable: String = path) throws -> ClientResult {
        let process = Process()
        let command = prefix + [executable] + arguments
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.environment = environment(extra)
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both to the end before waiting: a full pipe would stop the client.
        let collected = ErrorsCollector(errors.fileHandleForReading)
        let out = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ClientResult(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                            stderr: collected.text())
    }

    /// `run` against a daemon's socket.
    static func run(_ arguments: [String], on daemon: DaemonProcess) throws -> ClientResult {
        try run(["--socket", daemon.socketPath] + arguments)
    }

    /// The daemon's game as `status --json` reports it.
    static func state(of daemon: DaemonProcess) throws -> [String: Any] {
        let result = try run(["status", "--json"], on: daemon)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        guard let state = object?["state"] as? [String: Any] else { throw TestFailure("no state in \(result.stdout)") }
        return state
    }

    /// Waits until the daemon's game matches `predicate` (a client's key press travels
    /// through a terminal and a socket first); the last state seen.
    static func waitForState(of daemon: DaemonProcess, timeout: Double = 20,
                             _ predicate: ([String: Any]) -> Bool) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(timeout)
        var state = try Self.state(of: daemon)
        while !predicate(state), Date() < deadline {
            usleep(50_000)
            state = try Self.state(of: daemon)
        }
        return state
    }
}

/// A client left running (`watch`), its output read line by line as it comes.
final class RunningClient {
    let process = Process()
    let lines: LineReader
    private let errors = Pipe()

    init(_ arguments: [String]) throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: Client.path)
        process.arguments = arguments
        process.environment = Client.environment()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        lines = LineReader(fd: output.fileHandleForReading.fileDescriptor)
        try process.run()
    }

    /// Waits for the end; the exit status, or 128 + the signal that ended it.
    func wait() -> Int32 {
        process.waitUntilExit()
        return process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
    }

    /// All it wrote to stderr (after it ended).
    var errorText: String { String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }

    deinit {
        if process.isRunning { process.terminate() }
    }
}

/// Reads a pipe on a thread of its own, so the other pipe can be read meanwhile.
final class ErrorsCollector: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func text() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}
