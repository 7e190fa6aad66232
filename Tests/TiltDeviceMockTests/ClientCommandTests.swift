// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TiltCore
import TiltSystem
@testable import TiltDevices

extension MockDeviceTests {
    /// The built `tiltpuzzle` run as a child process: it inherits the preload and
    /// the testbed, so it sees the same fake devices as this process.
    @Suite struct ClientCommands {
        static var client: String {
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tiltpuzzle").path
        }

        struct Run {
            let process: ChildProcess
            let log = FileManager.default.temporaryDirectory.appendingPathComponent("client-\(getpid())-\(MockTestbed.nextNumber()).log")

            init(_ arguments: [String]) throws {
                _ = FileManager.default.createFile(atPath: log.path, contents: nil)
                process = try ChildProcess([ClientCommands.client] + arguments, standardOutput: .file(log.path),
                                           standardError: .file(log.path), otherDescriptors: .closed)
            }

            /// Waits for the exit (at most `timeout` s); the status and what it printed.
            func finish(timeout: Double = 20) -> (status: Int32, output: String) {
                if (try? process.wait(timeout: timeout)) == nil { process.signal(SIGTERM) }
                let status = process.wait()
                let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                try? FileManager.default.removeItem(at: log)
                return (status, text)
            }
        }

        @Test func recordWritesATraceThatReadsBackAsTheSamples() throws {
            MockTestbed.shared.reset()
            let mock = MockDeviceTests.IIOBuffered.device()
            try mock.plug()
            let trace = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(getpid()).csv")
            defer { try? FileManager.default.removeItem(at: trace) }
            let run = try Run(["record", "--source", "iio:\(mock.id)", "--seconds", "30", "--samples", "20",
                               "--output", trace.path])

            // Scans written before the buffer is enabled would be thrown away with it.
            let deadline = Date().addingTimeInterval(15)
            while mock.attribute("buffer/enable") != "1", run.process.isRunning, Date() < deadline {
                Thread.sleep(forTimeInterval: 0.005)
            }
            let node = try MockTestbed.shared.nodeDescriptor(mock.node)
            let matrix = try MountMatrix.parse(MockDeviceTests.IIOBuffered.matrixText)
            var expected: [Sample] = []
            // On the monotonic clock, a moment ago: stamps far from it are not used (docs/sensors.md).
            let firstStamp = Int64((MonotonicClock.now() - 0.3) * 1e9)
            for i in 0..<20 {
                let raw = (x: Int16(i * 10), y: Int16(-5 * i), z: Int16(1000 - i))
                let stamp = firstStamp + Int64(i) * 10_000_000 + Int64(i % 3) * 1_234
                try node.writeAll(ScanBytes.garbageUpper(raw.x, raw.y, raw.z, timestamp: stamp))
                let sensor = Vector3((Double(raw.x) + 4) * 0.5, (Double(raw.y) + 4) * 0.25, (Double(raw.z) + 4) * 0.125)
                expected.append(Sample(time: Double(stamp) / 1e9 - Double(firstStamp) / 1e9,
                                       acceleration: matrix * sensor))
            }
            let (status, output) = run.finish()
            #expect(status == 0, "\(output)")
            #expect(output.contains("recorded 20 samples"), "\(output)")

            let fd = try FileDescriptor.open(trace.path)
            defer { try? fd.close() }
            var reader = TraceReader(descriptor: fd)
            var samples: [Sample] = []
            while let sample = try reader.next() { samples.append(sample) }
            #expect(samples == expected)
            // The recorder stopped the source: sysfs is as it was.
            #expect(mock.attribute("buffer/enable") == "0")
            #expect(mock.attribute("sampling_frequency") == "10")
        }

        @Test func sensorsListsWhatDiscoveryFinds() throws {
            MockTestbed.shared.reset()
            let display = MockIIODevice.buffered(MockTestbed.nextNumber())
            var base = MockIIODevice.polled(MockTestbed.nextNumber(), name: "accel_base")
            base.properties.append(("ACCEL_LOCATION", "base"))
            try display.plug()
            try base.plug()

            let json = try Run(["sensors", "--json"]).finish()
            #expect(json.status == 0, "\(json.output)")
            let object = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
            let sensors = try #require(object?["sensors"] as? [[String: Any]], "\(json.output)")
            #expect(sensors.compactMap { $0["sysname"] as? String } == [display.id, base.id])
            #expect(sensors.compactMap { $0["used"] as? Bool } == [true, false])
            #expect(sensors.first?["buffered"] as? Bool == true)
            #expect(sensors.first?["node"] as? String == display.node)
            #expect(sensors.first?["mountMatrix"] as? [Double] == [1, 0, 0, 0, 1, 0, 0, 0, 1])

            let text = try Run(["sensors"]).finish()
            #expect(text.status == 0)
            #expect(text.output.contains("1. accel_3d (\(display.id)): IIO, buffered, 10 Hz"), "\(text.output)")
            #expect(text.output.contains("2. accel_base (\(base.id)): IIO, polled, 20 Hz; in the keyboard base, not used"),
                    "\(text.output)")

            MockTestbed.shared.reset()
            let none = try Run(["sensors"]).finish()
            #expect(none.status == 69, "no accelerometer: unavailable, as for record (docs/client.md)")
            #expect(none.output.contains("No accelerometer found."))
        }
    }
}
