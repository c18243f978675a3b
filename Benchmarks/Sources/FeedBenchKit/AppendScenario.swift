import AsyncPaging
import OpenCombine

/// Scenario 1: one page appended to a feed of a given length, received by one subscriber.
///
/// A harness starts from a feed whose first page holds `firstPage` (so a feed of a million
/// items costs one load to set up); each ``appendPage()`` appends the next page of 20 and
/// returns once the subscriber has received the new list.
public protocol AppendHarness: AnyObject {
    /// The number of items the subscriber last received.
    var receivedCount: Int { get }
    /// Appends one page and returns once the one subscriber has received it.
    func appendPage() async
}

public func makeAppendHarness(_ contender: Contender, firstPage: [FeedItem]) async -> any AppendHarness {
    let source = ImmediateSource(firstPage: firstPage)
    switch contender {
    case .engine: return await EngineAppendHarness(source: source)
    case .seedPort: return await SeedAppendHarness(source: source)
    case .combinePort: return CombineAppendHarness(source: source)
    case .floor: return await FloorAppendHarness(source: source)
    }
}

final class EngineAppendHarness: AppendHarness {
    let controller: EngineFeed
    var snapshots: AsyncStream<FeedSnapshot<FeedItem>>.Iterator
    private(set) var receivedCount = 0

    init(source: ImmediateSource) async {
        controller = EngineFeed(source: source, configuration: engineConfiguration(loadsInitialPage: true))
        snapshots = controller.snapshots.makeAsyncIterator()
        while receivedCount < source.firstPage.count, let snapshot = await snapshots.next() {
            receivedCount = snapshot.count
        }
    }

    func appendPage() async {
        await controller.loadMore()
        receivedCount = await snapshots.next()?.count ?? -1
    }
}

final class SeedAppendHarness: AppendHarness {
    let feed: SeedPortFeed
    var lists: AsyncStream<[FeedItem]>.Iterator
    private(set) var receivedCount = 0

    init(source: ImmediateSource) async {
        feed = SeedPortFeed(source: source)
        lists = await feed.subscribe().makeAsyncIterator()
        await feed.refresh()
        while receivedCount < source.firstPage.count, let list = await lists.next() {
            receivedCount = list.count
        }
    }

    func appendPage() async {
        await feed.loadMore()
        receivedCount = await lists.next()?.count ?? -1
    }
}

final class CombineAppendHarness: AppendHarness {
    let feed: CombinePortFeed
    private let received = Counter()
    private var subscription: AnyCancellable?

    init(source: ImmediateSource) {
        feed = CombinePortFeed(source: source)
        let received = self.received
        subscription = feed.tableData.sink { received.value = $0.count }
    }

    var receivedCount: Int { received.value }

    func appendPage() async {
        feed.loadMore()
    }
}

final class FloorAppendHarness: AppendHarness {
    let feed: FloorFeed
    var pages: AsyncStream<[FeedItem]>.Iterator
    private(set) var receivedCount = 0

    init(source: ImmediateSource) async {
        let (feed, pages) = FloorFeed.make(source: source)
        self.feed = feed
        self.pages = pages.makeAsyncIterator()
        await feed.refresh()
        receivedCount = await self.pages.next()?.count ?? -1
    }

    func appendPage() async {
        await feed.loadMore()
        receivedCount += await pages.next()?.count ?? -1
    }
}
