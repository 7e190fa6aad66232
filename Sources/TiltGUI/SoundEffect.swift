// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#endif

/// The board's sounds (docs/gui.md, "Sound"), made by the program itself: no sound
/// files to ship, find or license, and every sample is a function of the effect and
/// the rate, so a test can check them and the end-to-end test can recognise them in
/// what the sound card was given.
public enum SoundEffect: Equatable, Hashable, Sendable, CaseIterable {
    /// A tile slid: a soft, short brush.
    case slide
    /// Nothing could move: a low thud.
    case bump
    /// The board is solved: three rising notes.
    case solved

    /// The rate asked of the sound card; the samples are made for whatever it gives.
    public static let preferredRate = 48_000

    /// Seconds.
    public var duration: Double {
        switch self {
        case .slide: 0.075
        case .bump: 0.1
        case .solved: 0.6
        }
    }

    /// The loudest sample, as a share of full scale: well under it, so nothing clips
    /// when the system mixes the board with other sounds, and the slide, heard most,
    /// is the quietest.
    public var peak: Double {
        switch self {
        case .slide: 0.3
        case .bump: 0.55
        case .solved: 0.4
        }
    }

    /// Mono 16-bit samples at `rate` frames a second.
    public func samples(rate: Int) -> [Int16] {
        let count = max(1, Int((duration * Double(rate)).rounded()))
        var wave: [Double]
        switch self {
        case .slide: wave = Self.slideWave(count: count, rate: Double(rate))
        case .bump: wave = Self.bumpWave(count: count, rate: Double(rate))
        case .solved: wave = Self.chimeWave(count: count, rate: Double(rate))
        }
        Self.fadeEnds(&wave, rate: Double(rate))
        let loudest = wave.reduce(0) { max($0, abs($1)) }
        let scale = loudest > 0 ? peak * Double(Int16.max) / loudest : 0
        return wave.map { Int16(($0 * scale).rounded()) }
    }

    /// Noise through a low-pass filter, with a falling tone under it: a brush rather
    /// than a hiss. The noise comes from a fixed seed, so the effect is always the same.
    private static func slideWave(count: Int, rate: Double) -> [Double] {
        var noise: UInt32 = 0x9E37_79B9
        var filtered = 0.0
        var phase = 0.0
        return (0..<count).map { index in
            let t = Double(index) / Double(count)
            // xorshift32: cheap, and the same on every machine.
            noise ^= noise << 13
            noise ^= noise >> 17
            noise ^= noise << 5
            let white = Double(noise) / Double(UInt32.max) * 2 - 1
            filtered += 0.12 * (white - filtered)
            phase += 2 * Double.pi * (700 - 300 * t) / rate
            let envelope = min(1, t * 12) * (1 - t) * (1 - t)
            return envelope * (filtered * 2.5 + 0.35 * Self.sine(phase))
        }
    }

    /// A sine falling from 150 to 70 Hz that dies away: felt more than heard, like a
    /// tile knocking on the board's frame.
    private static func bumpWave(count: Int, rate: Double) -> [Double] {
        var phase = 0.0
        return (0..<count).map { index in
            let t = Double(index) / Double(count)
            phase += 2 * Double.pi * (150 - 80 * t) / rate
            let envelope = min(1, t * 30) * Self.decay(t * 4)
            return envelope * (Self.sine(phase) + 0.2 * Self.sine(2 * phase))
        }
    }

    /// C6, E6 and G6, 0.12 s apart, each struck and ringing down with a quiet octave
    /// above it: a chime that rises.
    private static func chimeWave(count: Int, rate: Double) -> [Double] {
        let notes: [(frequency: Double, start: Double)] = [(1046.5, 0), (1318.5, 0.12), (1568.0, 0.24)]
        return (0..<count).map { index in
            let seconds = Double(index) / rate
            var sum = 0.0
            for note in notes where seconds >= note.start {
                let age = seconds - note.start
                let phase = 2 * Double.pi * note.frequency * age
                let strike = min(1, age / 0.004)
                sum += strike * Self.decay(age * 7) * (Self.sine(phase) + 0.25 * Self.sine(2 * phase))
            }
            return sum
        }
    }

    /// A few milliseconds of fade at both ends: a sound that starts or stops away from
    /// zero clicks.
    private static func fadeEnds(_ wave: inout [Double], rate: Double) {
        let length = min(wave.count / 2, Int(0.004 * rate))
        guard length > 0 else { return }
        for index in 0..<length {
            let gain = Double(index) / Double(length)
            wave[index] *= gain
            wave[wave.count - 1 - index] *= gain
        }
    }

    private static func sine(_ x: Double) -> Double { sin(x) }

    /// e^-x, for the envelopes.
    private static func decay(_ x: Double) -> Double { exp(-x) }
}
