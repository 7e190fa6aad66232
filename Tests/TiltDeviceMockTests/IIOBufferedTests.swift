// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TiltCore
import TiltSystem
@testable import TiltDevices

extension MockDeviceTests {
    @Suite struct IIOBuffered {
        /// Not symmetric, so applying Mᵀ instead of M would show: device = (s.y, −s.z, −s.x).
        static let matrixText = "0, 1, 0; 0, 0, -1; -1, 0, 0"

        /// A buffered accelerometer whose x scan element was already enabled (to see it restored).
        static func device() -> MockIIODevice {
            MockIIODevice.buffered(MockTestbed.nextNumber())
                .with("in_accel_offset", "4")
                .with("in_accel_x_scale", "0.5").with("in_accel_y_scale", "0.25").with("in_accel_z_scale", "0.125")
                .with("in_accel_mount_matrix", matrixText)
                .with("scan_elements/in_accel_x_en", "1")
        }

        /// libiio 0.24 prints "High-speed mode not enabled" at every buffer start on a
        /// kernel without its DMA block interface (umockdev's nodes have none either);
        /// the journal must not get it each time a client attaches.
        @Test func startingTheBufferPrintsNothingToStderr() throws {
            MockTestbed.shared.reset()
            let mock = Self.device()
            try mock.plug()
            let source = try mock.source()
            var ends: [Int32] = [-1, -1]
            try #require(pipe(&ends) == 0)
            let saved = dup(2)
            dup2(ends[1], 2)
            close(ends[1])
            let started = Result { try source.start() }
            dup2(saved, 2)
            close(saved)
            defer { source.stop() }
            var printed: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while case let count = read(ends[0], &chunk, chunk.count), count > 0 { printed += chunk[..<count] }
            close(ends[0])
            try started.get()
            #expect(source.info.buffered == true)
            let text = String(decoding: printed, as: UTF8.self)
            #expect(!text.contains("High-speed"), "printed: \(text)")
        }

        @Test func decodesScansAndRestoresSysfsOnStop() throws {
            MockTestbed.shared.reset()
            let mock = Self.device()
            try mock.plug()
            let source = try mock.source()
            try source.start()
            defer { source.stop() }

            #expect(source.info.buffered == true)
            #expect(source.info.name == "accel_3d")
            #expect(source.info.samplingRate == 50)
            #expect(try MountMatrix.parse(Self.matrixText) == source.info.mountMatrix)
            // It waits for its descriptor, and (until the first scan) for a deadline that
            // notices a buffer that never delivers.
            guard case .readableUntil(_, let silence) = source.wait, silence > MonotonicClock.now() else {
                Issue.record("a new buffered source waits for its descriptor until a deadline, not \(source.wait)")
                return
            }
            // While capturing: buffer on, our channels, the device's trigger, 50 Hz, monotonic stamps.
            #expect(mock.attribute("buffer/enable") == "1")
            for element in ["accel_x", "accel_y", "accel_z", "timestamp"] {
                #expect(mock.attribute("scan_elements/in_\(element)_en") == "1", "\(element)")
            }
            #expect(mock.attribute("trigger/current_trigger") == mock.triggerName)
            #expect(mock.attribute("sampling_frequency") == "50")
            #expect(mock.attribute("current_timestamp_clock") == "monotonic")

            let node = try MockTestbed.shared.nodeDescriptor(mock.node)
            // Stamped on the monotonic clock a moment ago, as the kernel stamps them.
            let stamp = Int64((MonotonicClock.now() - 0.1) * 1e9)
            let first = ScanBytes.garbageUpper(100, -200, 1000, timestamp: stamp)
            let second = ScanBytes.garbageUpper(-32768, 32767, 0, timestamp: stamp + 10_000_000)
            try node.writeAll(first)
            // A scan split over two reads must still come out whole.
            try node.writeAll(Array(second[..<10]))
            let part = try Pump.run(source, count: 2, timeout: 0.3)
            try node.writeAll(Array(second[10...]))
            let rest = try Pump.run(source, count: 1)
            let samples = part.samples + rest.samples

            // sensor = ((raw + 4) × scale): (52, −49, 125.5) and (−16382, 8192.75, 0.5);
            // device = M · sensor = (s.y, −s.z, −s.x).
            #expect(samples == [Sample(time: Double(stamp) / 1e9, x: -49, y: -125.5, z: -52),
                                Sample(time: Double(stamp + 10_000_000) / 1e9, x: 8192.75, y: -0.5, z: 16382)])
            #expect(Pump.warnings(part.others + rest.others) == [])

            source.stop()
            #expect(source.wait == .idle)
            #expect(mock.attribute("buffer/enable") == "0")
            #expect(mock.attribute("scan_elements/in_accel_x_en") == "1")
            for element in ["accel_y", "accel_z", "timestamp"] {
                #expect(mock.attribute("scan_elements/in_\(element)_en") == "0", "\(element)")
            }
            #expect(mock.attribute("trigger/current_trigger") == "")
            #expect(mock.attribute("sampling_frequency") == "10")
            #expect(mock.attribute("current_timestamp_clock") == "realtime")
        }

        @Test func removalWhileStreamingIsAnEvent() throws {
            MockTestbed.shared.reset()
            let monitor = try HotplugMonitor()
            let mock = Self.device()
            try mock.plug()
            _ = monitor.receive()
            let source = try mock.source()
            try source.start()
            defer { source.stop() }
            let node = try MockTestbed.shared.nodeDescriptor(mock.node)
            try node.writeAll(ScanBytes.garbageUpper(1, 2, 3, timestamp: Int64(MonotonicClock.now() * 1e9)))
            #expect(try Pump.run(source, count: 1).samples.count == 1)

            MockTestbed.shared.unplug(mock.syspath)
            // The buffer's node says nothing (a real kernel's does not either): udev does.
            let readiness = try SensorPoll.wait(source.wait, others: [monitor.descriptor], until: MonotonicClock.now() + 5)
            #expect(readiness.readable == [monitor.descriptor])
            let removals = monitor.receive().compactMap { if case .removed(let c) = $0 { c.info.sysfsPath } else { nil } }
            #expect(removals == [mock.syspath])
            #expect(source.service(now: MonotonicClock.now()) == [.removed])
            #expect(source.wait == .idle)
            #expect(source.service(now: MonotonicClock.now()) == [])
            source.stop()
        }
    }

    /// A buffer left enabled by a program that died (this daemon after SIGKILL): the
    /// node opens, and nobody opens it while it is watched, so nobody reads it. The
    /// source takes it back instead of polling for ever: disabled, set up, enabled
    /// again, and read.
    @Test func aStaleEnabledBufferIsTakenBack() throws {
        MockTestbed.shared.reset()
        let mock = IIOBuffered.device().with("buffer/enable", "1").with("trigger/current_trigger", "accel_3d-dev0")
            .with("sampling_frequency", "50").with("in_accel_z_raw", "77")
        try mock.plug()
        let source = try mock.source()
        let started = MonotonicClock.now()
        try source.start()
        defer { source.stop() }
        guard case .readableUntil(_, let deadline) = source.wait else {
            Issue.record("the node is not watched first: \(String(describing: source.wait))")
            return
        }
        #expect(deadline >= started + 1, "watched longer than iio-sensor-proxy's 700 ms between reads")
        #expect(mock.attribute("scan_elements/in_accel_y_en") != "1", "nothing changed while watched")

        let node = try MockTestbed.shared.nodeDescriptor(mock.node)
        let stamp = Int64((MonotonicClock.now() - 0.1) * 1e9)
        try node.writeAll(ScanBytes.garbageUpper(100, -200, 1000, timestamp: stamp))
        let result = try Pump.run(source, count: 1)
        #expect(MonotonicClock.now() >= deadline, "taken back at the end of the watch, not before")
        #expect(source.info.buffered == true)
        #expect(mock.attribute("buffer/enable") == "1")
        #expect(mock.attribute("scan_elements/in_accel_y_en") == "1")
        // (52, −49, 125.5) in the sensor frame, as in decodesScansAndRestoresSysfsOnStop.
        #expect(result.samples == [Sample(time: Double(stamp) / 1e9, x: -49, y: -125.5, z: -52)])
        #expect(Pump.warnings(result.others).contains { $0.contains("took back the buffer") })
        #expect(!Pump.warnings(result.others).contains { $0.contains("polling") })

        source.stop()
        // Not put back to 1: that buffer had no reader.
        #expect(mock.attribute("buffer/enable") == "0")
    }

    /// iio-sensor-proxy keeps its buffer enabled and opens the node only to read it,
    /// every 700 ms: the node is free at most moments. An open seen while the source
    /// watches makes the buffer that program's: the source polls beside it and
    /// changes nothing.
    @Test func aBufferAnotherProgramOpensNowAndThenIsLeftToIt() throws {
        MockTestbed.shared.reset()
        let mock = IIOBuffered.device().with("buffer/enable", "1").with("trigger/current_trigger", "accel_3d-dev0")
            .with("sampling_frequency", "50").with("in_accel_x_raw", "10").with("in_accel_y_raw", "20")
            .with("in_accel_z_raw", "30")
        try mock.plug()
        func sysfs() -> [String: String] {
            Dictionary(uniqueKeysWithValues: mock.attributes.map { ($0.0, mock.attribute($0.0) ?? "(none)") })
        }
        let found = sysfs()
        let source = try mock.source()
        try source.start()
        defer { source.stop() }
        // The other program's read: open, read nothing yet, close.
        let reader = open(mock.node, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        #expect(reader >= 0, "the node opens: \(String(cString: strerror(errno)))")
        close(reader)
        let result = try Pump.run(source, count: 1)
        #expect(Pump.warnings(result.others).contains { $0.contains("another program reads its buffer now and then; polling") },
                "\(result.others)")
        #expect(!Pump.warnings(result.others).contains { $0.contains("took back") })
        #expect(source.info.buffered == false)
        // sensor = ((raw + 4) × scale) = (7, 6, 4.25); device = (s.y, −s.z, −s.x).
        #expect(result.samples.first?.acceleration == Vector3(6, -4.25, -7))
        #expect(sysfs() == found, "nothing written beside the other program")
        source.stop()
        #expect(sysfs() == found, "nothing to put back")
    }

    /// The same on a driver that refuses raw reads while its buffer runs (bmc150,
    /// kxcjk-1013): busy, and nothing changed.
    @Test func aBufferAnotherProgramOpensNowAndThenOnADriverThatRefusesRawReadsIsBusy() throws {
        MockTestbed.shared.reset()
        let mock = IIOBuffered.device().with("buffer/enable", "1").with("trigger/current_trigger", "accel_3d-dev0")
        try mock.plug()
        let source = try mock.source()
        try source.start()
        defer { source.stop() }
        close(open(mock.node, O_RDONLY | O_NONBLOCK | O_CLOEXEC))
        let result = try Syscall.withFaults({ $0 == "read IIO raw" ? Errno.busy : nil }) { try Pump.run(source, count: 1) }
        guard case .busy(let message)? = result.others.last else {
            Issue.record("expected busy, got \(result.others)")
            return
        }
        #expect(message.contains("in use by another program"), "\(message)")
        #expect(mock.attribute("buffer/enable") == "1")
        #expect(source.wait == .idle)
    }

    /// A buffer that never delivers a scan (a trigger that does not fire) gives way to
    /// polling the raw attributes, so the game keeps its sensor.
    @Test func aSilentBufferGivesWayToPolling() throws {
        MockTestbed.shared.reset()
        let mock = IIOBuffered.device().with("in_accel_x_raw", "10").with("in_accel_y_raw", "20").with("in_accel_z_raw", "30")
        try mock.plug()
        let source = try mock.source()
        try source.start()
        defer { source.stop() }
        guard case .readableUntil(_, let silence) = source.wait else {
            Issue.record("no silence deadline: \(String(describing: source.wait))")
            return
        }
        // Nothing is written to the node; at the deadline the source switches.
        while MonotonicClock.now() < silence { usleep(20_000) }
        let events = source.service(now: MonotonicClock.now())
        #expect(events.contains { if case .warning(let w) = $0 { w.contains("polling instead") } else { false } })
        #expect(source.info.buffered == false)
        guard case .readable = source.wait else {
            Issue.record("the polled source waits for its reader's descriptor, not \(String(describing: source.wait))")
            return
        }
        let polled = try Pump.run(source, count: 1)
        // sensor = ((raw + 4) × scale) = (7, 6, 4.25); device = (s.y, −s.z, −s.x).
        #expect(polled.samples.first?.acceleration == Vector3(6, -4.25, -7))
        #expect(mock.attribute("buffer/enable") == "0", "the silent buffer was disabled")
    }
}
