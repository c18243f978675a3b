import Foundation

/// The settings of the real-clock tests, read from the environment, with the defaults that keep
/// the Concurrency suites within their share of `swift test`: about 30 s alone on 2 cores in a
/// debug build, up to 55 s beside the rest of the suite (which also leaves the stress test
/// fewer rounds: `.ci/run` runs the suite again on its own, longer, under the sanitizer).
///
/// | variable | meaning | default |
/// | --- | --- | --- |
/// | `ASYNCPAGING_STRESS_SECONDS` | how long each stress test (calls; features together) runs rounds | 6 |
/// | `ASYNCPAGING_STRESS_SEED` | replays the stress tests' seed (each prints the one it used) | random |
/// | `ASYNCPAGING_CANCEL_SECONDS` | how long each subscriber-cancellation race runs | 2 |
/// | `ASYNCPAGING_LIFETIME_CYCLES` | create/drop cycles of the lifetime-at-scale test | 30,000 (`scripts/soak.sh`: 100,000) |
/// | `ASYNCPAGING_STALL_SECONDS` | no progress for this long is a stall | 10 |
enum ConcurrencySettings {
    static func integer(_ name: String) -> Int? {
        ProcessInfo.processInfo.environment[name].flatMap { Int($0) }
    }

    static var stressDuration: Duration { .seconds(integer("ASYNCPAGING_STRESS_SECONDS") ?? 6) }
    static var cancellationRaceDuration: Duration { .seconds(integer("ASYNCPAGING_CANCEL_SECONDS") ?? 2) }
    static var lifetimeCycles: Int { integer("ASYNCPAGING_LIFETIME_CYCLES") ?? 30_000 }

    static var stressSeed: UInt64 {
        if let seed = ProcessInfo.processInfo.environment["ASYNCPAGING_STRESS_SEED"].flatMap({ UInt64($0) }) {
            return seed
        }
        return UInt64.random(in: 0..<1_000_000)
    }
}

/// Suspends, polling on the real clock every `interval`, until `condition` holds. Only for
/// real-clock tests, where a stall detector bounds the wait.
func pollUntil(every interval: Duration = .milliseconds(1), _ condition: () -> Bool) async {
    while !condition() {
        try? await ContinuousClock().sleep(for: interval)
    }
}
