// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import TiltDaemon
import TiltSystem

/// sd_notify's datagram, socket activation's and the watchdog's variables, spoken
/// without libsystemd (docs/performance.md).
@Suite struct SystemdProtocolTests {
    static func environment(_ values: [String: String]) -> Systemd.Environment {
        { values[$0] }
    }

    /// A name no other run uses, for a socket path or an abstract name.
    static func uniqueName(_ stem: String) -> String {
        "tiltpuzzle-\(stem)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// The datagram waiting on `fd`; sends to a Unix socket are queued synchronously.
    static func receive(_ fd: FileDescriptor) -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd.rawValue, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        return count < 0 ? nil : String(decoding: buffer[..<count], as: UTF8.self)
    }

    @Test func notifySendsOneDatagramToAPathSocket() throws {
        let path = "/tmp/" + Self.uniqueName("notify")
        let fd = try UnixSocket.bindDatagram(path: path)
        defer {
            try? fd.close()
            unlink(path)
        }
        #expect(Systemd.notify("READY=1", environment: Self.environment(["NOTIFY_SOCKET": path])))
        #expect(Systemd.notify("STATUS=sensor none\nWATCHDOG=1", environment: Self.environment(["NOTIFY_SOCKET": path])))
        #expect(Self.receive(fd) == "READY=1")
        #expect(Self.receive(fd) == "STATUS=sensor none\nWATCHDOG=1")
        #expect(Self.receive(fd) == nil)
    }

    @Test func notifyReachesAnAbstractSocket() throws {
        let name = "@" + Self.uniqueName("notify")
        let fd = try UnixSocket.bindDatagram(path: name)
        defer { try? fd.close() }
        #expect(Systemd.notify("WATCHDOG=1", environment: Self.environment(["NOTIFY_SOCKET": name])))
        #expect(Self.receive(fd) == "WATCHDOG=1")
        // The address is exactly the name: a longer one is another socket.
        #expect(!Systemd.notify("WATCHDOG=1", environment: Self.environment(["NOTIFY_SOCKET": name + "x"])))
    }

    @Test(arguments: [nil, "", "@", "relative/notify", "vsock:2:1234"])
    func notifySendsNothingWithoutAUsableSocket(value: String?) {
        let environment = Self.environment(value.map { ["NOTIFY_SOCKET": $0] } ?? [:])
        #expect(Systemd.notifySocket(environment) == nil)
        #expect(!Systemd.notify("READY=1", environment: environment))
    }

    @Test func notifyFailsWhenNobodyListens() {
        let path = "/tmp/" + Self.uniqueName("nobody")
        #expect(!Systemd.notify("READY=1", environment: Self.environment(["NOTIFY_SOCKET": path])))
    }

    @Test func activationCountsAndNamesThePassedDescriptors() {
        let environment = Self.environment(["LISTEN_PID": "4242", "LISTEN_FDS": "2",
                                            "LISTEN_FDNAMES": "tiltpuzzled.socket:extra"])
        #expect(Systemd.activation(environment, pid: 4242)
            == Systemd.Activation(count: 2, names: ["tiltpuzzled.socket", "extra"]))
        // No names, or not one per descriptor: all unknown, as libsystemd reports them.
        #expect(Systemd.activation(Self.environment(["LISTEN_PID": "7", "LISTEN_FDS": "1"]), pid: 7)
            == Systemd.Activation(count: 1, names: ["unknown"]))
        #expect(Systemd.activation(Self.environment(["LISTEN_PID": "7", "LISTEN_FDS": "2", "LISTEN_FDNAMES": "one"]),
                                   pid: 7)?.names == ["unknown", "unknown"])
    }

    @Test(arguments: [
        ["LISTEN_FDS": "1"],                                   // no LISTEN_PID
        ["LISTEN_PID": "4243", "LISTEN_FDS": "1"],             // another process's (a parent's)
        ["LISTEN_PID": "4242"],                                // no count
        ["LISTEN_PID": "4242", "LISTEN_FDS": "0"],
        ["LISTEN_PID": "4242", "LISTEN_FDS": "-1"],
        ["LISTEN_PID": "4242", "LISTEN_FDS": " 1"],
        ["LISTEN_PID": "4242x", "LISTEN_FDS": "1"],
        ["LISTEN_PID": "4242", "LISTEN_FDS": "99999999999999999999"],
    ])
    func activationIgnoresWhatIsNotForThisProcessOrMalformed(values: [String: String]) {
        #expect(Systemd.activation(Self.environment(values), pid: 4242) == nil)
    }

    @Test func watchdogIntervalFollowsWatchdogUsecAndPid() {
        #expect(Systemd.watchdogInterval(Self.environment(["WATCHDOG_USEC": "200000"]), pid: 10) == 0.2)
        #expect(Systemd.watchdogInterval(Self.environment(["WATCHDOG_USEC": "3000000", "WATCHDOG_PID": "10"]),
                                         pid: 10) == 3)
        #expect(Systemd.watchdogInterval(Self.environment(["WATCHDOG_USEC": "3000000", "WATCHDOG_PID": "11"]),
                                         pid: 10) == nil)
        #expect(Systemd.watchdogInterval(Self.environment(["WATCHDOG_USEC": "3000000", "WATCHDOG_PID": "x"]),
                                         pid: 10) == nil)
        for value in ["0", "", "-5", "1e6", "forever"] {
            #expect(Systemd.watchdogInterval(Self.environment(["WATCHDOG_USEC": value]), pid: 10) == nil, "\(value)")
        }
        #expect(Systemd.watchdogInterval(Self.environment([:]), pid: 10) == nil)
    }
}
