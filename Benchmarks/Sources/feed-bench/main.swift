import CHeapStats
import FeedBenchKit
import Glibc

// feed-bench: every scenario, every contender, side by side in one process.
//
//   feed-bench time     wall-clock figures          (run.sh: plain)
//   feed-bench memory   heap and RSS figures        (run.sh: MALLOC_ARENA_MAX=1)
//   feed-bench mallocs  allocation counts           (run.sh: LD_PRELOAD=malloc-interposer)
//   feed-bench table TIME MEMORY MALLOCS            the markdown table from the three passes
//
// Each pass prints `key<TAB>value` lines. Contenders take turns within every round, so each
// ratio compares figures taken side by side.

let arguments = CommandLine.arguments.dropFirst()
let quick = arguments.contains("--quick")
let pass = arguments.first ?? "time"

// MARK: Main

if pass == "profile" {
    // feed-bench profile CONTENDER PAGES: appends PAGES pages to a feed of 1k, for a profiler.
    let rest = Array(arguments.dropFirst())
    let contender = rest.first.flatMap(Contender.init(rawValue:)) ?? .engine
    let pages = rest.dropFirst().first.flatMap { Int($0) } ?? 10_000
    await Task.detached {
        let harness = await makeAppendHarness(contender, firstPage: makeItems(1_000, of: FeedItem.self))
        for _ in 0..<10 { await harness.appendPage() }
        heap_stats_start_counting() // a marker for a debugger: the pages after it are the ones
        for _ in 0..<pages { await harness.appendPage() }
        print(heap_stats_stop_counting())
    }.value
} else if pass == "table" {
    printTable(files: Array(arguments.dropFirst().filter { !$0.hasPrefix("--") }))
} else {
    if pass == "mallocs" && heap_stats_can_count() == 0 {
        print("# mallocs pass: the malloc-interposer library is not preloaded; counts are -1")
    }
    let runner = BenchRunner(pass: pass, quick: quick)
    await Task.detached { await runner.run() }.value
}
