import Foundation
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

/// A temporary folder removed at the end of the test.
public final class TemporaryDirectory {
    public let url: URL
    public var path: String { url.path }

    public init() {
        // Short paths: a Unix socket path holds at most 107 bytes.
        url = URL(fileURLWithPath: "/tmp/tp-\(getpid())-\(UInt32.random(in: 0 ... .max))")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// `tiltpuzzled` started on a temporary socket and state folder.
public final class DaemonProcess {
    public let process = Process()
    public let socketPath: String
    public let stateDirectory: String
    private let logPipe = Pipe()
    private let logBuffer = LogBuffer()

    /// `launcher`: a command line the daemon's runs under (`unshare …`, `setpriv …`),
    /// which ends by executing it, so the process is the daemon's.
    public init(directory: TemporaryDirectory, arguments: [String] = ["--source", "none"], environment: [String: String] = [:],
                launcher: [String] = []) throws {
        socketPath = directory.path + "/d.sock"
        stateDirectory = directory.path + "/state"
        let daemonArguments = ["--socket", socketPath, "--state-dir", stateDirectory, "--log-level", "debug"] + arguments
        if launcher.isEmpty {
            process.executableURL = BuiltProducts.url("tiltpuzzled")
            process.arguments = daemonArguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = launcher + [BuiltProducts.url("tiltpuzzled").path] + daemonArguments
        }
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "NOTIFY_SOCKET")
        env.removeValue(forKey: "LISTEN_FDS")
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardError = logPipe
        process.standardOutput = logPipe
        let buffer = logBuffer
        logPipe.fileHandleForReading.readabilityHandler = { handle in buffer.append(handle.availableData) }
        try process.run()
        try waitForSocket()
    }

    public var log: String { logBuffer.text }

    /// Whether the log shows `text` within `seconds`: it arrives through a pipe, after
    /// whatever the daemon sent on its socket meanwhile.
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

    public func terminate() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    public func kill9() {
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit {
        terminate()
        logPipe.fileHandleForReading.readabilityHandler = nil
    }
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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: launcher.isEmpty ? executable : "/usr/bin/env")
        process.arguments = launcher.isEmpty ? arguments : launcher + [executable] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "NOTIFY_SOCKET")
        environment.removeValue(forKey: "LISTEN_FDS")
        process.environment = environment
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return DaemonExit(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self))
    }
}

/// The daemon's output, collected from the pipe's reader thread.
public final class LogBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    public func append(_ more: Data) {
        lock.lock()
        data.append(more)
        lock.unlock()
    }

    public var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: data, as: UTF8.self)
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
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8)
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if result != 0 {
            let error = errno
            close()   // deinit runs too, as the instance is complete: close() closes once
            throw TestFailure("connect: \(String(cString: strerror(error)))")
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

    /// Reads and checks the greeting: hello, state, sensor, settings.
    @discardableResult
    public func greeting() -> [String: Any]? {
        let hello = next()
        guard hello?["type"] as? String == "hello", let state = next(), next()?["type"] as? String == "sensor",
              next()?["type"] as? String == "settings" else {
            return nil
        }
        return state
    }
}
