import AsyncPaging

/// Baseline 3, the floor: the least any paging engine can do. It asks the same source for a
/// page, appends the items to a plain array and hands the page to one consumer through one
/// `AsyncStream`. No tasks, no actor, no cancellation, no events: a lower bound, not a rival.
///
/// Not `Sendable`: one task owns it, as one task would own a plain array.
public final class FloorFeed<Item: BenchItem> {
    public private(set) var items: [Item] = []

    private let continuation: AsyncStream<[Item]>.Continuation
    private let source: any PageSource<Item, Int>
    private let clock: any Clock<Duration> = ContinuousClock()
    private var next: Int?

    /// A floor that hands every page to `consumer`, the continuation of the one stream.
    public init(source: some PageSource<Item, Int>, consumer: AsyncStream<[Item]>.Continuation) {
        self.source = source
        self.continuation = consumer
    }

    /// A floor and the stream of its pages, in order: the one consumer.
    public static func make(source: some PageSource<Item, Int>) -> (feed: FloorFeed<Item>, pages: AsyncStream<[Item]>) {
        let (pages, consumer) = AsyncStream.makeStream(of: [Item].self)
        return (FloorFeed(source: source, consumer: consumer), pages)
    }

    public var count: Int { items.count }

    /// Replaces the list with the first page.
    public func refresh() async {
        await load(cursor: nil, replacing: true)
    }

    /// Appends the next page.
    public func loadMore() async {
        await load(cursor: next, replacing: false)
    }

    private func load(cursor: Int?, replacing: Bool) async {
        let request = PageRequest(
            cursor: cursor, side: replacing ? .refresh : .loadMore, pageSize: benchPageSize, clock: clock)
        guard let page = try? await source.page(for: request) else { return }
        if replacing { items = [] }
        items.append(contentsOf: page.items)
        next = page.next
        continuation.yield(page.items)
    }
}
