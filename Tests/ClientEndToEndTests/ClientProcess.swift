// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TestSupport
import TiltSystem
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
    static func environment(_ extra: [String: String] = [:]) -> [String: String?] {
        var environment: [String: String?] = ["TILTPUZZLE_SOCKET": nil, "XDG_RUNTIME_DIR": nil, "TERM": nil]
        for (key, value) in extra { environment[key] = value }
        return environment
    }

    /// Runs `tiltpuzzle arguments…` to its end; `prefix` runs it through another program (setpriv).
    static func run(_ arguments: [String], environment extra: [String: String] = [:],
                    prefix: [String] = [], executable: String = path) throws -> ClientResult {
        let child = try ChildProcess(prefix + [executable] + arguments, environment: environment(extra),
                                     standardInput: .null, standardOutput: .pipe, standardError: .pipe,
                                     otherDescriptors: .closed)
        // Both read to the end before waiting: a full pipe would stop the client.
        let (output, errors) = child.readPipes(limit: 64 << 20)
        return ClientResult(status: child.wait(), stdout: String(decoding: output, as: UTF8.self),
                            stderr: String(decoding: errors, as: UTF8.self))
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
    let process: ChildProcess
    let lines: LineReader

    init(_ arguments: [String]) throws {
        process = try ChildProcess([Client.path] + arguments, environment: Client.environment(),
                                   standardInput: .null, standardOutput: .pipe, standardError: .pipe,
                                   otherDescriptors: .closed)
        lines = LineReader(fd: process.outputPipe!.rawValue)
    }

    /// Waits for the end; the exit status, or 128 + the signal that ended it.
    func wait() -> Int32 { process.wait() }

    /// All it wrote to stderr (after it ended).
    var errorText: String { String(decoding: process.readPipes().errors, as: UTF8.self) }

    deinit { process.signal(SIGTERM) }
}
