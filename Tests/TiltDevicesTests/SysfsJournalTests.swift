// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import TiltDevices

/// The settings journal over the buffered kxcjk-1013 fixture's sysfs files.
@Suite struct SysfsJournalTests {
    static let scanElements = ["accel_x", "accel_y", "accel_z", "timestamp"].map { "scan_elements/in_\($0)_en" }

    @Test func putsBackWhatWasChangedAsItWasFound() throws {
        let device = try SysfsFixture("iio-buffered")
        let journal = SysfsJournal()
        journal.keep(Self.scanElements.map(device.file) + [device.file("buffer/length"), device.file("no/such/file")])
        for name in Self.scanElements { try device.write(name, "1") }
        try device.write("buffer/length", "64")
        #expect(device.read("scan_elements/in_accel_y_en") == "1")
        journal.restoreAll()
        #expect(Self.scanElements.map { device.read($0) } == ["0", "0", "0", "0"])
        #expect(device.read("buffer/length") == "2")
        #expect(device.read("no/such/file") == nil)
        #expect(journal.isEmpty)
    }

    @Test func undoesTheMostRecentFirstSoASettingChangedTwiceEndsAsFound() throws {
        let device = try SysfsFixture("iio-buffered")
        let journal = SysfsJournal()
        var order: [String] = []
        for value in ["first", "second"] {
            let found = device.read("current_timestamp_clock") ?? ""
            try device.write("current_timestamp_clock", value)
            journal.record {
                order.append(value)
                try? device.write("current_timestamp_clock", found)
            }
        }
        journal.restoreAll()
        #expect(order == ["second", "first"])
        #expect(device.read("current_timestamp_clock") == "realtime")
    }

    @Test func rollsBackOnlyWhatCameAfterTheMark() throws {
        let device = try SysfsFixture("iio-buffered")
        let journal = SysfsJournal()
        journal.keep([device.file("sampling_frequency")])
        try device.write("sampling_frequency", "50")
        let mark = journal.mark
        journal.keep([device.file("buffer/watermark")])
        try device.write("buffer/watermark", "1000")
        journal.rollBack(to: mark)
        #expect(device.read("buffer/watermark") == "1")
        #expect(device.read("sampling_frequency") == "50")
        #expect(journal.mark == mark)
        journal.rollBack(to: mark + 5)   // nothing after it: nothing undone
        #expect(device.read("sampling_frequency") == "50")
        journal.restoreAll()
        #expect(device.read("sampling_frequency") == "12.500000")
    }
}
