// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltSystem
@testable import TiltDevices

/// The data rate over the bmc150 fixture's files: the rate per channel
/// (`in_accel_sampling_frequency`, 12.5 Hz), the list per device.
@Suite struct RateControlTests {
    static func control(_ device: SysfsFixture, rate: String = "in_accel_sampling_frequency",
                        journal: SysfsJournal = SysfsJournal()) -> RateControl {
        let attribute = RateAttribute(
            read: { device.read(rate) },
            write: { (value: String) throws(Errno) in try SysfsFile.write(device.file(rate), value) },
            available: { device.read("sampling_frequency_available") })
        return RateControl(deviceID: "iio:device1", attribute: attribute, journal: journal)
    }

    @Test func raisesToTheSlowestRateOfferedThatIsFastEnoughAndPutsTheRateFoundBack() throws {
        let device = try SysfsFixture("iio-polled")
        let journal = SysfsJournal()
        let rates = Self.control(device, journal: journal)
        #expect(rates.current() == 12.5)
        #expect(rates.raise(minimum: SamplingRate.minimum).rate == 62.5)
        #expect(device.read("in_accel_sampling_frequency") == "62.5")
        #expect(rates.set(125) == (true, nil))
        #expect(device.read("in_accel_sampling_frequency") == "125")
        journal.restoreAll()
        #expect(device.read("in_accel_sampling_frequency") == "12.500000")
    }

    @Test func aRateFastEnoughOrWithoutAListIsLeftAlone() throws {
        let device = try SysfsFixture("iio-polled")
        try device.write("in_accel_sampling_frequency", "125")
        let journal = SysfsJournal()
        #expect(Self.control(device, journal: journal).raise(minimum: SamplingRate.minimum).rate == 125)
        try device.write("sampling_frequency_available", "")
        try device.write("in_accel_sampling_frequency", "12.5")
        #expect(Self.control(device, journal: journal).raise(minimum: SamplingRate.minimum).rate == 12.5)
        #expect(journal.isEmpty)
        let none = RateControl(deviceID: "iio:device1", attribute: nil, journal: journal)
        #expect(none.raise(minimum: 50) == (nil, nil))
        #expect(none.current() == nil)
    }

    @Test func aRateThatCannotBeWrittenIsSaidAndNotJournalled() throws {
        let device = try SysfsFixture("iio-polled")
        let journal = SysfsJournal()
        let rates = Self.control(device, rate: "no/such/rate", journal: journal)
        let (done, note) = rates.set(50)
        #expect(!done)
        #expect(note?.hasPrefix("iio:device1: cannot set sampling_frequency to 50: ") == true)
        #expect(journal.isEmpty)
    }

    @Test func slowReadsRaiseTheRateUntilTheyTakeAQuarterOfTheInterval() throws {
        let device = try SysfsFixture("iio-polled")
        let rates = Self.control(device)
        // At 62.5 Hz polled every 16 ms, reads of 15 ms: 62.5 × 15 / 4 = 234 Hz at least.
        let change = rates.judge(readTime: 0.015, interval: 0.016, rate: 62.5, foreign: false)
        #expect(change == .setRate(250, "iio:device1: reading in_accel_*_raw takes 15 ms, polled every 16 ms: "
                                   + "data rate raised from 62.5 to 250 Hz (a driver that waits for fresh data reads faster then)"))
        #expect(rates.judgement == .raised(previousRate: 62.5, readTime: 0.015))
        // Not clearly faster at 250 Hz: put back.
        #expect(rates.judge(readTime: 0.014, interval: 0.016, rate: 250, foreign: false)
                == .setRate(62.5, "iio:device1: reading in_accel_*_raw takes 14 ms, polled every 16 ms at 250 Hz too: "
                            + "data rate put back to 62.5 Hz"))
        #expect(rates.judgement == .done)
        #expect(rates.judge(readTime: 0.1, interval: 0.016, rate: 62.5, foreign: false) == .nothing)
    }

    @Test func fasterReadsAfterTheRaiseKeepIt() throws {
        let rates = Self.control(try SysfsFixture("iio-polled"))
        _ = rates.judge(readTime: 0.015, interval: 0.016, rate: 62.5, foreign: false)
        #expect(rates.judge(readTime: 0.004, interval: 0.016, rate: 250, foreign: false) == .nothing)
        #expect(rates.judgement == .done)
    }

    @Test func quickReadsAnotherProgramsRateOrNoFasterRateChangeNothing() throws {
        let device = try SysfsFixture("iio-polled")
        #expect(Self.control(device).judge(readTime: 0.002, interval: 0.016, rate: 62.5, foreign: false) == .nothing)
        #expect(Self.control(device).judge(readTime: 0.015, interval: 0.016, rate: 62.5, foreign: true) == .nothing)
        #expect(Self.control(device).judge(readTime: 0.5, interval: 0.016, rate: 1000, foreign: false)
                == .warning("iio:device1: reading in_accel_*_raw takes 500 ms, polled every 16 ms (the driver offers no faster data rate)"))
    }
}
