import AsyncPaging
import AsyncPagingTesting
import Foundation
import Testing

/// Model-based randomized testing: thousands of seeded runs of random operations (refresh,
/// refresh from a cursor, load more, load previous, scrolls of several loads at one end, retry
/// of any side or none, clock moves, subscribers, close) on a feed that may open in the middle
/// of its data, with or without a memory bound (`maximumItems`) and in either refresh mode
/// (`mergeAtHead` too), against a scripted source whose pages have both cursors (or, in some
/// runs, no `previous`) and whose answers vary at both ends (pages, new posts at the head,
/// failures, empty pages that claim more, the start and the end of the data, slow answers,
/// hangs, answers that ignore cancellation, duplicate ids, repeated cursors), each checked
/// after every step against ``ReferenceModel`` and the invariants: list and each version's
/// change, `change(since:)` between every two versions a subscriber saw, status, the state of
/// each side, cursors, events, diagnostics (the landing ones in order), requests, outcomes,
/// sleepers.
///
/// Two tests: many short runs, and fewer long ones (long runs reach states short ones miss:
/// deep scrolls that drop and reload pages at both ends, and engine bugs that 14 steps never
/// found and 40 did).
///
/// A third test mixes the features (bound, head merges, both ends, edits, export → restore)
/// in runs of 240 operations whose generator makes "merge, then many loads, then export" a
/// common order; see ``ReferenceModel`` for the two bugs of such mixes the model once agreed
/// with, and why.
///
/// - `ASYNCPAGING_SEED=n` replays seed `n` alone (in the short test, with `ASYNCPAGING_STEPS`
///   steps: the failure message names them) and prints its trace.
/// - `ASYNCPAGING_SEQUENCES` (default 3,000) and `ASYNCPAGING_FIRST_SEED` (default 0) pick the
///   seeds of the short runs, `ASYNCPAGING_STEPS` (default 14) their length; `scripts/soak.sh`
///   uses them to run a million in chunks, at several lengths.
/// - `ASYNCPAGING_LONG_SEQUENCES` (default 200) runs of `ASYNCPAGING_LONG_STEPS` (default 40)
///   operations, from seed 1,000,000 on.
/// - `ASYNCPAGING_MIX_SEQUENCES` (default 32) runs of `ASYNCPAGING_MIX_STEPS` (default 240)
///   operations that mix the features, from seed `ASYNCPAGING_MIX_FIRST_SEED` (default
///   2,000,000); `ASYNCPAGING_MIX_SEED=n` replays one and prints its trace.
/// - `ASYNCPAGING_COVERAGE=1` prints per shard how many runs exercised the bound (drops at
///   each end, pages kept over it, loads it cancelled, ids loaded again) and the head merge.
/// - `ASYNCPAGING_TRACE_SEEDS=1` prints each seed as it starts and ends: a seed that starts and
///   never ends is one on which the engine did less than the model expects and the run waits.
@Suite("Model-based randomized runs")
struct ModelCheckingTests {
    static let shards = 16
    static let firstLongSeed: UInt64 = 1_000_000
    static let firstMixSeed: UInt64 = 2_000_000

    static func environment(_ name: String) -> UInt64? {
        ProcessInfo.processInfo.environment[name].flatMap { UInt64($0) }
    }

    static var replaying: Bool { environment("ASYNCPAGING_SEED") != nil || environment("ASYNCPAGING_MIX_SEED") != nil }

    /// The seeds of shard `shard` of `shards`, out of `count` from `first`.
    static func seeds(ofShard shard: Int, first: UInt64, count: UInt64) -> [UInt64] {
        stride(from: UInt64(shard), to: count, by: shards).map { first + $0 }
    }

    @Test("random operation sequences agree with the reference model", arguments: 0..<shards)
    func randomSequences(shard: Int) async {
        let steps = Int(Self.environment("ASYNCPAGING_STEPS") ?? 14)
        let seeds = if let seed = Self.environment("ASYNCPAGING_SEED") {
            shard == 0 ? [seed] : []
        } else if Self.replaying {
            [UInt64]()
        } else {
            Self.seeds(
                ofShard: shard, first: Self.environment("ASYNCPAGING_FIRST_SEED") ?? 0,
                count: Self.environment("ASYNCPAGING_SEQUENCES") ?? 3_000)
        }
        await Self.run(seeds, steps: steps, shard: shard)
    }

    @Test("long random operation sequences agree with the reference model", arguments: 0..<shards)
    func longSequences(shard: Int) async {
        guard !Self.replaying else { return }
        let steps = Int(Self.environment("ASYNCPAGING_LONG_STEPS") ?? 40)
        let seeds = Self.seeds(
            ofShard: shard, first: Self.firstLongSeed, count: Self.environment("ASYNCPAGING_LONG_SEQUENCES") ?? 200)
        await Self.run(seeds, steps: steps, shard: shard)
    }

    /// Runs that mix the features (``ModelOperation/featureMixBatch(using:)``): bounded feeds
    /// that merge at the head, scroll far at both ends, edit and are exported and restored,
    /// for hundreds of operations each.
    @Test("features together: merges, both ends, the bound, edits, export and restore", arguments: 0..<shards)
    func featuresTogether(shard: Int) async {
        let steps = Int(Self.environment("ASYNCPAGING_MIX_STEPS") ?? 240)
        let seeds = if let seed = Self.environment("ASYNCPAGING_MIX_SEED") {
            shard == 0 ? [seed] : []
        } else if Self.replaying {
            [UInt64]()
        } else {
            Self.seeds(
                ofShard: shard, first: Self.environment("ASYNCPAGING_MIX_FIRST_SEED") ?? Self.firstMixSeed,
                count: Self.environment("ASYNCPAGING_MIX_SEQUENCES") ?? 32)
        }
        await Self.run(seeds, steps: steps, shard: shard, mixesFeatures: true)
    }

    /// Runs `seeds` with `steps` operations each; records the first three failures.
    static func run(_ seeds: [UInt64], steps: Int, shard: Int, mixesFeatures: Bool = false) async {
        let tracing = environment("ASYNCPAGING_TRACE_SEEDS") == 1
        let measuring = environment("ASYNCPAGING_COVERAGE") == 1
        var coverage: [String: Int] = [:]
        defer {
            if measuring && !seeds.isEmpty {
                let counts = coverage.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
                TraceOutput.write("shard \(shard), \(steps) steps, coverage: \(counts.joined(separator: ", "))")
            }
        }
        var failures = 0
        for seed in seeds {
            let run = ModelRun(seed: seed, verbose: replaying || environment("ASYNCPAGING_MIX_SEED") != nil, mixesFeatures: mixesFeatures)
            if tracing { TraceOutput.write("seed \(seed) starts") }
            defer { if tracing { TraceOutput.write("seed \(seed) ends") } }
            do {
                try await run.run(steps: steps)
                if measuring { coverage.merge(run.coverage, uniquingKeysWith: +) }
            } catch {
                failures += 1
                let trace = run.trace.suffix(40).joined(separator: "\n")
                Issue.record("""
                    seed \(seed) failed at step \(run.stepsDone) of \(steps): \(error)
                    replay: \(mixesFeatures ? "ASYNCPAGING_MIX_SEED" : "ASYNCPAGING_SEED")=\(seed) \(mixesFeatures ? "ASYNCPAGING_MIX_STEPS" : "ASYNCPAGING_STEPS")=\(steps) swift test --filter ModelCheckingTests
                    \(trace)
                    """)
                if failures >= 3 { return }
            }
        }
    }
}
