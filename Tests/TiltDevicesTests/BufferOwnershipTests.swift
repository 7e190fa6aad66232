// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TiltSystem
@testable import TiltDevices

/// Whose an enabled buffer is, over the buffered kxcjk-1013 fixture, with a plain file
/// as its node.
@Suite struct BufferOwnershipTests {
    static func ownership(_ device: SysfsFixture, node: String? = nil) -> BufferOwnership {
        BufferOwnership(deviceID: "iio:device1", sysfsDirectory: device.path, node: node ?? device.file("node"))
    }

    /// The fixture's buffer enabled, its node free, and the watch it starts at `now`.
    static func watched(_ device: SysfsFixture, now: Double) throws -> (BufferOwnership, OpenWatch, deadline: Double)? {
        try device.write("buffer/enable", "1")
        try device.write("node", "")
        let ownership = Self.ownership(device)
        guard case .watching(let watch, let deadline) = ownership.find(now: now) else { return nil }
        return (ownership, watch, deadline)
    }

    @Test func aDisabledBufferIsFree() throws {
        let device = try SysfsFixture("iio-buffered")
        guard case .free = Self.ownership(device).find(now: 0) else { Issue.record("not free"); return }
    }

    @Test func anEnabledBufferWhoseNodeWillNotOpenIsAnotherProgramsAndNothingIsWritten() throws {
        let device = try SysfsFixture("iio-buffered")
        try device.write("buffer/enable", "1")
        guard case .foreign(let note) = Self.ownership(device).find(now: 0) else { Issue.record("not foreign"); return }
        #expect(note.hasPrefix("iio:device1: its buffer is enabled and \(device.file("node")) cannot be opened"))
        try device.write("node", "")
        let busy = Syscall.withFaults({ $0 == "open IIO node" ? .busy : nil }) { Self.ownership(device).find(now: 0) }
        guard case .foreign(let busyNote) = busy else { Issue.record("not foreign when busy"); return }
        #expect(busyNote == "iio:device1: its buffer is in use by another program; polling, changing nothing")
        #expect(device.read("buffer/enable") == "1")
    }

    @Test func anOpenFromAnotherProgramDuringTheWatchMakesItTheirs() throws {
        let device = try SysfsFixture("iio-buffered")
        let (ownership, watch, deadline) = try #require(try Self.watched(device, now: 10))
        defer { watch.close() }
        #expect(deadline == 10 + BufferOwnership.watchTime)
        #expect(ownership.verdict(watch, now: 10.5, deadline: deadline) == nil)
        let reader = try FileDescriptor.open(device.file("node"))
        try reader.close()
        #expect(ownership.verdict(watch, now: 10.6, deadline: deadline)
                == .foreign("iio:device1: another program reads its buffer now and then; polling, changing nothing"))
        #expect(device.read("buffer/enable") == "1")
    }

    @Test func aBufferNobodyOpensIsTakenBack() throws {
        let device = try SysfsFixture("iio-buffered")
        let (ownership, watch, deadline) = try #require(try Self.watched(device, now: 0))
        defer { watch.close() }
        #expect(ownership.verdict(watch, now: deadline, deadline: deadline) == .stale)
        let (taken, note) = ownership.takeBack()
        #expect(taken)
        #expect(note == "iio:device1: took back the buffer a stopped program left enabled")
        #expect(device.read("buffer/enable") == "0")
    }

    @Test func aNodeThatCannotBeWatchedIsTakenBackAtOnce() throws {
        let device = try SysfsFixture("iio-buffered")
        try device.write("buffer/enable", "1")
        try device.write("node", "")
        let found = Syscall.withFaults({ $0 == "inotify_add_watch" ? .noSpace : nil }) { Self.ownership(device).find(now: 0) }
        guard case .unwatchable(let note) = found else { Issue.record("watched"); return }
        #expect(note.hasPrefix("iio:device1: cannot watch \(device.file("node")) for other readers ("))
        #expect(note.hasSuffix("); taking its buffer back now"))
    }

    @Test func aBufferThatCannotBeDisabledStaysAsFound() throws {
        let device = try SysfsFixture("iio-polled")   // no buffer at all
        let (taken, note) = Self.ownership(device).takeBack()
        #expect(!taken)
        #expect(note.hasPrefix("iio:device1: cannot disable the buffer a stopped program left enabled ("))
        #expect(device.read("buffer/enable") == nil)
    }

    @Test func busyNamesTheProgramsHoldingTheNode() throws {
        let device = try SysfsFixture("iio-buffered")
        try device.write("node", "")
        let proc = try SysfsFixture("iio-light")   // a folder to lay a /proc in
        let fd = proc.file("101/fd")
        try FileManager.default.createDirectory(atPath: fd, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: fd + "/3", withDestinationPath: device.file("node"))
        try proc.write("101/comm", "iio-sensor-prox")
        let ownership = Self.ownership(device)
        #expect(ownership.busyError(procRoot: proc.path)
                == SensorError("the accelerometer is in use by another program (iio-sensor-prox); tilting resumes when it is free",
                               kind: .busy))
        #expect(ownership.busyError(procRoot: proc.path + "/none").message
                == "the accelerometer is in use by another program; tilting resumes when it is free")
    }
}
