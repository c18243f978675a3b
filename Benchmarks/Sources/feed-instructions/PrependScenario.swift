import AsyncPaging
import FeedBenchKit

/// A source opened in the middle of its data (issue 12): the page at cursor 0 is `firstPage`,
/// and cursor -k (k ≥ 1) is the k-th prebuilt page of two-word items before it, each answered
/// at once. Items are built before counting starts.
struct MiddleOpenedSource: PageSource {
    let firstPage: [FeedItem]
    let pagesBefore: [[FeedItem]]

    init(firstPageCount: Int, pageCount: Int) {
        firstPage = makeItems(firstPageCount, startingAt: 0, of: FeedItem.self)
        pagesBefore = (1...max(pageCount, 1)).map { index in
            makeItems(benchPageSize, startingAt: -index * benchPageSize, of: FeedItem.self)
        }
    }

    func page(for request: PageRequest<Int>) async throws -> Page<FeedItem, Int> {
        let cursor = request.cursor ?? 0
        if cursor == 0 { return Page(items: firstPage, previous: -1, next: nil) }
        let index = -cursor - 1
        return Page(items: pagesBefore[index], previous: index + 1 < pagesBefore.count ? cursor - 1 : nil, next: cursor + 1)
    }
}

/// The engine opened at cursor 0 with one subscriber that receives every list, prepending pages
/// of 20 two-word items with `loadPrevious()`: the store's front run grows, nothing shifts.
final class PrependHarness {
    let controller: EngineFeed<FeedItem>
    var snapshots: AsyncStream<FeedSnapshot<FeedItem>>.Iterator

    init(source: MiddleOpenedSource) async {
        controller = EngineFeed(source: source, configuration: engineConfiguration(loadsInitialPage: true), initialCursor: 0)
        snapshots = controller.snapshots.makeAsyncIterator()
        while let snapshot = await snapshots.next(), snapshot.count < source.firstPage.count {}
    }

    func prependPage() async {
        await controller.loadPrevious()
        _ = await snapshots.next()
    }
}

/// Prepends `pages` pages (after `warmup` uncounted ones) to a feed opened with `firstPage` items.
func prependPages(firstPage: Int, warmup: Int = warmupPages, pages: Int) async {
    let harness = await PrependHarness(source: MiddleOpenedSource(firstPageCount: firstPage, pageCount: warmup + pages))
    for _ in 0..<warmup { await harness.prependPage() }
    await measured {
        for _ in 0..<pages { await harness.prependPage() }
    }
}
