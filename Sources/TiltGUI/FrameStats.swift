// SPDX-License-Identifier: GPL-3.0-or-later
/// Counts the frames drawn during one burst of animation, from the first frame
/// after the board went still to the frame that made it still again.
public struct FrameStats: Equatable, Sendable {
    public private(set) var frames = 0
    public private(set) var slides = 0
    public private(set) var start: Double?
    public private(set) var longestFrame = 0.0
    private var last = 0.0

    public init() {}

    public var isRunning: Bool { start != nil }

    public mutating func slideQueued() { slides += 1 }

    public mutating func frame(at time: Double) {
        if start == nil {
            start = time
        } else {
            longestFrame = max(longestFrame, time - last)
        }
        last = time
        frames += 1
    }

    /// The burst's summary, and a fresh count for the next one.
    public mutating func finish() -> String? {
        guard let start, frames > 1 else {
            self = FrameStats()
            return nil
        }
        let seconds = last - start
        let rate = Double(frames - 1) / max(seconds, 1e-9)
        let summary = "frames: \(frames) in \(Self.milliseconds(seconds)) ms (\(Int(rate.rounded())) fps), "
            + "\(slides) slides, longest frame \(Self.milliseconds(longestFrame)) ms"
        self = FrameStats()
        return summary
    }

    static func milliseconds(_ seconds: Double) -> Int { Int((seconds * 1000).rounded()) }
}
