// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#endif
import TiltSystem

/// The service manager's side of the daemon: readiness and status notifications, the
/// watchdog, and socket activation.
///
/// These are small, documented and stable protocols (sd_notify(3), sd_listen_fds(3),
/// sd_watchdog_enabled(3)), spoken here directly rather than through libsystemd, which
/// would load libgcrypt, libcap and three compressors into the daemon for a few
/// environment variables and a datagram (docs/performance.md, memory).
public enum Systemd {
    /// Looks up an environment variable; the process's own, or a test's dictionary.
    public typealias Environment = @Sendable (String) -> String?

    public static let processEnvironment: Environment = { name in getenv(name).map { String(cString: $0) } }

    /// The first descriptor socket activation passes (then 4, 5, …).
    public static let listenDescriptorsStart: Int32 = 3

    // MARK: notifications

    /// Sends a notification (`READY=1`, `STATUS=…`, `WATCHDOG=1`) when the service
    /// manager asked for them (NOTIFY_SOCKET set); false otherwise, or when it could
    /// not be sent (never blocking: a full queue drops it).
    @discardableResult
    public static func notify(_ state: String, environment: Environment = processEnvironment) -> Bool {
        guard !state.isEmpty, let socket = notifySocket(environment) else { return false }
        do {
            try UnixSocket.sendDatagram(Array(state.utf8), to: socket)
            return true
        } catch {
            return false
        }
    }

    /// Where notifications go: an absolute path, or "@name" for a socket in the
    /// abstract namespace. Other forms (such as newer systemd's "vsock:") are not
    /// spoken, so nothing is sent.
    public static func notifySocket(_ environment: Environment) -> String? {
        guard let value = environment("NOTIFY_SOCKET"), value.utf8.count >= 2,
              value.hasPrefix("/") || value.hasPrefix("@") else { return nil }
        return value
    }

    /// Whether this system was booted with systemd (it then has /run/systemd/system).
    public static var booted: Bool {
        guard let fd = try? FileDescriptor.open("/run/systemd/system", .directory) else { return false }
        try? fd.close()
        return true
    }

    // MARK: socket activation

    /// What socket activation passed to this process.
    public struct Activation: Equatable, Sendable {
        /// How many descriptors, from `listenDescriptorsStart` on.
        public var count: Int
        /// Their names (the socket unit's FileDescriptorName=, else its name), one per
        /// descriptor; "unknown" when the manager gave none.
        public var names: [String]
    }

    /// Reads LISTEN_PID, LISTEN_FDS and LISTEN_FDNAMES. The descriptors are ours only
    /// when LISTEN_PID names this process (`pid`): a child that inherited the
    /// environment must not take its parent's sockets. Nil when nothing was passed or
    /// the variables are malformed.
    public static func activation(_ environment: Environment, pid: Int32) -> Activation? {
        guard let listenPID = environment("LISTEN_PID").flatMap(parsePID), listenPID == pid,
              let text = environment("LISTEN_FDS"), let count = parseDecimal(text), count > 0,
              count <= Int(Int32.max - listenDescriptorsStart) else { return nil }
        var names = environment("LISTEN_FDNAMES").map { $0.split(separator: ":", omittingEmptySubsequences: false).map(String.init) } ?? []
        if names.count != count { names = Array(repeating: "unknown", count: count) }
        return Activation(count: count, names: names)
    }

    /// The sockets passed by socket activation, with their names. They are marked
    /// close-on-exec and the variables removed from the environment, so children
    /// inherit neither (called once, at start, before any thread is started).
    public static func listenDescriptors() -> [(descriptor: FileDescriptor, name: String)] {
        let passed = activation(processEnvironment, pid: getpid())
        for name in ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"] { unsetenv(name) }
        guard let passed else { return [] }
        return (0..<passed.count).map { index in
            let fd = FileDescriptor(rawValue: listenDescriptorsStart + Int32(index))
            _ = try? Syscall.call("fcntl") { fcntl(fd.rawValue, F_SETFD, FD_CLOEXEC) }
            return (fd, passed.names[index])
        }
    }

    // MARK: watchdog

    /// The watchdog interval in seconds when the service manager expects pings
    /// (WATCHDOG_USEC, and WATCHDOG_PID naming this process if it is set).
    public static func watchdogInterval(_ environment: Environment = processEnvironment,
                                        pid: Int32 = getpid()) -> Double? {
        guard let text = environment("WATCHDOG_USEC"), let microseconds = parseDecimal(text),
              microseconds > 0 else { return nil }
        if let owner = environment("WATCHDOG_PID") {
            guard parsePID(owner) == pid else { return nil }
        }
        return Double(microseconds) / 1e6
    }

    // MARK: parsing

    /// A non-negative decimal number: digits only, no sign, no spaces.
    static func parseDecimal(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int(text)
    }

    static func parsePID(_ text: String) -> Int32? {
        guard let value = parseDecimal(text), value > 0, value <= Int(Int32.max) else { return nil }
        return Int32(value)
    }
}
