import AsyncPaging
import AsyncPagingTesting
import Testing

/// Sources that answer without suspending (a cache, an in-memory page): the controller starts
/// each fetch with `Task.immediate` and takes such an answer in place, with no hop back onto
/// the actor. The outcome, the outputs and their order must be exactly those of a fetch that
/// answers later.
@Suite("Sources that answer at once")
struct AnswerInPlaceTests {
    let clock = TestClock()
    let source = PostSource()

    func loadedFeed(_ configuration: FeedConfiguration = configuration()) async -> PostFeed {
        let feed = PostFeed(source: source, clock: clock, configuration: configuration)
        await initialLoadEnded(feed)
        return feed
    }

    @Test("the call gets its outcome, and the outputs tell the whole load, in order")
    func loadMoreAnsweredInPlace() async {
        source.enqueue(pageResponse(0, latency: .zero), pageResponse(1, latency: .zero))
        let feed = await loadedFeed()
        let events = StreamRecorder(feed.events)
        let snapshots = StreamRecorder(feed.snapshots)

        #expect(await feed.loadMore() == .completed(.loadMore, applied: 15))
        #expect(await events.waitForCount(2) == [.began(.loadMore), .ended(.loadMore, .completed)])
        let appended = await snapshots.waitFor { $0.count == 30 }
        #expect(appended?.change == .appended(15..<30))
        #expect(feed.currentStatus == .idle)
        #expect(clock.sleeperCount == 0) // no timer was left behind
    }

    @Test("the last page, answered at once, ends the data")
    func lastPageAnsweredInPlace() async {
        source.enqueue(pageResponse(0, latency: .zero), pageResponse(1, last: true, latency: .zero))
        let feed = await loadedFeed()
        #expect(await feed.loadMore() == .completed(.loadMore, applied: 15, reachedEnd: true))
        #expect(feed.currentStatus == .endOfData)
        #expect(await feed.loadMore() == LoadResult(side: .loadMore, outcome: .endOfData))
        #expect(source.requests.count == 2)
    }

    @Test("a failure answered at once, then a retry after the backoff answered at once")
    func retryAnsweredInPlace() async {
        let retry = RetryPolicy(maximumAttempts: 2, initialBackoff: .seconds(4))
        source.enqueue(pageResponse(0, latency: .zero), .failure(ServerError(code: 503)), pageResponse(1, latency: .zero))
        let feed = await loadedFeed(configuration(retry: retry))
        let diagnostics = StreamRecorder(feed.diagnostics)

        async let result = feed.loadMore()
        await clock.waitForSleepers(1) // the backoff, on the clock
        #expect(await diagnostics.waitForCount(1) == [
            .retryScheduled(
                side: .loadMore, retryNumber: 1, delay: .seconds(4),
                failure: FeedFailure(error: ServerError(code: 503), side: .loadMore, attempt: 1)),
        ])
        clock.advance(by: .seconds(4))
        #expect(await result == .completed(.loadMore, applied: 15))
        #expect(source.requests.map(\.attempt) == [1, 1, 2])
        #expect(feed.currentSnapshot.ids == Array(0..<30))
    }

    @Test("a refresh answered at once ends the load-more in flight first, and answers both callers")
    func refreshAnsweredInPlaceCancelsLoadMore() async {
        source.enqueue(pageResponse(0, latency: .zero), pageResponse(1, latency: .seconds(2)))
        source.enqueue(.page(posts(100..<115), next: 1))
        let feed = await loadedFeed()
        let events = StreamRecorder(feed.events)

        async let loadMore = feed.loadMore()
        await source.waitForRequests(2)
        #expect(await feed.refresh() == .completed(.refresh, applied: 15))
        #expect(await loadMore == LoadResult(side: .loadMore, outcome: .cancelled(.preemptedByRefresh)))
        #expect(await events.waitForCount(4) == [
            .began(.loadMore), .ended(.loadMore, .cancelled(.preemptedByRefresh)),
            .began(.refresh), .ended(.refresh, .completed),
        ])
        #expect(feed.currentSnapshot.ids == Array(100..<115))
    }

    @Test("a stale page answered at once by a source that ignores cancellation is never applied")
    func stalePageFromLateSourceIsDropped() async {
        source.enqueue(pageResponse(0, latency: .zero))
        source.enqueue(pageResponse(1, latency: .seconds(2), ignoresCancellation: true))
        source.enqueue(.page(posts(100..<115), next: 1))
        let feed = await loadedFeed()
        let diagnostics = StreamRecorder(feed.diagnostics)

        async let loadMore = feed.loadMore()
        await clock.waitForSleepers(1)
        #expect(await feed.refresh() == .completed(.refresh, applied: 15))
        #expect(await loadMore == LoadResult(side: .loadMore, outcome: .cancelled(.preemptedByRefresh)))
        clock.advance(by: .seconds(2)) // the cancelled load-more's page arrives anyway
        #expect(await diagnostics.waitForCount(1) == [
            .staleResultDiscarded(side: .loadMore, attempt: 1, succeeded: true),
        ])
        #expect(feed.currentSnapshot.ids == Array(100..<115))
    }
}
