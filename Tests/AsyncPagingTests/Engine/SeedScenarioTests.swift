import AsyncPaging
import AsyncPagingTesting
import Testing

/// The scenarios of the classic RxSwift + MJRefresh feed, on the test clock.
@Suite("Seed scenarios")
struct SeedScenarioTests {
    let clock = TestClock()
    let source = PostSource()

    func makeFeed(_ configuration: FeedConfiguration = configuration()) -> PostFeed {
        PostFeed(source: source, clock: clock, configuration: configuration)
    }

    /// A feed whose initial page (scripted first, with no latency) has been applied.
    func loadedFeed(_ configuration: FeedConfiguration = configuration()) async -> PostFeed {
        let feed = makeFeed(configuration)
        await initialLoadEnded(feed)
        return feed
    }

    @Test("the page opens: 15 items load without being asked")
    func initialLoad() async {
        source.enqueue(pageResponse(0))
        let feed = makeFeed()
        let events = StreamRecorder(feed.events)
        let snapshots = StreamRecorder(feed.snapshots)

        await clock.waitForSleepers(1)
        #expect(source.requests.map(\.cursor) == [nil])
        #expect(source.requests.first?.side == .refresh)
        #expect(source.requests.first?.pageSize == 15)
        #expect(feed.currentStatus == .refreshing)
        clock.advance(by: .seconds(2))

        #expect(await events.waitForCount(2) == [.began(.refresh), .ended(.refresh, .completed)])
        let loaded = await snapshots.waitFor { $0.count == 15 }
        #expect(loaded?.ids == Array(0..<15))
        #expect(loaded?.change == .replaced)
        #expect(feed.currentStatus == .idle)
    }

    @Test("load more appends the next 15")
    func loadMoreAppends() async {
        source.enqueue(pageResponse(0, latency: .zero), pageResponse(1))
        let feed = await loadedFeed()
        async let result = feed.loadMore()
        await clock.waitForSleepers(1)
        #expect(source.requests.last?.cursor == 1)
        #expect(source.requests.last?.side == .loadMore)
        clock.advance(by: .seconds(2))
        #expect(await result == .completed(.loadMore, applied: 15))
        #expect(feed.currentSnapshot.ids == Array(0..<30))
        #expect(feed.currentSnapshot.change == .appended(15..<30))
    }

    @Test("refresh replaces the list")
    func refreshReplaces() async {
        source.enqueue(pageResponse(0, latency: .zero), pageResponse(1, latency: .zero))
        source.enqueue(.page(posts(100..<115), next: 1, latency: .seconds(1)))
        let feed = await loadedFeed()
        #expect(await feed.loadMore() == .completed(.loadMore, applied: 15))

        async let result = feed.refresh()
        await clock.waitForSleepers(1)
        #expect(source.requests.last?.cursor == nil)
        clock.advance(by: .seconds(1))
        #expect(await result == .completed(.refresh, applied: 15))
        #expect(feed.currentSnapshot.ids == Array(100..<115))
        #expect(feed.currentSnapshot.change == .replaced)
    }

    @Test("a refresh during a load-more cancels it, and its data is never applied")
    func refreshCancelsLoadMore() async {
        source.enqueue(pageResponse(0, latency: .zero), pageResponse(1), pageResponse(7))
        let feed = await loadedFeed()
        let events = StreamRecorder(feed.events)

        async let loadMore = feed.loadMore()
        await clock.waitForSleepers(1)
        async let refresh = feed.refresh()
        #expect(await loadMore == LoadResult(side: .loadMore, outcome: .cancelled(.preemptedByRefresh)))
        await clock.waitForSleepers(1) // the cancelled sleeper left; the refresh's took its place
        clock.advance(by: .seconds(2))
        #expect(await refresh == .completed(.refresh, applied: 15))
        #expect(feed.currentSnapshot.ids == Array(105..<120))
        #expect(await events.waitForCount(4) == [
            .began(.loadMore), .ended(.loadMore, .cancelled(.preemptedByRefresh)),
            .began(.refresh), .ended(.refresh, .completed),
        ])
    }

    @Test("a load-more during a refresh cancels the refresh and loads from the current list")
    func loadMoreCancelsRefresh() async {
        source.enqueue(pageResponse(0, latency: .zero), .page(posts(500..<515), next: 1, latency: .seconds(2)), pageResponse(1))
        let feed = await loadedFeed()
        let events = StreamRecorder(feed.events)

        async let refresh = feed.refresh()
        await clock.waitForSleepers(1)
        async let loadMore = feed.loadMore()
        #expect(await refresh == LoadResult(side: .refresh, outcome: .cancelled(.preemptedByLoadMore)))
        await source.waitForRequests(3)
        #expect(source.requests[2].cursor == 1)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        #expect(await loadMore == .completed(.loadMore, applied: 15))
        #expect(feed.currentSnapshot.ids == Array(0..<30))
        #expect(await events.waitForCount(4) == [
            .began(.refresh), .ended(.refresh, .cancelled(.preemptedByLoadMore)),
            .began(.loadMore), .ended(.loadMore, .completed),
        ])
    }

    @Test("reaching the bottom twice while loading fetches once")
    func bottomReachedTwice() async {
        source.enqueue(pageResponse(0, latency: .zero), pageResponse(1))
        let feed = await loadedFeed()

        async let first = feed.loadMore()
        await clock.waitForSleepers(1)
        async let second = feed.loadMore()
        await source.waitForRequests(2)
        clock.advance(by: .seconds(2))
        let results = await [first, second]
        #expect(results.contains(.completed(.loadMore, applied: 15)))
        #expect(results.contains(.completed(.loadMore, applied: 15, joined: true)))
        #expect(source.requests.count == 2)
    }

    @Test("end of data: the last page says so and later load-mores fetch nothing")
    func endOfData() async {
        source.enqueue(pageResponse(0, latency: .zero), pageResponse(1, last: true, latency: .zero))
        let feed = await loadedFeed()
        let statuses = StreamRecorder(feed.statuses)
        #expect(await feed.loadMore() == .completed(.loadMore, applied: 15, reachedEnd: true))
        #expect(await feed.loadMore() == LoadResult(side: .loadMore, outcome: .endOfData))
        #expect(source.requests.count == 2)
        #expect(await statuses.waitFor { $0 == .endOfData } != nil)

        // A refresh clears end of data.
        source.enqueue(pageResponse(0, latency: .zero))
        #expect(await feed.refresh() == .completed(.refresh, applied: 15))
        #expect(feed.currentStatus == .idle)
    }

    @Test("a failure keeps the list, and retry runs the load again")
    func failureAndRetry() async {
        source.enqueue(
            pageResponse(0, latency: .zero), .failure(ServerError(code: 503), latency: .seconds(1)),
            pageResponse(1, latency: .zero))
        let feed = await loadedFeed()
        let events = StreamRecorder(feed.events)

        async let failed = feed.loadMore()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        let failure = FeedFailure(error: ServerError(code: 503), side: .loadMore, attempt: 1)
        #expect(await failed == LoadResult(side: .loadMore, outcome: .failed(failure)))
        #expect(feed.currentSnapshot.ids == Array(0..<15))
        #expect(feed.currentStatus == .failed(failure))

        #expect(await feed.retry() == .completed(.loadMore, applied: 15))
        #expect(source.requests.map(\.cursor) == [nil, 1, 1])
        #expect(source.requests.map(\.attempt) == [1, 1, 2])
        #expect(feed.currentSnapshot.ids == Array(0..<30))
        #expect(await events.waitForCount(4) == [
            .began(.loadMore), .ended(.loadMore, .failed(failure)),
            .began(.loadMore), .ended(.loadMore, .completed),
        ])
    }

    @Test("a fetch slower than the timeout fails with a timeout error, on the clock")
    func timeout() async {
        source.enqueue(.hang)
        let feed = makeFeed(configuration(timeout: .seconds(5)))
        let events = StreamRecorder(feed.events)
        await clock.waitForSleepers(2) // the hanging source and the timeout
        clock.advance(by: .seconds(4))
        #expect(clock.sleeperCount == 2)
        clock.advance(by: .seconds(1))
        let failure = FeedFailure(error: FeedError.timedOut(after: .seconds(5)), side: .refresh, attempt: 1)
        #expect(await events.waitForCount(2) == [.began(.refresh), .ended(.refresh, .failed(failure))])
        await source.waitForCompletions(1) // the hanging fetch was cancelled
        #expect(feed.currentStatus == .failed(failure))
    }

    @Test("automatic retries back off exactly on the clock")
    func backoffTiming() async {
        let retry = RetryPolicy(maximumAttempts: 3, initialBackoff: .seconds(1), multiplier: 2)
        source.enqueue(
            .failure(ServerError(code: 500), latency: .zero), .failure(ServerError(code: 500), latency: .zero),
            pageResponse(0, latency: .zero))
        let feed = makeFeed(configuration(retry: retry))
        let events = StreamRecorder(feed.events)

        await clock.waitForSleepers(1)
        #expect(clock.pendingDeadlines == [.init(offset: .seconds(1))])
        clock.advance(by: .seconds(1))
        await clock.waitForSleepers(1)
        #expect(clock.pendingDeadlines == [.init(offset: .seconds(3))])
        #expect(source.requests.map(\.attempt) == [1, 2])
        clock.advance(by: .milliseconds(1_999))
        #expect(source.requests.count == 2)
        clock.advance(by: .milliseconds(1))
        #expect(await events.waitForCount(2) == [.began(.refresh), .ended(.refresh, .completed)])
        #expect(source.requests.map(\.attempt) == [1, 2, 3])
        #expect(feed.currentSnapshot.ids == Array(0..<15))
    }
}
