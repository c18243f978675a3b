import AsyncPaging
import OpenCombine

/// What one delivery run measured.
public struct DeliveryResult: Sendable {
    /// From the first load-more to the moment every subscriber held the last page.
    public var duration: Duration
    /// Pages loaded.
    public var pages: Int
    /// Lists (or pages) received, summed over subscribers: below `pages × subscribers` when a
    /// contender coalesces updates for a subscriber that is behind.
    public var deliveries: Int

    /// Pages per second, end to end.
    public var pagesPerSecond: Double { Double(pages) / duration.seconds }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    public var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}

/// Scenario 2: `pages` load-mores from a feed holding one page, delivered end to end to
/// `subscribers` subscribers, each its own task (the Combine port's are synchronous sinks, as
/// Combine has them). Returns `nil` for the floor with more than one subscriber: the floor
/// has exactly one consumer.
///
/// The pages hold `Item`s. Specialized for both item types, as `makeAppendHarness` is.
@_specialize(where Item == FeedItem)
@_specialize(where Item == PostItem)
public func runDelivery<Item: BenchItem>(
    _ contender: Contender, of _: Item.Type, pages: Int, subscribers: Int
) async -> DeliveryResult? {
    let source = ImmediateSource<Item>(firstPage: makeItems(benchPageSize))
    let target = benchPageSize * (pages + 1)
    switch contender {
    case .engine:
        let controller = EngineFeed(source: source, configuration: engineConfiguration(loadsInitialPage: false))
        await controller.refresh()
        let streams = (0..<subscribers).map { _ in controller.snapshots }
        let start = ContinuousClock.now
        let deliveries = await withTaskGroup(of: Int.self) { group in
            for stream in streams {
                group.addTask {
                    var received = 0
                    for await snapshot in stream {
                        received += 1
                        if snapshot.count >= target { break }
                    }
                    return received - 1 // the list it joined with
                }
            }
            group.addTask {
                for _ in 0..<pages { await controller.loadMore() }
                return 0
            }
            return await group.reduce(0, +)
        }
        return DeliveryResult(duration: elapsed(since: start), pages: pages, deliveries: deliveries)

    case .seedPort, .appendPort:
        let feed = SeedPortFeed(source: source, appendsInPlace: contender == .appendPort)
        await feed.refresh()
        var streams: [AsyncStream<[Item]>] = []
        for _ in 0..<subscribers { streams.append(await feed.subscribe()) }
        let start = ContinuousClock.now
        let deliveries = await withTaskGroup(of: Int.self) { group in
            for stream in streams {
                group.addTask {
                    var received = 0
                    for await list in stream {
                        received += 1
                        if list.count >= target { break }
                    }
                    return received - 1
                }
            }
            group.addTask {
                for _ in 0..<pages { await feed.loadMore() }
                return 0
            }
            return await group.reduce(0, +)
        }
        return DeliveryResult(duration: elapsed(since: start), pages: pages, deliveries: deliveries)

    case .combinePort:
        let feed = CombinePortFeed(source: source)
        let received = Counter()
        var sinks: [AnyCancellable] = []
        for _ in 0..<subscribers {
            sinks.append(feed.tableData.sink { _ in received.value += 1 })
        }
        received.value = 0
        let start = ContinuousClock.now
        for _ in 0..<pages { feed.loadMore() }
        let duration = elapsed(since: start)
        withExtendedLifetime(sinks) {}
        return DeliveryResult(duration: duration, pages: pages, deliveries: received.value)

    case .floor:
        guard subscribers == 1 else { return nil }
        let (stream, consumer) = AsyncStream.makeStream(of: [Item].self)
        let start = ContinuousClock.now
        let deliveries = await withTaskGroup(of: Int.self) { group in
            group.addTask {
                var received = 0
                for await _ in stream {
                    received += 1
                    if received > pages { break }
                }
                return received - 1 // the first page
            }
            group.addTask {
                let feed = FloorFeed(source: source, consumer: consumer)
                await feed.refresh()
                for _ in 0..<pages { await feed.loadMore() }
                return 0
            }
            return await group.reduce(0, +)
        }
        return DeliveryResult(duration: elapsed(since: start), pages: pages, deliveries: deliveries)
    }
}
