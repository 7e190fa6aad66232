// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
import TiltGUI

/// The board's sounds (docs/gui.md, "Sound"): each is heard, never clips, lasts as long
/// as it says, starts and ends without a click, and is the same every time.
@Suite struct SoundEffectTests {
    static let rates = [SoundEffect.preferredRate, 44_100, 22_050]

    @Test(arguments: SoundEffect.allCases)
    func eachLastsAsLongAsItSays(effect: SoundEffect) {
        for rate in Self.rates {
            let expected = Int((effect.duration * Double(rate)).rounded())
            #expect(effect.samples(rate: rate).count == expected, "\(effect) at \(rate) Hz")
        }
        #expect((0.06...0.09).contains(SoundEffect.slide.duration))
        #expect(SoundEffect.bump.duration == 0.1)
        #expect(SoundEffect.solved.duration == 0.6)
    }

    /// Loud enough to hear (its peak at its level, energy throughout), never at full
    /// scale, so it cannot clip.
    @Test(arguments: SoundEffect.allCases)
    func eachIsHeardAndNeverClips(effect: SoundEffect) {
        let samples = effect.samples(rate: SoundEffect.preferredRate)
        let peak = samples.map { abs(Int($0)) }.max() ?? 0
        #expect(peak == Int((effect.peak * Double(Int16.max)).rounded()), "\(effect) peaks at its level")
        #expect(peak < Int(0.6 * Double(Int16.max)), "\(effect) stays well under full scale")
        let energy = samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)
        #expect(energy.squareRoot() > 0.03 * Double(Int16.max), "\(effect) is not near silence")
    }

    /// The ends are faded: a sound that starts or stops away from zero clicks.
    @Test(arguments: SoundEffect.allCases)
    func eachStartsAndEndsAtZero(effect: SoundEffect) {
        let samples = effect.samples(rate: SoundEffect.preferredRate)
        #expect(samples.first == 0 && samples.last == 0, "\(effect)")
        let near = Int(0.01 * Double(Int16.max))
        for index in 0..<24 {
            #expect(abs(Int(samples[index])) <= near && abs(Int(samples[samples.count - 1 - index])) <= near,
                    "\(effect) sample \(index) from an end is near zero")
        }
    }

    @Test(arguments: SoundEffect.allCases)
    func eachIsTheSameEveryTime(effect: SoundEffect) {
        #expect(effect.samples(rate: 44_100) == effect.samples(rate: 44_100))
    }

    @Test func theEffectsDiffer() {
        let all = SoundEffect.allCases.map { $0.samples(rate: SoundEffect.preferredRate) }
        #expect(all[0] != all[1] && all[1] != all[2] && all[0] != all[2])
    }

    /// The thud is low and the chime high: counted by the signs' changes per second.
    @Test func theBumpIsLowAndTheChimeHigh() {
        func crossingsPerSecond(_ effect: SoundEffect) -> Double {
            let samples = effect.samples(rate: SoundEffect.preferredRate).filter { $0 != 0 }
            let changes = zip(samples, samples.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
            return Double(changes) / effect.duration
        }
        #expect(crossingsPerSecond(.bump) < 400)
        #expect(crossingsPerSecond(.solved) > 2000)
    }
}
