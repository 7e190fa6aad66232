// SPDX-License-Identifier: GPL-3.0-or-later
import TiltCore

/// The rate a running sensor's samples come at, measured from their times: what the
/// `sensor` message's `rate` says once known, rather than the rate asked of the driver
/// (a driver may deliver less: docs/sensors.md, "Rates").
///
/// Samples are counted over a first window of `firstWindow` seconds, then over each
/// following `window`; a pause longer than `gap` starts the window again, so a stalled
/// machine is not taken for a slow sensor. A window's rate is reported when it differs
/// from the rate last reported by more than `tolerance`, so the usual jitter sends nothing.
struct RateMeter {
    static let firstWindow = 2.0
    static let window = 5.0
    static let gap = 1.0
    static let tolerance = 0.05

    /// The rate last worth reporting, samples per second to a tenth.
    private(set) var measured: Double?
    private var windowStart: Double?
    private var last = 0.0
    private var count = 0
    private var windows = 0

    /// Counts the samples; returns the new measured rate when it should be reported.
    mutating func add(_ samples: [Sample], reported: Double?) -> Double? {
        var news: Double?
        for sample in samples {
            let time = sample.time
            guard let start = windowStart, time - last <= Self.gap, time >= last else {
                windowStart = time
                last = time
                count = 0
                continue
            }
            last = time
            count += 1
            let span = time - start
            guard span >= (windows == 0 ? Self.firstWindow : Self.window) else { continue }
            windows += 1
            let rate = (Double(count) / span * 10).rounded() / 10
            windowStart = time
            count = 0
            let known = measured ?? reported
            if known.map({ abs(rate - $0) > Self.tolerance * $0 }) ?? true {
                measured = rate
                news = rate
            }
        }
        return news
    }
}
