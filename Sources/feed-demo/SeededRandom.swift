/// SplitMix64: a tiny, fast generator whose whole output follows from its seed.
///
/// The demo uses it so that items, latencies and failures are the same on every run with the
/// same `--seed`, without a dependency and without `Foundation`.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    /// A generator seeded from several values at once, e.g. `(seed, edition, offset)`.
    init(mixing values: UInt64...) {
        var state: UInt64 = 0x243F_6A88_85A3_08D3
        for value in values {
            state = SeededRandom.scramble(state ^ value)
        }
        self.state = state
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return SeededRandom.scramble(state)
    }

    /// A number in `0..<1` drawn from the generator.
    mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    private static func scramble(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
