import AsyncPaging
import OpenCombine

/// Scenario 3: a refresh cancelling an in-flight load-more, timed from the refresh call to
/// the moment a subscriber holds the cancelled load-more's end event.
///
/// Load-mores never answer (``HangingLoadMoreSource``); refreshes answer at once.
public protocol CancelHarness: AnyObject {
    /// Starts a load-more and returns once it is in flight.
    func startLoadMore() async
    /// Calls refresh and returns the time from that call to the subscriber receiving the end
    /// event of the load-more it cancelled.
    func refreshUntilLoadMoreEnds() async -> Duration
    /// Waits until the refresh has finished and the subscriber has seen its end.
    func settle() async
}

public func makeCancelHarness(_ contender: Contender) async -> any CancelHarness {
    let source = HangingLoadMoreSource()
    switch contender {
    case .engine: return await EngineCancelHarness(source: source)
    case .seedPort, .appendPort:
        return await SeedCancelHarness(source: source, appendsInPlace: contender == .appendPort)
    case .combinePort: return CombineCancelHarness(source: source)
    case .floor: return FloorCancelHarness(source: source)
    }
}

final class EngineCancelHarness: CancelHarness {
    let controller: EngineFeed<FeedItem>
    var events: AsyncStream<FeedEvent>.Iterator
    var loadMore: Task<LoadResult, Never>?
    var refresh: Task<LoadResult, Never>?

    init(source: HangingLoadMoreSource) async {
        // Subscribed before the first load starts: a load that ends before the subscription
        // (the source answers at once) would leave no `ended` for `waitFor` to see.
        controller = EngineFeed(source: source, configuration: engineConfiguration(loadsInitialPage: false))
        events = controller.events.makeAsyncIterator()
        _ = await controller.refresh()
        await waitFor(.refresh, ended: true)
    }

    private func waitFor(_ side: FeedSide, ended: Bool) async {
        while let event = await events.next() {
            switch event {
            case .began(let began) where !ended && began == side: return
            case .ended(let endedSide, _) where ended && endedSide == side: return
            default: continue
            }
        }
    }

    func startLoadMore() async {
        let controller = self.controller
        loadMore = Task { await controller.loadMore() }
        await waitFor(.loadMore, ended: false)
    }

    func refreshUntilLoadMoreEnds() async -> Duration {
        let controller = self.controller
        let start = ContinuousClock.now
        refresh = Task { await controller.refresh() }
        await waitFor(.loadMore, ended: true)
        return elapsed(since: start)
    }

    func settle() async {
        _ = await refresh?.value
        _ = await loadMore?.value
        await waitFor(.refresh, ended: true)
    }
}

final class SeedCancelHarness: CancelHarness {
    let feed: SeedPortFeed<FeedItem>
    var ends: AsyncStream<FeedSide>.Iterator
    var loadMore: Task<Void, Never>?
    var refresh: Task<Void, Never>?

    init(source: HangingLoadMoreSource, appendsInPlace: Bool) async {
        feed = SeedPortFeed(source: source, appendsInPlace: appendsInPlace)
        ends = await feed.subscribeToEnds().makeAsyncIterator()
        await feed.refresh()
        await waitFor(.refresh)
    }

    private func waitFor(_ side: FeedSide) async {
        while let ended = await ends.next(), ended != side {}
    }

    func startLoadMore() async {
        let feed = self.feed
        loadMore = Task { await feed.loadMore() }
        // The seed's footer pull ends the header at once (`merge(headerData, footerRefresh)`).
        await waitFor(.refresh)
    }

    func refreshUntilLoadMoreEnds() async -> Duration {
        let feed = self.feed
        let start = ContinuousClock.now
        refresh = Task { await feed.refresh() }
        await waitFor(.loadMore)
        return elapsed(since: start)
    }

    func settle() async {
        await refresh?.value
        await loadMore?.value
        await waitFor(.refresh)
    }
}

final class CombineCancelHarness: CancelHarness {
    let feed: CombinePortFeed<FeedItem>
    private var footerEnded: ContinuousClock.Instant?
    private var subscription: AnyCancellable?

    init(source: HangingLoadMoreSource) {
        feed = CombinePortFeed { side in
            side == .refresh
                ? Just(source.firstPage).eraseToAnyPublisher()
                : Empty(completeImmediately: false).eraseToAnyPublisher()
        }
        subscription = feed.endFooterRefreshing.sink { [unowned self] _ in footerEnded = ContinuousClock.now }
    }

    func startLoadMore() async {
        feed.loadMore()
    }

    func refreshUntilLoadMoreEnds() async -> Duration {
        footerEnded = nil
        let start = ContinuousClock.now
        feed.refresh()
        return (footerEnded ?? ContinuousClock.now) - start
    }

    func settle() async {}
}

/// The floor of cancelling: cancel the load's task and hand its end to one consumer.
final class FloorCancelHarness: CancelHarness {
    let source: HangingLoadMoreSource
    let clock: any Clock<Duration> = ContinuousClock()
    let continuation: AsyncStream<FeedSide>.Continuation
    var ends: AsyncStream<FeedSide>.Iterator
    var loadMore: Task<Void, Never>?

    init(source: HangingLoadMoreSource) {
        self.source = source
        let (stream, continuation) = AsyncStream.makeStream(of: FeedSide.self)
        self.continuation = continuation
        ends = stream.makeAsyncIterator()
    }

    func startLoadMore() async {
        let request = PageRequest(cursor: 1, side: .loadMore, pageSize: benchPageSize, clock: clock)
        let source = self.source
        loadMore = Task { _ = try? await source.page(for: request) }
    }

    func refreshUntilLoadMoreEnds() async -> Duration {
        let start = ContinuousClock.now
        loadMore?.cancel()
        continuation.yield(.loadMore)
        _ = await ends.next()
        return elapsed(since: start)
    }

    func settle() async {
        await loadMore?.value
    }
}
