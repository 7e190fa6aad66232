// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import TiltDevices

@Suite struct SamplingRateTests {
    @Test func parsesListsAndRanges() {
        #expect(SamplingRate.Offer(parsing: "100 12.5 25 50\n") == .values([12.5, 25, 50, 100]))
        #expect(SamplingRate.Offer(parsing: "[1 1 200]") == .range(minimum: 1, step: 1, maximum: 200))
        #expect(SamplingRate.Offer(parsing: "") == nil)
        #expect(SamplingRate.Offer(parsing: "10 fast") == nil)
        #expect(SamplingRate.Offer(parsing: "[200 1 1]") == nil)
    }

    @Test(arguments: [
        // current, offer, chosen (nil: leave it)
        (10.0, "10 50 100", 50.0),
        (10.0, "12.5 25 62.5 125", 62.5),
        (10.0, "1 5 10 25", 25.0),        // nothing reaches 50: the fastest
        (25.0, "1 5 10 25", nil),         // already the fastest
        (100.0, "10 50 100", nil),        // fast enough
        (50.0, "10 50 100", nil),
        (0.0, "10 50 100", 50.0),
        (12.5, "[1 3 200]", 52.0),        // 1 + 17 × 3
        (12.5, "[1 0 200]", 50.0),
        (12.5, "[60 10 200]", 60.0),
        (12.5, "[1 1 20]", 20.0),
    ] as [(Double, String, Double?)])
    func choosesTheSlowestRateOfAtLeast50Hz(current: Double, offer: String, chosen: Double?) throws {
        let parsed = try #require(SamplingRate.Offer(parsing: offer))
        #expect(SamplingRate.choose(current: current, offer: parsed) == chosen)
    }

    @Test(arguments: [
        // current, offer, chosen at the play rate (100 Hz)
        (50.0, "10 50 100 200", 100.0),
        (50.0, "12.5 25 62.5 125 250", 125.0),
        (50.0, "10 25 50", nil),           // nothing faster is offered: keep 50
        (25.0, "10 25 50", 50.0),          // the fastest offered
        (100.0, "10 50 100 200", nil),
        (12.5, "[1 3 200]", 100.0),        // 1 + 33 × 3
    ] as [(Double, String, Double?)])
    func whilePlayingAsksForAtLeast100Hz(current: Double, offer: String, chosen: Double?) throws {
        let parsed = try #require(SamplingRate.Offer(parsing: offer))
        #expect(SamplingRate.choose(current: current, offer: parsed, minimum: SamplingRate.playing) == chosen)
    }

    @Test func writesRatesAsSysfsDoes() {
        #expect(50.0.sysfsText == "50")
        #expect(62.5.sysfsText == "62.5")
        #expect((-1.0).sysfsText == "-1")
    }
}
