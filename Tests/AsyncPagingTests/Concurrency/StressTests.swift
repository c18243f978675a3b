import AsyncPaging
import Testing

extension Concurrency {
    /// The stress test of issue 11: real clock, real cancellation, many tasks at once. Rounds run
    /// for `ASYNCPAGING_STRESS_SECONDS` (default 6); each is a fresh controller with a random
    /// configuration, 8–16 tasks calling refresh, load more, load previous, retry (of any side or
    /// none), send and close, and subscribers
    /// that join, read, and leave by task cancellation, by `break`, or by dropping an unread stream,
    /// against a source with 0–2 ms latencies, failures, empty pages, the end and the start of the data and
    /// answers that ignore cancellation (``StressRound`` has the checks).
    ///
    /// A second test, as long, mixes the features of issue 22 instead: a bound, head merges,
    /// both ends, edits and exports during loads, restores (``FeatureMixRound``).
    ///
    /// The seed is printed; `ASYNCPAGING_STRESS_SEED=n` runs the same random choices again (the
    /// interleaving is the machine's). `scripts/soak.sh` runs both for long.
    @Suite("Stress: many tasks on the real clock", .serialized)
    struct StressTests {
        @Test("calls, subscribers and cancellations on the real clock keep every invariant")
        func stress() async {
            await Self.runRounds(named: "stress") { round, seed, tally, detector in
                await StressRound(number: round, seed: seed, tally: tally, detector: detector).run()
            }
        }

        /// The features of issue 22 together on the real clock: a bound, head merges, loads at
        /// both ends, edits and exports during loads, restores, readers leaving by
        /// cancellation (``FeatureMixRound`` has the checks). As long as the stress test.
        @Test("the bound, head merges, both ends, edits and exports together on the real clock keep every invariant")
        func featuresTogether() async {
            await Self.runRounds(named: "features together") { round, seed, tally, detector in
                await FeatureMixRound(number: round, seed: seed, tally: tally, detector: detector).run()
            }
        }

        /// Runs rounds for `ASYNCPAGING_STRESS_SECONDS` under a stall detector; records the
        /// first round that fails.
        static func runRounds(
            named name: String, _ round: @escaping @Sendable (Int, UInt64, StressTally, StallDetector) async -> [String]
        ) async {
            let seed = ConcurrencySettings.stressSeed
            let duration = ConcurrencySettings.stressDuration
            print("\(name) seed: \(seed) (replay: ASYNCPAGING_STRESS_SEED=\(seed) swift test --filter StressTests)")
            let tally = StressTally()
            let detector = StallDetector(name: "\(name) (seed \(seed))")
            detector.details { "so far: \(tally.summary)" }
            let started = ContinuousClock.now
            let failure = await detector.watch { () -> [String]? in
                var number = 0
                while started.duration(to: .now) < duration {
                    let problems = await round(number, seed &+ UInt64(number) &* 0x9E37_79B9, tally, detector)
                    if !problems.isEmpty { return ["round \(number) failed:"] + problems }
                    number += 1
                }
                return nil
            }
            let elapsed = started.duration(to: .now)
            print("\(name): \(tally.summary) in \(elapsed)")
            if case .some(.some(let problems)) = failure {
                Issue.record("""
                    \(name) seed \(seed): \(problems.prefix(30).joined(separator: "\n"))
                    replay: ASYNCPAGING_STRESS_SEED=\(seed) swift test --filter StressTests
                    """)
            }
        }
    }
}
