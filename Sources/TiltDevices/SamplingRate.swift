// SPDX-License-Identifier: GPL-3.0-or-later
/// Which sampling frequency to ask an IIO driver for: at least `minimum`, so a
/// tilt is seen within 20 ms, and no more than needed, from what the driver offers
/// in `sampling_frequency_available`.
public enum SamplingRate {
    public static let minimum = 50.0
    /// What the daemon asks for while a client plays (`sample-rate`): a tilt is seen
    /// within 10 ms (docs/performance.md).
    public static let playing = 100.0

    /// What `*sampling_frequency_available` lists: values ("12.5 25 50 100") or a
    /// range ("[min step max]").
    public enum Offer: Equatable, Sendable {
        case values([Double])
        case range(minimum: Double, step: Double, maximum: Double)

        public init?(parsing text: String) {
            let trimmed = text.trimmingWhitespace
            if trimmed.hasPrefix("["), trimmed.hasSuffix("]") {
                let numbers = trimmed.dropFirst().dropLast().split(whereSeparator: { $0 == " " || $0 == "\t" })
                    .compactMap { $0.sysfsNumber }
                guard numbers.count == 3, numbers[0] <= numbers[2], numbers[1] >= 0 else { return nil }
                self = .range(minimum: numbers[0], step: numbers[1], maximum: numbers[2])
                return
            }
            let words = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
            let numbers = words.compactMap { $0.sysfsNumber }
            guard !numbers.isEmpty, numbers.count == words.count else { return nil }
            self = .values(numbers.sorted())
        }
    }

    /// The rate to set, or nil to leave the current one: it is already fast enough,
    /// or nothing offered is faster. Below `minimum` everywhere, the fastest offered.
    public static func choose(current: Double?, offer: Offer, minimum: Double = minimum) -> Double? {
        if let current, current >= minimum { return nil }
        let target: Double?
        switch offer {
        case .values(let values):
            target = values.first(where: { $0 >= minimum }) ?? values.last
        case .range(let low, let step, let high):
            if high < minimum {
                target = high
            } else if low >= minimum {
                target = low
            } else if step > 0 {
                target = min(high, low + ((minimum - low) / step).rounded(.up) * step)
            } else {
                target = minimum
            }
        }
        guard let target, target > 0, target != current else { return nil }
        if let current, target < current { return nil }
        return target
    }
}
