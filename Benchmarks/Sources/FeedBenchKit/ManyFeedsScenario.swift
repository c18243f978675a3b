import AsyncPaging

/// Scenario 4: `count` feeds in one process, each with its initial load and `morePages` more
/// pages, all run concurrently (one child task per feed). Returns the feeds, still alive, so
/// that the caller can measure what they hold.
public func runManyFeeds(_ contender: Contender, count: Int, morePages: Int) async -> [KeptAlive] {
    let source = ImmediateSource<FeedItem>(firstPage: makeItems(benchPageSize))
    return await withTaskGroup(of: KeptAlive.self) { group in
        for _ in 0..<count {
            group.addTask {
                switch contender {
                case .engine:
                    let controller = EngineFeed(
                        source: source, configuration: engineConfiguration(loadsInitialPage: false))
                    await controller.refresh()
                    for _ in 0..<morePages { await controller.loadMore() }
                    return KeptAlive(controller)
                case .seedPort, .appendPort:
                    let feed = SeedPortFeed(source: source, appendsInPlace: contender == .appendPort)
                    await feed.refresh()
                    for _ in 0..<morePages { await feed.loadMore() }
                    return KeptAlive(feed)
                case .combinePort:
                    let feed = CombinePortFeed(source: source)
                    for _ in 0..<morePages { feed.loadMore() }
                    return KeptAlive(feed)
                case .floor:
                    let (feed, pages) = FloorFeed.make(source: source)
                    await feed.refresh()
                    for _ in 0..<morePages { await feed.loadMore() }
                    return KeptAlive(FloorHolder(feed: feed, pages: pages))
                }
            }
        }
        var feeds: [KeptAlive] = []
        feeds.reserveCapacity(count)
        for await feed in group { feeds.append(feed) }
        return feeds
    }
}

/// `count` feeds that have loaded nothing and have no subscriber: what an idle feed costs.
public func makeIdleFeeds(_ contender: Contender, count: Int) -> [AnyObject] {
    let source = ImmediateSource<FeedItem>(firstPage: makeItems(benchPageSize))
    // One configuration for every feed, as an app or a service makes it (and like the source):
    // a configuration keeps its values in one shared object, made once.
    let configuration = contender == .engine ? engineConfiguration(loadsInitialPage: false) : .default
    return (0..<count).map { _ -> AnyObject in
        switch contender {
        case .engine:
            EngineFeed(source: source, configuration: configuration)
        case .seedPort, .appendPort:
            SeedPortFeed(source: source, appendsInPlace: contender == .appendPort)
        case .combinePort:
            CombinePortFeed(loadsInitialPage: false, source: source)
        case .floor:
            FloorHolder(FloorFeed.make(source: source))
        }
    }
}

/// A floor feed together with its stream, which holds the pages nobody consumed.
final class FloorHolder {
    let feed: FloorFeed<FeedItem>
    let pages: AsyncStream<[FeedItem]>

    init(feed: FloorFeed<FeedItem>, pages: AsyncStream<[FeedItem]>) {
        self.feed = feed
        self.pages = pages
    }

    convenience init(_ made: (feed: FloorFeed<FeedItem>, pages: AsyncStream<[FeedItem]>)) {
        self.init(feed: made.feed, pages: made.pages)
    }
}

/// Scenario 5: a feed of `pages` pages of 20, built page by page as a user would build it
/// (the seed and Combine ports, whose every page copies the whole list, get the same final
/// list from a first page of all but 20 items and one load-more: their state is the array).
///
/// `allButLastPage` is `items` without its last page, made by the caller before it starts
/// measuring (the source keeps it).
public func buildLongFeed(_ contender: Contender, items: [FeedItem], allButLastPage: [FeedItem]) async -> AnyObject {
    let page = Array(items[..<benchPageSize])
    switch contender {
    case .engine:
        let controller = EngineFeed(
            source: ImmediateSource(firstPage: page, page: page),
            configuration: engineConfiguration(loadsInitialPage: false))
        await controller.refresh()
        for _ in 1..<items.count / benchPageSize { await controller.loadMore() }
        return controller
    case .seedPort, .appendPort:
        let feed = SeedPortFeed(
            source: ImmediateSource(firstPage: allButLastPage, page: page), appendsInPlace: contender == .appendPort)
        await feed.refresh()
        await feed.loadMore()
        return feed
    case .combinePort:
        let feed = CombinePortFeed(source: ImmediateSource(firstPage: allButLastPage, page: page))
        feed.loadMore()
        return feed
    case .floor:
        let (feed, pages) = FloorFeed.make(source: ImmediateSource(firstPage: page, page: page))
        let holder = FloorHolder(feed: feed, pages: pages)
        var consumer = pages.makeAsyncIterator()
        await feed.refresh()
        _ = await consumer.next()
        for _ in 1..<items.count / benchPageSize {
            await feed.loadMore()
            _ = await consumer.next()
        }
        return holder
    }
}

/// A feed kept alive so that its memory can be measured. `@unchecked Sendable`: it is only
/// held, never used, once it crosses from the task that made it.
public struct KeptAlive: @unchecked Sendable {
    let object: AnyObject

    init(_ object: AnyObject) {
        self.object = object
    }
}
