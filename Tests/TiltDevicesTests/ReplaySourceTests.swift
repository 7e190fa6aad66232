// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TiltCore
import TiltDevices
import TiltSystem

@Suite struct ReplaySourceTests {
    static func file(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "replay-\(getpid())-\(UInt32.random(in: 0 ... .max)).csv"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func replaysAsFastAsPossibleAndEnds() throws {
        let path = try Self.file("t,x,y,z\n0,0,0,9.8\n0.01,0,0,9.8\nbad\n0.02,0,0,9.8\n")
        defer { unlink(path) }
        let source = ReplaySource(path: path, speed: .max)
        try source.start()
        let events = source.service(now: MonotonicClock.now())
        let samples: [Sample] = events.flatMap { event -> [Sample] in if case .samples(let s) = event { s } else { [] } }
        #expect(samples.map(\.time) == [0, 0.01, 0.02])
        #expect(events.contains { if case .warning(let w) = $0 { w.contains("line 4") } else { false } })
        #expect(events.last == .ended)
        #expect(source.wait == .idle)
    }

    /// A trace is in the device frame: only the configuration's matrix is applied.
    @Test func aConfiguredMountMatrixTurnsTheTrace() throws {
        let path = try Self.file("t,x,y,z\n0,1,2,9.8\n")
        defer { unlink(path) }
        let source = ReplaySource(path: path, speed: .max)
        #expect(source.info.mountMatrix == .identity)
        let configured = try MountMatrix.parse("0, 1, 0; -1, 0, 0; 0, 0, 1")
        source.setMountMatrix(configured)
        #expect(source.info.mountMatrix == configured)
        try source.start()
        let samples = source.service(now: MonotonicClock.now()).flatMap { event -> [Sample] in
            if case .samples(let s) = event { s } else { [] }
        }
        #expect(samples.map(\.acceleration) == [Vector3(2, -1, 9.8)])
    }

    /// A file that is not a trace fails at once instead of warning about every line.
    @Test func aFileThatIsNotATraceFails() throws {
        let path = try Self.file(String(repeating: "some,other,csv,file\n", count: 10_000))
        defer { unlink(path) }
        let source = ReplaySource(path: path, speed: .max)
        try source.start()
        let events = source.service(now: MonotonicClock.now())
        #expect(events.count == 1)
        guard case .failed(let message)? = events.first else {
            Issue.record("not failed: \(events)")
            return
        }
        #expect(message.contains("not a trace"))
    }

    @Test func startReplaysFromTheBeginning() throws {
        let path = try Self.file("t,x,y,z\n0,0,0,9.8\n")
        defer { unlink(path) }
        let source = ReplaySource(path: path, speed: .max)
        for _ in 0..<2 {
            try source.start()
            let samples: [Sample] = source.service(now: MonotonicClock.now()).flatMap { event -> [Sample] in if case .samples(let s) = event { s } else { [] } }
            #expect(samples.count == 1)
        }
    }
}
