// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `screen` set by a client in the middle of a replayed trace (docs/protocol.md,
/// "Screen rotation"): the tilts after it are those of a daemon started with that
/// `screen-rotation`, and the daemon tells every client.
@Suite(.serialized) struct ScreenRotationReplayTests {
    /// Tilts of the device by (x, y) degrees (x < 0: its right edge lowered), each from
    /// and back to flat, at 100 samples a second, as trace lines from `start`.
    static func tilts(_ ways: [(Double, Double)], start: inout Int) -> [String] {
        var lines: [String] = []
        func sample(_ x: Double, _ y: Double) {
            let (sx, sy) = (sin(x * .pi / 180), sin(y * .pi / 180))
            let g = 9.80665
            lines.append(String(format: "%.2f,%.4f,%.4f,%.4f", Double(start) / 100, sx * g, sy * g,
                                (1 - sx * sx - sy * sy).squareRoot() * g))
            start += 1
        }
        for (x, y) in ways {
            for _ in 0..<30 { sample(0, 0) }
            for i in 1...20 { sample(x * Double(i) / 20, y * Double(i) / 20) }
            for _ in 0..<10 { sample(x, y) }
            for i in (0..<20).reversed() { sample(x * Double(i) / 20, y * Double(i) / 20) }
        }
        return lines
    }

    /// Two tilts, a rest of two seconds (when the client turns the screen), four tilts.
    static func trace() -> String {
        var t = 0
        var lines = ["# tiltpuzzle trace v1", "t,x,y,z"]
        lines += tilts([(-30, 0), (0, -30)], start: &t)
        lines += tilts([(0, 0), (0, 0), (0, 0)], start: &t)
        lines += tilts([(-30, 0), (0, -30), (30, 0), (0, 30)], start: &t)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The directions the daemon's `tilt` events fire until the replay ends; with
    /// `turnAfter`, the client sets the screen to 90 after that many tilts.
    static func play(rotationInFile: Int, turnAfter: Int?, watcherSees: inout [String]) throws -> [String] {
        let directory = TemporaryDirectory()
        let tracePath = directory.path + "/turn.csv"
        let configPath = directory.path + "/tiltpuzzled.conf"
        try trace().write(toFile: tracePath, atomically: true, encoding: .utf8)
        try "[detector]\nscreen-rotation = \(rotationInFile)\n".write(toFile: configPath, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(directory: directory, arguments: ["--source", "replay:\(tracePath)", "--config", configPath])
        defer { daemon.terminate() }
        let player = try TestClient(path: daemon.socketPath)
        let watcher = try TestClient(path: daemon.socketPath)
        #expect(player.greeting() != nil)
        #expect(watcher.greeting() != nil)
        var fired: [String] = []
        func isEnd(_ m: [String: Any]) -> Bool { m["type"] as? String == "sensor" && m["status"] as? String == "ended" }
        func tilts(_ messages: [[String: Any]]) -> [String] {
            messages.filter { $0["type"] as? String == "tilt" }.compactMap { $0["direction"] as? String }
        }
        if let turnAfter {
            var seen = 0
            let before = player.read(until: { m in
                if m["type"] as? String == "tilt" { seen += 1 }
                return seen == turnAfter || isEnd(m)
            }, timeout: 30)
            fired += tilts(before)
            let answer = player.request(#"{"cmd":"screen","rotation":90,"id":1}"#, id: 1)
            #expect(answer.last?["type"] as? String == "reply", "the turn was taken: \(answer)")
            fired += tilts(answer)
        }
        fired += tilts(player.read(until: isEnd, timeout: 30))
        watcherSees = watcher.read(until: isEnd, timeout: 5).filter { $0["type"] as? String == "screen" }
            .compactMap { ($0["rotation"] as? Int).map(String.init) }
        return fired
    }

    @Test func tiltsAfterALiveTurnAreThoseOfADaemonStartedTurned() throws {
        var told: [String] = []
        let turned = try Self.play(rotationInFile: 0, turnAfter: 2, watcherSees: &told)
        #expect(told == ["90"], "the other client was told of the turn")
        var none: [String] = []
        let started = try Self.play(rotationInFile: 90, turnAfter: nil, watcherSees: &none)
        #expect(none.isEmpty)
        // Before the turn the device's tilts read upright; after it, as the started daemon's.
        #expect(turned.prefix(2) == ["right", "up"])
        #expect(turned.count == 6 && started.count == 6, "\(turned) \(started)")
        #expect(Array(turned.dropFirst(2)) == Array(started.dropFirst(2)))
        // The device's right edge lowered is the picture's top at a quarter turn.
        #expect(Array(started.dropFirst(2)) == ["up", "left", "down", "right"])
    }
}
