// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TestSupport
import Testing
import TiltSystem
#if canImport(Glibc)
import Glibc
#endif

/// The daemon's side of systemd: notifications, the watchdog, socket activation, reload.
@Suite struct SystemdIntegrationTests {
    /// A datagram socket standing in for systemd's notification socket.
    final class NotifySocket {
        let fd: Int32
        let path: String

        init(path: String) throws {
            self.path = path
            fd = try UnixSocket.bindDatagram(path: path).rawValue
        }

        deinit { close(fd) }

        /// Datagrams received until `predicate` holds or `timeout` passes.
        func receive(until predicate: ([String]) -> Bool, timeout: Double = 5) -> [String] {
            var messages: [String] = []
            let deadline = Date().addingTimeInterval(timeout)
            while !predicate(messages), Date() < deadline {
                var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&pfd, 1, 100) > 0 else { continue }
                var buffer = [UInt8](repeating: 0, count: 4096)
                let n = recv(fd, &buffer, buffer.count, 0)
                if n > 0 { messages.append(String(decoding: buffer[..<n], as: UTF8.self)) }
            }
            return messages
        }
    }

    @Test func notifiesReadyStatusWatchdogAndStopping() throws {
        let directory = TemporaryDirectory()
        let notify = try NotifySocket(path: directory.path + "/notify")
        let daemon = try DaemonProcess(directory: directory,
                                       environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "200000"])
        let started = notify.receive(until: { $0.filter { $0 == "WATCHDOG=1" }.count >= 3 })
        #expect(started.contains("READY=1"))
        #expect(started.contains { $0.hasPrefix("STATUS=") })
        #expect(started.filter { $0 == "WATCHDOG=1" }.count >= 3, "pings every half interval")
        daemon.terminate()
        let stopping = notify.receive(until: { $0.contains("STOPPING=1") })
        #expect(stopping.contains("STOPPING=1"))
        #expect(daemon.process.wait() == 0)
    }

    @Test func takesItsSocketBySocketActivation() throws {
        let directory = TemporaryDirectory()
        let socketPath = directory.path + "/activated.sock"
        let activator = try ChildProcess(["/usr/bin/systemd-socket-activate", "-l", socketPath, BuiltProducts.url("tiltpuzzled").path,
                                          "--source", "none", "--state-dir", directory.path + "/state",
                                          "--socket", directory.path + "/not-used.sock"],
                                         standardError: .discard)
        defer {
            activator.signal(SIGTERM)
            activator.wait()
        }
        var client: TestClient?
        let deadline = Date().addingTimeInterval(10)
        while client == nil, Date() < deadline {
            client = try? TestClient(path: socketPath)
            if client == nil { usleep(20_000) }
        }
        let connected = try #require(client)
        #expect(connected.greeting() != nil)
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/not-used.sock"),
                "an activated daemon uses the socket it was given")
        // A second client on the same inherited socket.
        let second = try TestClient(path: socketPath)
        #expect(second.greeting() != nil)
    }

    @Test func sighupReloadsTheConfigurationOrKeepsTheOld() throws {
        let directory = TemporaryDirectory()
        let config = directory.url.appendingPathComponent("d.conf")
        try "[clients]\nmax-clients = 5\n".write(to: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(directory: directory, arguments: ["--source", "none", "--config", config.path])
        let first = try TestClient(path: daemon.socketPath)
        #expect(first.greeting() != nil)
        try "[clients]\nmax-clients = 1\n".write(to: config, atomically: true, encoding: .utf8)
        kill(daemon.process.pid, SIGHUP)
        let reloaded = Date().addingTimeInterval(5)
        while !daemon.log.contains("configuration reloaded"), Date() < reloaded { usleep(20_000) }
        let refused = try TestClient(path: daemon.socketPath)
        #expect(refused.next()?["type"] as? String == "hello")
        #expect(refused.next()?["code"] as? String == "too-many-clients")
        // A broken file at reload is reported and the running configuration stays.
        try "[clients]\nmax-clients = many\n".write(to: config, atomically: true, encoding: .utf8)
        kill(daemon.process.pid, SIGHUP)
        let kept = Date().addingTimeInterval(5)
        while !daemon.log.contains("keeping the old one"), Date() < kept { usleep(20_000) }
        #expect(daemon.log.contains("line 2"))
        #expect(daemon.process.isRunning)
        let stillRefused = try TestClient(path: daemon.socketPath)
        #expect(stillRefused.next()?["type"] as? String == "hello")
        #expect(stillRefused.next()?["code"] as? String == "too-many-clients")
    }

    @Test func sigtermSavesAndRemovesTheSocket() throws {
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(directory: directory)
        let client = try TestClient(path: daemon.socketPath)
        client.greeting()
        _ = client.request(#"{"cmd":"new","size":3,"seed":99,"id":1}"#, id: 1)
        daemon.terminate()
        #expect(daemon.process.wait() == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
        let saved = try String(contentsOfFile: daemon.stateDirectory + "/game.json", encoding: .utf8)
        #expect(saved.contains("\"size\":3"))
    }
}
