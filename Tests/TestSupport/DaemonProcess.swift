// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// The built executables, next to this test bundle in the build folder.
public enum BuiltProducts {
    public static let directory: URL = {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        // The bundle may be a directory (…/tiltpuzzlePackageTests.xctest/…); climb to the build folder.
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("tiltpuzzled").path),
              dir.path != "/" {
            dir = dir.deletingLastPathComponent()
        }
        return dir
    }()

    public static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }
}

/// A temporary folder (TiltSystem's) removed when the test lets go of it.
public final class TemporaryDirectory {
    private let folder: TiltSystem.TemporaryDirectory
    public var path: String { folder.path }
    public var url: URL { URL(fileURLWithPath: path) }

    public init() {
        // A short prefix: a Unix socket path holds at most 107 bytes.
        folder = try! TiltSystem.TemporaryDirectory(prefix: "tp")
    }

    deinit { folder.remove() }
}

/// `tiltpuzzled` started on a temporary socket and state folder, its output in a file there.
public final class DaemonProcess {
    public let process: ChildProcess
    public let socketPath: String
    public let stateDirectory: String
    private let logPath: String
    private let logStart: Int

    /// `launcher`: a command line the daemon runs under (`unshare …`, `setpriv …`,
    /// searched on PATH), which ends by executing it, so the process is the daemon's.
    public init(directory: TemporaryDirectory, arguments: [String] = ["--source", "none"], environment: [String: String] = [:],
                launcher: [String] = []) throws {
        socketPath = directory.path + "/d.sock"
        stateDirectory = directory.path + "/state"
        logPath = directory.path + "/daemon.log"
        // A daemon started again in the same folder appends to the same log: this one's
        // lines are those after what is there now.
        logStart = (try? FileDescriptor.readText(logPath, limit: 64 << 20).utf8.count) ?? 0
        var variables: [String: String?] = ["NOTIFY_SOCKET": nil, "LISTEN_FDS": nil]
        for (key, value) in environment { variables[key] = value }
        let daemon = [BuiltProducts.url("tiltpuzzled").path, "--socket", socketPath, "--state-dir", stateDirectory,
                      "--log-level", "debug"] + arguments
        process = try ChildProcess(launcher.isEmpty ? daemon : launcher + daemon,
                                   environment: variables, standardOutput: .file(logPath), standardError: .file(logPath))
        try waitForSocket()
    }

    /// What this daemon logged so far.
    public var log: String {
        let text = (try? FileDescriptor.readText(logPath, limit: 64 << 20)) ?? ""
        return String(decoding: text.utf8.dropFirst(logStart), as: UTF8.self)
    }

    /// Whether the log shows `text` within `seconds`: the daemon may write it after
    /// what it sent on its socket meanwhile.
    public func logShows(_ text: String, within seconds: Double = 5) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !log.contains(text) {
            if Date() >= deadline { return false }
            usleep(10_000)
        }
        return true
    }

    /// Waits for the daemon's `ready` line, which it logs once it listens. Not by
    /// connecting: a client that attaches starts the sensor, and a replay at full speed
    /// would play part of its trace before the test's own client is there.
    private func waitForSocket() throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if log.contains(" ready\n") && FileManager.default.fileExists(atPath: socketPath) { return }
            if !process.isRunning { break }
            usleep(10_000)
        }
        throw TestFailure("the daemon did not open \(socketPath):\n\(log)")
    }

    /// Sends SIGTERM and waits for the daemon to exit.
    public func terminate() {
        process.signal(SIGTERM)
        process.wait()
    }

    public func kill9() {
        process.signal(SIGKILL)
        process.wait()
    }

    deinit { terminate() }
}

/// `tiltpuzzled` run to its end, for starts that must fail.
public struct DaemonExit {
    public var status: Int32
    /// Standard error and output together.
    public var output: String

    /// Runs the daemon (`executable`, by default the built one) with `arguments`
    /// after `launcher`, and waits for it to exit.
    public static func run(_ arguments: [String], launcher: [String] = [],
                           executable: String = BuiltProducts.url("tiltpuzzled").path) throws -> DaemonExit {
        let directory = TemporaryDirectory()
        let outputPath = directory.path + "/output"
        let process = try ChildProcess(launcher + [executable] + arguments,
                                       environment: ["NOTIFY_SOCKET": nil, "LISTEN_FDS": nil],
                                       standardOutput: .file(outputPath), standardError: .file(outputPath))
        let status = process.wait()
        return DaemonExit(status: status, output: (try? FileDescriptor.readText(outputPath, limit: 16 << 20)) ?? "")
    }
}

public struct TestFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A blocking protocol client with timeouts.
public final class TestClient {
    public let fd: Int32
    private lazy var lines = LineReader(fd: fd)

    public init(path: String) throws {
        do throws(Errno) {
            fd = try UnixSocket.connect(path: path).rawValue
        } catch {
            throw TestFailure("\(error)")
        }
    }

    private var isOpen = true

    /// Closes the socket once: a second close could hit another test's descriptor
    /// that reused the number (tests run in parallel).
    public func close() {
        guard isOpen else { return }
        isOpen = false
        Glibc.close(fd)
    }

    deinit { close() }

    public func send(_ text: String) {
        var bytes = Array(text.utf8)
        if !text.hasSuffix("\n") { bytes.append(10) }
        sendRaw(bytes)
    }

    public func sendRaw(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            offset += n
        }
    }

    /// The next line as a JSON object; nil at end of stream or after `timeout` seconds.
    public func next(timeout: Double = 5) -> [String: Any]? {
        guard let line = nextLine(timeout: timeout) else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    public func nextLine(timeout: Double = 5) -> String? {
        lines.next(timeout: timeout)
    }

    /// Whether the daemon closed the connection (seen by a read that returned nothing).
    public var closedByPeer: Bool { lines.reachedEnd }

    /// Reads messages until one matches `predicate`; all messages read, that one last.
    public func read(until predicate: ([String: Any]) -> Bool, timeout: Double = 10) -> [[String: Any]] {
        var messages: [[String: Any]] = []
        let deadline = Date().addingTimeInterval(timeout)
        while let message = next(timeout: max(0, deadline.timeIntervalSinceNow)) {
            messages.append(message)
            if predicate(message) { break }
        }
        return messages
    }

    /// Sends a request and reads up to its reply or error (matched by id).
    public func request(_ json: String, id: Int) -> [[String: Any]] {
        send(json)
        return read { ($0["type"] as? String == "reply" || $0["type"] as? String == "error") && $0["id"] as? Int == id }
    }

    /// Reads and checks the greeting: hello, state, sensor, settings, screen.
    @discardableResult
    public func greeting() -> [String: Any]? {
        let hello = next()
        guard hello?["type"] as? String == "hello", let state = next(), next()?["type"] as? String == "sensor",
              next()?["type"] as? String == "settings", next()?["type"] as? String == "screen" else {
            return nil
        }
        return state
    }
}
