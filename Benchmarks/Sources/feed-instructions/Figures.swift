import AsyncPaging
import CHeapStats
import FeedBenchKit

// The figures that are not instruction counts: heap bytes (glibc's bytes in use; run with
// MALLOC_ARENA_MAX=1 so that every thread's allocations are seen) and the wall-clock growth
// figure (a ratio of pages of one run).

func emit(_ key: String, _ value: Double) {
    print("\(key)\t\(value)")
}

func heapBytes() -> Double { Double(heap_stats_bytes_in_use()) }

/// Heap bytes: idle controllers, 100,000 controllers with a page of posts with ids, and a
/// feed of a million items with and without ids against a plain array.
func bytesFigures(quick: Bool) async {
    let idleCount = 1_000
    var before = heapBytes()
    var idle = makeIdleFeeds(.engine, count: idleCount)
    emit("idle-controller.bytes", (heapBytes() - before) / Double(idleCount))
    idle = []

    let postSource = PrebuiltSource<IdentifiedPost>(firstPageCount: benchPageSize, pageCount: 1)
    before = heapBytes()
    var idlePosts: [FeedController<IdentifiedPost, Int>] = []
    idlePosts.reserveCapacity(idleCount)
    for _ in 0..<idleCount { idlePosts.append(FeedController(source: postSource, configuration: withoutInitialLoad)) }
    emit("idle-controller.posts-ids.bytes", (heapBytes() - before) / Double(idleCount))
    idlePosts = []
    withExtendedLifetime(idle) {}

    let controllerCount = quick ? 10_000 : 100_000
    var feeds: [FeedController<IdentifiedPost, Int>] = []
    feeds.reserveCapacity(controllerCount)
    before = heapBytes()
    for _ in 0..<controllerCount {
        let controller = FeedController(source: postSource, configuration: withoutInitialLoad)
        await controller.refresh()
        feeds.append(controller)
    }
    // The array that keeps them is the harness's, not theirs.
    emit("controllers-100k.posts-ids.bytes_each", (heapBytes() - before) / Double(controllerCount) - 8)
    precondition(feeds.allSatisfy { $0.currentSnapshot.count == benchPageSize })
    feeds = []

    let itemCount = quick ? 100_000 : 1_000_000
    before = heapBytes()
    var array: [FeedItem]? = makeItems(itemCount, of: FeedItem.self)
    let arrayBytes = heapBytes() - before
    array = nil
    emit("feed-1m.array.bytes", arrayBytes)
    let source = PrebuiltSource<FeedItem>(firstPageCount: benchPageSize, pageCount: itemCount / benchPageSize - 1)
    for withIDs in [false, true] {
        before = heapBytes()
        let controller = withIDs
            ? FeedController(source: source, configuration: withoutInitialLoad, id: { $0.id })
            : FeedController(source: source, configuration: withoutInitialLoad)
        await controller.refresh()
        for _ in 1..<itemCount / benchPageSize { await controller.loadMore() }
        precondition(controller.currentSnapshot.count == itemCount)
        let key = withIDs ? "feed-1m.engine-ids" : "feed-1m.engine"
        emit("\(key).bytes", heapBytes() - before)
        emit("\(key).ratio", (heapBytes() - before) / arrayBytes)
        withExtendedLifetime(controller) {}
    }
    withExtendedLifetime(array) {}
    await boundedBytesFigures(quick: quick)
    await sequenceBytesFigures(quick: quick)
    await restoreBytesFigures(quick: quick)
    await tenMillionBytesFigures(quick: quick)
    await registryBytesFigures(quick: quick)
}

/// Heap bytes a FeedSessionRegistry adds per session (issue 24): 10,000 idle sessions under
/// string keys of a service's kind ("session-1234": inline strings, no heap of their own),
/// minus the same number of the same controllers held in an array.
func registryBytesFigures(quick: Bool) async {
    let count = quick ? 1_000 : 10_000
    let source = ImmediateSource<FeedItem>(firstPage: makeItems(benchPageSize))
    let configuration = engineConfiguration(loadsInitialPage: false)
    var before = heapBytes()
    var controllers: [EngineFeed<FeedItem>] = []
    controllers.reserveCapacity(count)
    for _ in 0..<count { controllers.append(EngineFeed(source: source, configuration: configuration)) }
    let heldInArray = heapBytes() - before - Double(count * 8)
    controllers = []
    before = heapBytes()
    let registry = try! FeedSessionRegistry<String, FeedItem, Int>(idleTimeout: .seconds(300), maximumCount: count) { _ in
        EngineFeed(source: source, configuration: configuration)
    }
    for index in 0..<count { _ = await registry.controller(for: "session-\(index)") }
    emit("session-registry.per-session.bytes", ((heapBytes() - before) - heldInArray) / Double(count))
    await registry.closeAll()
    withExtendedLifetime(controllers) {}
}

/// Wall clock: every page of a feed grown from 20 to a million two-word items by pages of 20,
/// with ids and without, three runs; each page's time is its fastest of the three runs (a
/// page's work is the same in every run; the fastest leaves out the machine's interruptions).
/// Emits the slowest page ÷ the median page.
func growthFigures(quick: Bool) async {
    let itemCount = quick ? 100_000 : 1_000_000
    let pageCount = itemCount / benchPageSize
    let source = PrebuiltSource<FeedItem>(firstPageCount: benchPageSize, pageCount: pageCount - 1)
    for withIDs in [false, true] {
        var fastest = [Duration](repeating: .seconds(1_000), count: pageCount)
        for _ in 0..<3 {
            let controller = withIDs
                ? FeedController(source: source, configuration: withoutInitialLoad, id: { $0.id })
                : FeedController(source: source, configuration: withoutInitialLoad)
            await controller.refresh()
            let clock = ContinuousClock()
            for page in 1..<pageCount {
                let start = clock.now
                await controller.loadMore()
                fastest[page] = min(fastest[page], clock.now - start)
            }
            precondition(controller.currentSnapshot.count == itemCount)
        }
        let times = fastest[1...].map { Double($0.components.attoseconds) / 1e9 + Double($0.components.seconds) * 1e9 }
        let sorted = times.sorted()
        let median = sorted[sorted.count / 2]
        let worst = sorted.last ?? .nan
        let worstPage = (times.firstIndex(of: worst) ?? -1) + 1
        let key = withIDs ? "growth-1m.ids" : "growth-1m.no-ids"
        emit("\(key).median_ns", median)
        emit("\(key).worst_ns", worst)
        emit("\(key).worst_page_first_item", Double(worstPage * benchPageSize))
        emit("\(key).worst_over_median", worst / median)
        // The five slowest pages, to attribute them: the id table grows when it passes ¾ of a
        // power of two of items; the controller's `followedCursors` set (a `Set<Cursor>`, one
        // cursor per page) rehashes when it passes ¾ of a power of two of pages, on pages
        // 3·2^k + 1. The worst page apart from those is reported too: the rest of the engine.
        let slowest = times.indices.sorted { times[$0] > times[$1] }.prefix(5)
        for (rank, index) in slowest.enumerated() {
            emit("\(key).slowest\(rank + 1).first_item", Double((index + 1) * benchPageSize))
            emit("\(key).slowest\(rank + 1).ns", times[index])
        }
        let cursorSetGrowthPages = Set((0..<62).map { 3 << $0 + 1 })
        if let worstElsewhere = times.indices.filter({ !cursorSetGrowthPages.contains($0 + 1) }).max(by: { times[$0] < times[$1] }) {
            emit("\(key).worst_outside_cursor_set_growth_first_item", Double((worstElsewhere + 1) * benchPageSize))
            emit("\(key).worst_outside_cursor_set_growth_over_median", times[worstElsewhere] / median)
        }
    }
}
