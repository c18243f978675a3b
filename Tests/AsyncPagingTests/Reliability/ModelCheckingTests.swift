import AsyncPaging
import AsyncPagingTesting
import Foundation
import Testing

/// Model-based randomized testing: thousands of seeded runs of random operations (refresh,
/// refresh from a cursor, load more, load previous, retry of any side or none, clock moves,
/// subscribers, close) on a feed that may open in the middle of its data, against a scripted
/// source whose pages have both cursors and whose answers vary at both ends (pages, failures,
/// empty pages that claim more, the start and the end of the data, slow answers, hangs,
/// answers that ignore cancellation, duplicate ids, repeated cursors), each checked after
/// every step against ``ReferenceModel`` and the invariants: list and each version's change,
/// status, the state of each side, cursors, events, diagnostics, requests, outcomes, sleepers.
///
/// - `ASYNCPAGING_SEED=n` replays seed `n` alone and prints its trace.
/// - `ASYNCPAGING_SEQUENCES` (default 10,000) and `ASYNCPAGING_FIRST_SEED` (default 0) pick
///   the seeds; `scripts/soak.sh` uses them to run a million in chunks.
/// - `ASYNCPAGING_STEPS` (default 14) is the number of operations per run.
/// - `ASYNCPAGING_TRACE_SEEDS=1` prints each seed as it starts and ends: a seed that starts and
///   never ends is one on which the engine did less than the model expects and the run waits.
@Suite("Model-based randomized runs")
struct ModelCheckingTests {
    static let shards = 16

    static func environment(_ name: String) -> UInt64? {
        ProcessInfo.processInfo.environment[name].flatMap { UInt64($0) }
    }

    static var steps: Int { Int(environment("ASYNCPAGING_STEPS") ?? 14) }

    /// The seeds of shard `shard` of `shards`.
    static func seeds(ofShard shard: Int) -> [UInt64] {
        if let seed = environment("ASYNCPAGING_SEED") { return shard == 0 ? [seed] : [] }
        let first = environment("ASYNCPAGING_FIRST_SEED") ?? 0
        let count = environment("ASYNCPAGING_SEQUENCES") ?? 10_000
        return stride(from: UInt64(shard), to: count, by: shards).map { first + $0 }
    }

    @Test("random operation sequences agree with the reference model", arguments: 0..<shards)
    func randomSequences(shard: Int) async {
        let replaying = Self.environment("ASYNCPAGING_SEED") != nil
        let tracing = Self.environment("ASYNCPAGING_TRACE_SEEDS") == 1
        var failures = 0
        for seed in Self.seeds(ofShard: shard) {
            let run = ModelRun(seed: seed, verbose: replaying)
            if tracing { TraceOutput.write("seed \(seed) starts") }
            defer { if tracing { TraceOutput.write("seed \(seed) ends") } }
            do {
                try await run.run(steps: Self.steps)
            } catch {
                failures += 1
                let trace = run.trace.suffix(40).joined(separator: "\n")
                Issue.record("""
                    seed \(seed) failed: \(error)
                    replay: ASYNCPAGING_SEED=\(seed) swift test --filter ModelCheckingTests
                    \(trace)
                    """)
                if failures >= 3 { return }
            }
        }
    }
}
