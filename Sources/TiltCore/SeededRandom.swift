// SPDX-License-Identifier: GPL-3.0-or-later
/// SplitMix64: a tiny, well-known generator, spelled out here so that a seed gives
/// the same game on every platform and toolchain (and in the demo-trace script).
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in 0..<bound, by rejection (no modulo bias).
    public mutating func below(_ bound: UInt64) -> UInt64 {
        precondition(bound > 0)
        let threshold = (0 &- bound) % bound
        while true {
            let value = next()
            if value >= threshold { return value % bound }
        }
    }
}
