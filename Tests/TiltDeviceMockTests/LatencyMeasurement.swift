// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TiltCore
import TiltSystem
@testable import TiltDevices

extension MockDeviceTests {
    /// How long a scan takes from the node to the consumer: written into the mocked
    /// node, woken by poll, read through libiio, decoded, handed out. Printed, not
    /// asserted: timings belong in measurements, not in pass/fail.
    @Suite struct Latency {
        static let scans = 1_000

        @Test func scanToConsumer() throws {
            MockTestbed.shared.reset()
            let mock = MockDeviceTests.IIOBuffered.device()
            try mock.plug()
            let source = try mock.source()
            try source.start()
            defer { source.stop() }
            let node = try MockTestbed.shared.nodeDescriptor(mock.node)

            var delays: [Double] = []
            var received = 0
            for i in 0..<Self.scans {
                let written = MonotonicClock.now()
                try node.writeAll(ScanBytes.garbageUpper(Int16(i % 512), 0, 1000, timestamp: Int64(written * 1e9)))
                let result = try Pump.run(source, count: 1, timeout: 2)
                let arrived = MonotonicClock.now()
                received += result.samples.count
                if !result.samples.isEmpty { delays.append(arrived - written) }
            }
            #expect(received == Self.scans)
            delays.sort()
            guard !delays.isEmpty else { return }
            func microseconds(_ seconds: Double) -> String { String(Int((seconds * 1e6).rounded())) + " µs" }
            let median = delays[delays.count / 2]
            let p99 = delays[min(delays.count - 1, delays.count * 99 / 100)]
            print("[measure] IIO scan → consumer under umockdev, \(delays.count) scans: median \(microseconds(median)), "
                  + "p99 \(microseconds(p99)), worst \(microseconds(delays[delays.count - 1]))")
        }
    }
}
