import AsyncPaging
import OpenCombine

/// Scenario 1: one page appended to a feed of a given length, received by one subscriber.
///
/// A harness pages items of one ``BenchItem`` type. It starts from a feed whose first page
/// holds `firstPage` (so a feed of a million items costs one load to set up); each
/// ``appendPage()`` appends the next page of 20 and returns once the subscriber has received
/// the new list.
public protocol AppendHarness: AnyObject {
    /// The number of items the subscriber last received.
    var receivedCount: Int { get }
    /// Appends one page and returns once the one subscriber has received it.
    func appendPage() async
}

/// A harness of `contender` whose first page is `firstPage`.
///
/// The harnesses are generic over the item, and reached through `any AppendHarness` (and from
/// other modules), where the generic code would run unspecialized: the engine's inlinable hot
/// path too, which an app compiles for its own item type. So this function, each
/// `appendPage()` and ``ImmediateSource/page(for:)`` carry `@_specialize` for both item types:
/// the generic body checks the type and runs the specialized code.
@_specialize(where Item == FeedItem)
@_specialize(where Item == PostItem)
@_specialize(where Item == IdentifiedPost)
public func makeAppendHarness<Item: BenchItem>(_ contender: Contender, firstPage: [Item]) async -> any AppendHarness {
    let source = ImmediateSource(firstPage: firstPage)
    switch contender {
    case .engine: return await EngineAppendHarness(source: source)
    case .seedPort, .appendPort:
        return await SeedAppendHarness(source: source, appendsInPlace: contender == .appendPort)
    case .combinePort: return CombineAppendHarness(source: source)
    case .floor: return await FloorAppendHarness(source: source)
    }
}

final class EngineAppendHarness<Item: BenchItem>: AppendHarness {
    let controller: EngineFeed<Item>
    var snapshots: AsyncStream<FeedSnapshot<Item>>.Iterator
    private(set) var receivedCount = 0

    init(source: ImmediateSource<Item>) async {
        controller = EngineFeed(source: source, configuration: engineConfiguration(loadsInitialPage: true))
        snapshots = controller.snapshots.makeAsyncIterator()
        while receivedCount < source.firstPage.count, let snapshot = await snapshots.next() {
            receivedCount = snapshot.count
        }
    }

    @_specialize(where Item == FeedItem)
    @_specialize(where Item == PostItem)
    @_specialize(where Item == IdentifiedPost)
    func appendPage() async {
        await controller.loadMore()
        receivedCount = await snapshots.next()?.count ?? -1
    }
}

final class SeedAppendHarness<Item: BenchItem>: AppendHarness {
    let feed: SeedPortFeed<Item>
    var lists: AsyncStream<[Item]>.Iterator
    private(set) var receivedCount = 0

    init(source: ImmediateSource<Item>, appendsInPlace: Bool) async {
        feed = SeedPortFeed(source: source, appendsInPlace: appendsInPlace)
        lists = await feed.subscribe().makeAsyncIterator()
        await feed.refresh()
        while receivedCount < source.firstPage.count, let list = await lists.next() {
            receivedCount = list.count
        }
    }

    @_specialize(where Item == FeedItem)
    @_specialize(where Item == PostItem)
    @_specialize(where Item == IdentifiedPost)
    func appendPage() async {
        await feed.loadMore()
        receivedCount = await lists.next()?.count ?? -1
    }
}

final class CombineAppendHarness<Item: BenchItem>: AppendHarness {
    let feed: CombinePortFeed<Item>
    private let received = Counter()
    private var subscription: AnyCancellable?

    init(source: ImmediateSource<Item>) {
        feed = CombinePortFeed(source: source)
        let received = self.received
        subscription = feed.tableData.sink { received.value = $0.count }
    }

    var receivedCount: Int { received.value }

    @_specialize(where Item == FeedItem)
    @_specialize(where Item == PostItem)
    @_specialize(where Item == IdentifiedPost)
    func appendPage() async {
        feed.loadMore()
    }
}

final class FloorAppendHarness<Item: BenchItem>: AppendHarness {
    let feed: FloorFeed<Item>
    var pages: AsyncStream<[Item]>.Iterator
    private(set) var receivedCount = 0

    init(source: ImmediateSource<Item>) async {
        let (feed, pages) = FloorFeed.make(source: source)
        self.feed = feed
        self.pages = pages.makeAsyncIterator()
        await feed.refresh()
        receivedCount = await self.pages.next()?.count ?? -1
    }

    @_specialize(where Item == FeedItem)
    @_specialize(where Item == PostItem)
    @_specialize(where Item == IdentifiedPost)
    func appendPage() async {
        await feed.loadMore()
        receivedCount += await pages.next()?.count ?? -1
    }
}
