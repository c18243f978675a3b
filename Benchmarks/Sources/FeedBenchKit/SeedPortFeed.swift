import AsyncPaging

/// Baseline 1, the seed port: seed 000's improved view model ported plainly to Swift
/// concurrency, the way most apps would write it by hand.
///
/// - The list is one array, rebuilt as `items + page` on every page (`BehaviorRelay.accept`).
/// - Every load is a new `Task`; a new request on a side cancels that side's task
///   (`flatMapLatest`) and the other side's (`takeUntil`).
/// - Every subscriber gets the full array on every change, through an unbounded stream (the
///   relay's observers see every value). The end-of-loading events are pushed the same way.
public actor SeedPortFeed<Item: BenchItem> {
    public typealias Fetch = @Sendable (_ side: FeedSide, _ page: Int) async throws -> [Item]

    private let fetch: Fetch
    /// Whether a page is appended in place (the append port) rather than as `items + page`.
    public let appendsInPlace: Bool
    private var items: [Item] = []
    private var pageNumber = 0
    private var listSubscribers: [AsyncStream<[Item]>.Continuation] = []
    private var endSubscribers: [AsyncStream<FeedSide>.Continuation] = []
    private var headerTask: Task<Void, Never>?
    private var footerTask: Task<Void, Never>?

    public init(appendsInPlace: Bool = false, fetch: @escaping Fetch) {
        self.fetch = fetch
        self.appendsInPlace = appendsInPlace
    }

    /// A seed port over `source`: the same pages the engine gets.
    public init(source: some PageSource<Item, Int>, appendsInPlace: Bool = false) {
        let clock: any Clock<Duration> = ContinuousClock()
        self.init(appendsInPlace: appendsInPlace) { side, page in
            let request = PageRequest<Int>(
                cursor: side == .refresh ? nil : page, side: side, pageSize: benchPageSize, clock: clock)
            return try await source.page(for: request).items
        }
    }

    public var count: Int { items.count }

    /// The list: the current array first, then every new array.
    public func subscribe() -> AsyncStream<[Item]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [Item].self)
        continuation.yield(items)
        listSubscribers.append(continuation)
        return stream
    }

    /// `endHeaderRefreshing` and `endFooterRefreshing`, as one stream of the side that ended.
    public func subscribeToEnds() -> AsyncStream<FeedSide> {
        let (stream, continuation) = AsyncStream.makeStream(of: FeedSide.self)
        endSubscribers.append(continuation)
        return stream
    }

    /// The header pull: cancels the load-more in flight and replaces the list.
    public func refresh() async {
        headerTask?.cancel()
        footerTask?.cancel()
        footerTask = nil
        end(.loadMore) // endFooterRefreshing = merge(footerData, headerRefresh)
        let fetch = self.fetch
        let task = Task {
            guard let page = try? await fetch(.refresh, 0), !Task.isCancelled else { return }
            self.replace(with: page)
        }
        headerTask = task
        await task.value
    }

    /// The footer pull: cancels the refresh in flight and appends the next page.
    public func loadMore() async {
        footerTask?.cancel()
        headerTask?.cancel()
        headerTask = nil
        end(.refresh) // endHeaderRefreshing = merge(headerData, footerRefresh)
        let fetch = self.fetch
        let next = pageNumber + 1
        let task = Task {
            guard let page = try? await fetch(.loadMore, next), !Task.isCancelled else { return }
            self.append(page, number: next)
        }
        footerTask = task
        await task.value
    }

    private func replace(with page: [Item]) {
        items = page
        pageNumber = 0
        publish()
        end(.refresh)
    }

    private func append(_ page: [Item], number: Int) {
        if appendsInPlace {
            items.append(contentsOf: page)
        } else {
            items = items + page
        }
        pageNumber = number
        publish()
        end(.loadMore)
    }

    private func publish() {
        for subscriber in listSubscribers { subscriber.yield(items) }
    }

    private func end(_ side: FeedSide) {
        for subscriber in endSubscribers { subscriber.yield(side) }
    }
}
