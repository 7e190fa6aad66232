// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// 200 clients on the real daemon: one never reads, one floods garbage; every
/// well-behaved client receives every move, and the daemon drops the stuck one.
@Suite struct ManyClientsTests {
    @Test func slowAndFloodingClientsDoNotHurtTheOthers() throws {
        let directory = TemporaryDirectory()
        let config = directory.url.appendingPathComponent("d.conf")
        try "[clients]\nmax-queued-bytes = 65536\n".write(to: config, atomically: true, encoding: .utf8)
        try DaemonTests.seedSolvedGame(in: directory)
        let daemon = try DaemonProcess(directory: directory, arguments: ["--source", "none", "--config", config.path])
        var clients: [TestClient] = []
        for _ in 0..<200 {
            let client = try TestClient(path: daemon.socketPath)
            #expect(client.greeting() != nil)
            clients.append(client)
        }
        let player = clients[0]
        let stuck = clients[1]      // never reads again
        let flooder = clients[2]    // sends garbage, never reads
        let readers = [player] + clients[3...]
        var moves = [Int32: [Int]](uniqueKeysWithValues: readers.map { ($0.fd, []) })
        var buffers = [Int32: [UInt8]]()
        let rounds = 25, perRound = 100
        for round in 0..<rounds {
            var batch = ""
            for i in 0..<perRound {
                batch += #"{"cmd":"tilt","direction":"\#((round * perRound + i) % 2 == 0 ? "right" : "left")"}"# + "\n"
            }
            player.sendRaw(Array(batch.utf8))
            flooder.sendRaw(Array(String(repeating: "garbage that is not JSON\n", count: 200).utf8))
            // Drain every reader until each has this round's moves.
            let expected = (round + 1) * perRound
            let deadline = Date().addingTimeInterval(20)
            while readers.contains(where: { moves[$0.fd]!.count < expected }), Date() < deadline {
                var fds = readers.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
                guard poll(&fds, nfds_t(fds.count), 1000) > 0 else { continue }
                for entry in fds where entry.revents != 0 {
                    var chunk = [UInt8](repeating: 0, count: 65536)
                    let n = recv(entry.fd, &chunk, chunk.count, Int32(MSG_DONTWAIT))
                    guard n > 0 else { continue }
                    var buffer = buffers[entry.fd, default: []] + chunk[..<n]
                    while let newline = buffer.firstIndex(of: 10) {
                        let line = buffer[..<newline]
                        if let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                           object["type"] as? String == "move", let revision = object["revision"] as? Int {
                            moves[entry.fd]!.append(revision)
                        }
                        buffer.removeSubrange(...newline)
                    }
                    buffers[entry.fd] = buffer
                }
            }
        }
        let all = Array(1...(rounds * perRound))
        for reader in readers {
            #expect(moves[reader.fd]! == all, "client on fd \(reader.fd) missed moves")
        }
        // The stuck client was dropped: after what fitted in its buffers, the stream ends.
        var total = 0
        while let _ = stuck.nextLine(timeout: 2) { total += 1 }
        #expect(total < rounds * perRound)
        #expect(daemon.log.contains("is not reading"))
        #expect(daemon.process.isRunning)
    }
}
