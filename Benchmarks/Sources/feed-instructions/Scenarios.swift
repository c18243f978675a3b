import AsyncPaging
import AsyncPagingUI
import CCallgrind
import FeedBenchKit

/// One figure of the suite: the instructions of `iterations` runs of one operation, counted by
/// callgrind between its start and stop requests (instructions.sh divides by `iterations`).
struct InstructionScenario: Sendable {
    let name: String
    let iterations: Int
    /// What one iteration is, for the table.
    let summary: String
    let run: @Sendable (_ iterations: Int) async -> Void
}

/// Pages appended before counting starts, so that first-use costs are not counted.
let warmupPages = 20

/// Counts only `body`: instrumentation is switched on around it and the counters zeroed.
func measured(_ body: () async -> Void) async {
    callgrind_start_instrumentation()
    callgrind_zero_stats()
    await body()
    callgrind_stop_instrumentation()
}

@MainActor
func measuredOnMain(_ body: @MainActor () async -> Void) async {
    callgrind_start_instrumentation()
    callgrind_zero_stats()
    await body()
    callgrind_stop_instrumentation()
}

func appendPages(_ harness: any AppendHarness, warmup: Int = warmupPages, pages: Int) async {
    for _ in 0..<warmup { await harness.appendPage() }
    await measured {
        for _ in 0..<pages { await harness.appendPage() }
    }
}

/// Pages of 20 `Identifiable` posts appended by the engine with one subscriber, from a feed of
/// `firstPage` items.
func identifiedPages(
    firstPage: Int = 1_000, warmup: Int = warmupPages, pages: Int,
    configuration: FeedConfiguration = .default, suspends: Bool = false
) async {
    let source = PrebuiltSource<IdentifiedPost>(
        firstPageCount: firstPage, pageCount: warmup + pages, suspends: suspends)
    let harness = await IdentifiedEngineHarness(
        source: source, firstPageCount: firstPage, configuration: configuration)
    await appendPages(harness, warmup: warmup, pages: pages)
}

let allScenarios: [InstructionScenario] = {
    var scenarios: [InstructionScenario] = [
        InstructionScenario(
            name: "page.posts-ids.engine", iterations: 200,
            summary: "page of 20 Identifiable posts, default configuration (duplicates dropped), 1 subscriber, at 1k"
        ) { await identifiedPages(pages: $0) },
        InstructionScenario(
            name: "page.posts-keep.engine", iterations: 200,
            summary: "the same with duplicates: .keep (no ids kept)"
        ) { await identifiedPages(pages: $0, configuration: keepingDuplicates) },
        InstructionScenario(
            name: "page.posts-ids.engine.suspending", iterations: 200,
            summary: "page of 20 Identifiable posts from a source that suspends once per page"
        ) { await identifiedPages(pages: $0, suspends: true) },
        InstructionScenario(
            name: "page.posts-ids.engine.at-90k", iterations: 1,
            summary: "the one page that appends items 90,000..<90,020 (no id table growth)"
        ) { await identifiedPages(firstPage: 89_960, warmup: 2, pages: $0) },
        InstructionScenario(
            name: "page.posts-ids.engine.growing-74k", iterations: 1,
            summary: "the one page that appends items 73,720..<73,740, during which the id table grows (98,304 buckets, 3/4 full)"
        ) { await identifiedPages(firstPage: 73_680, warmup: 2, pages: $0) },
        InstructionScenario(
            name: "prepend.two-word.engine", iterations: 200,
            summary: "loadPrevious(): page of 20 two-word items prepended to a feed opened at 1k, 1 subscriber"
        ) { pages in await prependPages(firstPage: 1_000, pages: pages) },
        InstructionScenario(
            name: "prepend.two-word.engine.1m", iterations: 200,
            summary: "the same prepended to a feed opened at 1,000,000 items (prepending never shifts the store)"
        ) { pages in await prependPages(firstPage: 1_000_000, pages: pages) },
        InstructionScenario(
            name: "page.two-word.engine.100k", iterations: 200,
            summary: "page of 20 two-word items at 100k (no ids), 1 subscriber"
        ) { pages in
            await appendPages(await makeAppendHarness(.engine, firstPage: makeItems(100_000, of: FeedItem.self)), pages: pages)
        },
        InstructionScenario(
            name: "page.two-word.engine.100k.task-per-page", iterations: 200,
            summary: "the same, each page from a task of its own (as a screen's button or scroll handler calls it)"
        ) { pages in
            // Unchecked: each page's task is awaited before the next starts, so the harness is
            // never used from two tasks at once.
            nonisolated(unsafe) let harness = await makeAppendHarness(.engine, firstPage: makeItems(100_000, of: FeedItem.self))
            for _ in 0..<warmupPages { await harness.appendPage() }
            await measured {
                for _ in 0..<pages { await Task { await harness.appendPage() }.value }
            }
        },
        InstructionScenario(
            name: "page.two-word.seed-port.100k", iterations: 10,
            summary: "the seed port at 100k (rebuilds the list each page)"
        ) { pages in
            await appendPages(
                await makeAppendHarness(.seedPort, firstPage: makeItems(100_000, of: FeedItem.self)), warmup: 2, pages: pages)
        },
        InstructionScenario(
            name: "page.two-word.append-port.100k", iterations: 200,
            summary: "the in-place append port at 100k"
        ) { pages in
            await appendPages(await makeAppendHarness(.appendPort, firstPage: makeItems(100_000, of: FeedItem.self)), pages: pages)
        },
        InstructionScenario(
            name: "model.page.posts-ids", iterations: 200,
            summary: "FeedModel.loadMore(): one page of 20 Identifiable posts through the UI model"
        ) { pages in await modelPages(pages) },
        InstructionScenario(
            name: "controller.page.posts-ids.from-main", iterations: 200,
            summary: "controller.loadMore() from the main actor, as the model calls it (no model)"
        ) { pages in await controllerPagesFromMain(pages) },
        InstructionScenario(
            name: "model.row-appeared", iterations: 2_000,
            summary: "FeedModel.rowAppeared(item) for a row not near the end (searches the prefetch window)"
        ) { calls in await rowAppeared(calls) },
        InstructionScenario(
            name: "create-idle.engine", iterations: 100,
            summary: "create an idle controller of two-word items (no initial load) and release it"
        ) { count in
            await measured {
                for _ in 0..<count { withExtendedLifetime(makeIdleFeeds(.engine, count: 1)) {} }
            }
        },
        InstructionScenario(
            name: "first-list.posts-ids", iterations: 50,
            summary: "create a controller of Identifiable posts → first non-empty snapshot"
        ) { count in await firstList(count) },
        InstructionScenario(
            name: "first-list.posts-ids.updates", iterations: 50,
            summary: "the same, waiting on controller.updates instead of a snapshot stream"
        ) { count in await firstListFromUpdates(count) },
        InstructionScenario(
            name: "cancel.engine", iterations: 50,
            summary: "a refresh cancelling an in-flight load-more, to its end event at a subscriber"
        ) { count in
            let harness = await makeCancelHarness(.engine)
            await measured {
                for _ in 0..<count {
                    await harness.startLoadMore()
                    _ = await harness.refreshUntilLoadMoreEnds()
                    await harness.settle()
                }
            }
        },
    ]
    for contender in Contender.allCases {
        scenarios.append(InstructionScenario(
            name: "page.two-word.\(contender)", iterations: 200,
            summary: "page of 20 two-word items at 1k (no ids), 1 subscriber"
        ) { pages in
            await appendPages(await makeAppendHarness(contender, firstPage: makeItems(1_000, of: FeedItem.self)), pages: pages)
        })
    }
    // The ports with the headline's posts (they keep duplicates: no ids); the engine's row is
    // page.posts-ids.engine, and page.posts.engine is the engine without ids.
    for contender in Contender.allCases {
        scenarios.append(InstructionScenario(
            name: "page.posts.\(contender)", iterations: 200,
            summary: "page of 20 posts at 1k, no duplicate filter, 1 subscriber"
        ) { pages in
            await appendPages(await makeAppendHarness(contender, firstPage: makeItems(1_000, of: IdentifiedPost.self)), pages: pages)
        })
    }
    scenarios += boundedScenarios
    scenarios += editScenarios
    scenarios += sessionScenarios
    scenarios += sequenceScenarios
    scenarios += restoreScenarios
    scenarios += identityScenarios
    scenarios += transformScenarios
    return scenarios
}()

// MARK: The UI model

@MainActor
func modelPages(_ pages: Int) async {
    let source = PrebuiltSource<IdentifiedPost>(firstPageCount: 1_000, pageCount: warmupPages + pages)
    let model = FeedModel(controller: FeedController(source: source, configuration: withoutInitialLoad))
    await model.refresh()
    for _ in 0..<warmupPages { await model.loadMore() }
    await measuredOnMain {
        for _ in 0..<pages { await model.loadMore() }
    }
    precondition(model.items.count == 1_000 + (warmupPages + pages) * benchPageSize)
}

@MainActor
func controllerPagesFromMain(_ pages: Int) async {
    let source = PrebuiltSource<IdentifiedPost>(firstPageCount: 1_000, pageCount: warmupPages + pages)
    let controller = FeedController(source: source, configuration: withoutInitialLoad)
    await controller.refresh()
    for _ in 0..<warmupPages { await controller.loadMore() }
    await measuredOnMain {
        for _ in 0..<pages { await controller.loadMore() }
    }
    precondition(controller.currentSnapshot.count == 1_000 + (warmupPages + pages) * benchPageSize)
}

@MainActor
func rowAppeared(_ calls: Int) async {
    let source = PrebuiltSource<IdentifiedPost>(firstPageCount: 1_000, pageCount: 1)
    let model = FeedModel(controller: FeedController(source: source, configuration: withoutInitialLoad))
    await model.refresh()
    let item = model.items[500]
    var loads = 0
    await measuredOnMain {
        for _ in 0..<calls where model.rowAppeared(item) == .loadMore { loads += 1 }
    }
    precondition(loads == 0)
}

func firstList(_ count: Int) async {
    let source = PrebuiltSource<IdentifiedPost>(firstPageCount: benchPageSize, pageCount: 1)
    var kept: [FeedController<IdentifiedPost, Int>] = []
    kept.reserveCapacity(count)
    await measured {
        for _ in 0..<count {
            let controller = FeedController<IdentifiedPost, Int>(source: source)
            for await snapshot in controller.snapshots where !snapshot.isEmpty { break }
            kept.append(controller)
        }
    }
    precondition(kept.allSatisfy { $0.currentSnapshot.count == benchPageSize })
}

func firstListFromUpdates(_ count: Int) async {
    let source = PrebuiltSource<IdentifiedPost>(firstPageCount: benchPageSize, pageCount: 1)
    var kept: [FeedController<IdentifiedPost, Int>] = []
    kept.reserveCapacity(count)
    await measured {
        for _ in 0..<count {
            let controller = FeedController<IdentifiedPost, Int>(source: source)
            for await update in controller.updates where !update.snapshot.isEmpty { break }
            kept.append(controller)
        }
    }
    precondition(kept.allSatisfy { $0.currentSnapshot.count == benchPageSize })
}
