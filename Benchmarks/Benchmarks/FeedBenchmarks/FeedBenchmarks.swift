import Benchmark
import FeedBenchKit
import Glibc

// The package-benchmark suite. Every benchmark measures one unit of work per iteration, so
// that `mallocCountTotal` reads as allocations per page (or per cancel, per feed).
//
// FEED_BENCH_SMOKE=1 (Benchmarks/smoke.sh) measures only allocation counts, in few
// iterations: those are what the committed Thresholds/ check. Wall-clock time is never
// checked; the full run (run.sh) reports it. Names use only letters, digits, `_` and `-`:
// package-benchmark writes threshold files under sanitized names but reads them by the raw one.

let smoke = getenv("FEED_BENCH_SMOKE") != nil

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: smoke ? [.mallocCountTotal] : [.wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: smoke ? 2 : 5,
        maxDuration: smoke ? .milliseconds(300) : .seconds(1),
        maxIterations: smoke ? 40 : 2_000,
        thresholds: [
            // Allocation counts are exact, but a few benchmarks cross a chunk or buffer
            // boundary now and then: allow one allocation of slack at p90.
            .mallocCountTotal: BenchmarkThresholds(absolute: [.p90: 1]),
        ]
    )

    // Scenario 1: one page appended to a feed of 1k, 100k and 1M items, one subscriber.
    for length in [1_000, 100_000, 1_000_000] {
        let firstPage = makeItems(length, of: FeedItem.self)
        // Each feed takes 10% more items (at most 500 pages) before it is made anew, so
        // that the length stays what the name says.
        let pagesPerFeed = max(5, min(length / 200, 500))
        for contender in Contender.allCases {
            let state = AppendState()
            Benchmark("append_page_\(length / 1000)k_\(contender)") { benchmark in
                if state.harness == nil || state.pages == pagesPerFeed {
                    state.harness = nil
                    state.harness = await makeAppendHarness(contender, firstPage: firstPage)
                    await state.harness!.appendPage() // the first page after setup grows buffers
                    state.pages = 0
                }
                let harness = state.harness!
                benchmark.startMeasurement()
                await harness.appendPage()
                benchmark.stopMeasurement()
                state.pages += 1
            } teardown: {
                state.harness = nil
            }
        }
    }

    // Scenario 2: 100 pages delivered end to end, to 1 and to 100 subscribers. Scheduling
    // decides how often a subscriber waits, so these allocation counts are not gated.
    for subscribers in [1, 100] {
        for contender in Contender.allCases where contender != .floor || subscribers == 1 {
            Benchmark(
                "deliver_100_pages_to_\(subscribers)_\(contender)",
                configuration: .init(
                    metrics: smoke ? [] : [.wallClock, .mallocCountTotal], maxIterations: 200,
                    skip: smoke)
            ) { _ in
                blackHole(await runDelivery(contender, of: FeedItem.self, pages: 100, subscribers: subscribers))
            }
        }
    }

    // Scenario 3: a refresh cancelling an in-flight load-more, until the end event arrives.
    for contender in Contender.allCases {
        let state = CancelState()
        Benchmark("refresh_cancels_load-more_\(contender)") { benchmark in
            if state.harness == nil { state.harness = await makeCancelHarness(contender) }
            let harness = state.harness!
            await harness.startLoadMore()
            benchmark.startMeasurement()
            blackHole(await harness.refreshUntilLoadMoreEnds())
            benchmark.stopMeasurement()
            await harness.settle()
        } teardown: {
            state.harness = nil
        }
    }

    // Scenario 4: one idle feed created (no load, no subscriber), and 100 feeds each with
    // their initial load and 5 more pages, run concurrently (the table runs 10,000).
    for contender in Contender.allCases {
        Benchmark("create_idle_feed_\(contender)") { _ in
            blackHole(makeIdleFeeds(contender, count: 1))
        }
        Benchmark(
            "100_feeds_6_pages_each_\(contender)",
            configuration: .init(
                metrics: smoke ? [] : [.wallClock, .mallocCountTotal, .peakMemoryResident],
                maxIterations: 100, skip: smoke)
        ) { _ in
            blackHole(await runManyFeeds(contender, count: 100, morePages: 5))
        }
    }
}

/// What an append benchmark keeps between iterations.
final class AppendState {
    var harness: (any AppendHarness)?
    var pages = 0
}

/// What a cancel benchmark keeps between iterations.
final class CancelState {
    var harness: (any CancelHarness)?
}
