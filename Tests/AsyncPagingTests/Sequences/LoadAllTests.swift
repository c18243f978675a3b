import AsyncPaging
import AsyncPagingTesting
import Testing

/// A configuration with a bound, for the tests of loadAll on a bounded feed.
func boundedConfiguration(pageSize: Int = 15, maximumItems: Int) -> FeedConfiguration {
    do {
        return try FeedConfiguration(pageSize: pageSize, loadsInitialPage: false, maximumItems: maximumItems)
    } catch {
        fatalError("test configuration is invalid: \(error)")
    }
}

/// The Apollo iOS pagination tests of `loadAll` (ApolloPaginationTests: ForwardPaginationTests,
/// ReversePaginationTests, BidirectionalPaginationTests, GraphQLQueryPagerTests), written
/// against ``FeedController/loadAll(refreshingFirst:maximumPages:maximumItems:)``.
@Suite("loadAll: the Apollo iOS cases")
struct ApolloLoadAllTests {
    let clock = TestClock()

    @Test("ForwardPaginationTests.test_loadAll: joins the initial load, then loads the second and last page")
    func forward_test_loadAll() async {
        let source = PostSource()
        source.enqueue(pageResponse(0, latency: .seconds(1)), pageResponse(1, last: true, latency: .zero))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration())
        #expect(await clock.waitForSleepers(1)) // the initial load is in flight
        let loading = Task { await feed.loadAll() }
        clock.advance(by: .seconds(1))
        let result = await loading.value
        // Whether the call joined the initial load or came after it landed is up to the
        // scheduler: the first page counts only when the call loaded (or joined) it.
        #expect(result.ending == .reachedEnd)
        #expect([LoadAllResult(pagesLoaded: 2, itemsApplied: 30, ending: .reachedEnd),
                 LoadAllResult(pagesLoaded: 1, itemsApplied: 15, ending: .reachedEnd)].contains(result))
        #expect(feed.currentSnapshot.ids == Array(0..<30))
        #expect(source.requests.map(\.cursor) == [nil, 1])
    }

    @Test("GraphQLQueryPagerTests.test_loadAll: with no initial load, loadAll fetches the first page itself")
    func pager_test_loadAll() async {
        let source = PostSource()
        source.enqueue(pageResponse(0, latency: .zero), pageResponse(1, last: true, latency: .zero))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration(loadsInitialPage: false))
        let result = await feed.loadAll()
        #expect(result.reachedEnd)
        #expect(result.pagesLoaded == 2)
        #expect(feed.currentSnapshot.ids == Array(0..<30))
        #expect(source.requests.map(\.side) == [.refresh, .loadMore])
    }

    @Test("ReversePaginationTests.test_loadAll: opened at the last item, loads the previous pages to the start")
    func reverse_test_loadAll() async {
        let source = PostSource()
        source.enqueue(
            .page(Page(items: posts(3..<4), previous: 2, next: nil)),
            .page(Page(items: posts(2..<3), previous: nil, next: 3)))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration(pageSize: 1), initialCursor: 3)
        let result = await feed.loadAll()
        #expect(result == LoadAllResult(pagesLoaded: 2, itemsApplied: 2, ending: .reachedEnd))
        #expect(feed.currentSnapshot.ids == [2, 3])
        #expect(source.requests.map(\.side) == [.refresh, .loadPrevious])
    }


    @Test("BidirectionalPaginationTests.test_loadAll: opened in the middle, loads both ends")
    func bidirectional_test_loadAll() async {
        let source = PostSource()
        source.enqueue(
            .page(Page(items: posts(1..<2), previous: 0, next: 2)),
            .page(Page(items: posts(0..<1), previous: nil, next: 1)),
            .page(Page(items: posts(2..<3), previous: 1, next: nil)))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration(pageSize: 1), initialCursor: 1)
        let result = await feed.loadAll()
        #expect(result == LoadAllResult(pagesLoaded: 3, itemsApplied: 3, ending: .reachedEnd))
        #expect(feed.currentSnapshot.ids == [0, 1, 2])
        #expect(Set(feed.currentSnapshot.ids).count == 3)
        #expect(await feed.cursors == FeedCursors(previous: nil, next: nil, reachedEnd: true, reachedStart: true))
    }

    @Test("BidirectionalPaginationTests.test_loadAll_async: the pages take time on the clock; one answer at the end")
    func bidirectional_test_loadAll_async() async {
        let source = PostSource()
        source.enqueue(
            .page(Page(items: posts(1..<2), previous: 0, next: 2), latency: .seconds(1)),
            .page(Page(items: posts(0..<1), previous: nil, next: 1), latency: .seconds(1)),
            .page(Page(items: posts(2..<3), previous: 1, next: nil), latency: .seconds(1)))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration(pageSize: 1), initialCursor: 1)
        let loading = Task { await feed.loadAll() }
        for request in 1...3 {
            #expect(await source.waitForRequests(request))
            #expect(await clock.waitForSleepers(1))
            clock.advance(by: .seconds(1))
        }
        let result = await loading.value
        #expect(result == LoadAllResult(pagesLoaded: 3, itemsApplied: 3, ending: .reachedEnd))
        #expect(feed.currentSnapshot.ids == [0, 1, 2])
    }

    @Test("GraphQLQueryPagerTests.test_errors_noData_loadAll: a first page that fails is that failure, not 'no first page'")
    func pager_test_errors_noData_loadAll() async {
        let source = PostSource()
        source.enqueue(.failure(ServerError(code: 500)))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration(loadsInitialPage: false))
        let result = await feed.loadAll(refreshingFirst: true)
        let failure = FeedFailure(error: ServerError(code: 500), side: .refresh, attempt: 1)
        #expect(result == LoadAllResult(pagesLoaded: 0, itemsApplied: 0, ending: .failed(failure)))
        #expect(result.failure == failure)
        #expect(feed.currentSnapshot.isEmpty)
        #expect(source.requests.count == 1)
    }

    @Test("GraphQLQueryPagerTests.test_errors_noDataOnSecondPage_loadAll: the first page stays, the failure answers")
    func pager_test_errors_noDataOnSecondPage_loadAll() async {
        let source = PostSource()
        source.enqueue(pageResponse(0, latency: .zero), .failure(ServerError(code: 500)))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration(loadsInitialPage: false))
        let result = await feed.loadAll()
        let failure = FeedFailure(error: ServerError(code: 500), side: .loadMore, attempt: 1)
        #expect(result == LoadAllResult(pagesLoaded: 1, itemsApplied: 15, ending: .failed(failure)))
        #expect(feed.currentSnapshot.ids == Array(0..<15))
    }
}

@Suite("loadAll")
struct LoadAllTests {
    let clock = TestClock()

    @Test("maximumPages stops after that many pages, the first page included")
    func maximumPages() async {
        let source = PostSource(responder: { request in pageResponse(request.cursor ?? 0, latency: .zero) })
        let feed = PostFeed(source: source, clock: clock, configuration: configuration(loadsInitialPage: false))
        let result = await feed.loadAll(maximumPages: 3)
        #expect(result == LoadAllResult(pagesLoaded: 3, itemsApplied: 45, ending: .reachedLimit))
        #expect(feed.currentSnapshot.count == 45)
        let none = await feed.loadAll(maximumPages: 0)
        #expect(none == LoadAllResult(pagesLoaded: 0, itemsApplied: 0, ending: .reachedLimit))
        #expect(source.requests.count == 3)
    }

    @Test("maximumItems stops once the pages loaded applied that many items, the last page kept whole")
    func maximumItems() async {
        let source = PostSource(responder: { request in pageResponse(request.cursor ?? 0, latency: .zero) })
        let feed = PostFeed(source: source, clock: clock, configuration: configuration())
        #expect(await feed.waitForFirstPage().outcome == .completed(LoadSummary(itemsApplied: 15)))
        let result = await feed.loadAll(maximumItems: 20) // the first page was there before: not counted
        #expect(result == LoadAllResult(pagesLoaded: 2, itemsApplied: 30, ending: .reachedLimit))
        #expect(feed.currentSnapshot.count == 45)
    }

    @Test("a load-more in flight is joined, not fetched twice")
    func joinsALoadInFlight() async {
        let source = PostSource()
        source.enqueue(pageResponse(0, latency: .zero), pageResponse(1, latency: .seconds(2)), pageResponse(2, last: true, latency: .zero))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration())
        _ = await feed.waitForFirstPage()
        let loadingMore = Task { await feed.loadMore() }
        #expect(await source.waitForRequests(2))
        let loadingAll = Task { await feed.loadAll() }
        #expect(await clock.waitForSleepers(1))
        clock.advance(by: .seconds(2))
        let result = await loadingAll.value
        #expect(await loadingMore.value.outcome == .completed(LoadSummary(itemsApplied: 15)))
        // Whether loadAll reached the feed before the load-more's page landed (it joins it and
        // counts it) or after (it counts only the last page) is up to the scheduler; either way
        // page 1 is fetched once.
        #expect(result == LoadAllResult(pagesLoaded: 2, itemsApplied: 30, ending: .reachedEnd)
                    || result == LoadAllResult(pagesLoaded: 1, itemsApplied: 15, ending: .reachedEnd), "\(result)")
        #expect(source.requests.map(\.cursor) == [nil, 1, 2])
        #expect(feed.currentSnapshot.ids == Array(0..<45))
    }

    @Test("the feed's retry applies: a failed page is retried after its backoff on the clock")
    func retries() async {
        let source = PostSource()
        source.enqueue(pageResponse(0, latency: .zero), .failure(ServerError(code: 503)), pageResponse(1, last: true, latency: .zero))
        let retry = RetryPolicy(maximumAttempts: 2, initialBackoff: .seconds(1))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration(loadsInitialPage: false, retry: retry))
        let loading = Task { await feed.loadAll() }
        #expect(await clock.waitForSleepers(1))
        clock.advance(by: .seconds(1))
        let result = await loading.value
        #expect(result == LoadAllResult(pagesLoaded: 2, itemsApplied: 30, ending: .reachedEnd))
        #expect(source.requests.map(\.attempt) == [1, 1, 2])
    }

    @Test("a repeated cursor ends the call with that failure; the next call is ignored by the guard")
    func repeatedCursor() async {
        let source = PostSource()
        source.enqueue(pageResponse(0, latency: .zero), .page(posts(15..<30), next: 1))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration(loadsInitialPage: false))
        let result = await feed.loadAll()
        let failure = FeedFailure(error: FeedError.repeatedCursor("1"), side: .loadMore, attempt: 1)
        #expect(result == LoadAllResult(pagesLoaded: 1, itemsApplied: 15, ending: .failed(failure)))
        #expect(feed.currentSnapshot.count == 30) // the page was applied, its cursor not followed
        #expect(await feed.loadAll().ending == .ignored(.stoppedByGuard))
    }

    @Test("duplicates dropped by the feed are counted")
    func duplicates() async {
        let source = PostSource()
        source.enqueue(.page(posts(0..<3), next: 1), .page(posts(2..<5), next: nil))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration(pageSize: 3, loadsInitialPage: false))
        let result = await feed.loadAll()
        #expect(result == LoadAllResult(pagesLoaded: 2, itemsApplied: 5, droppedDuplicates: 1, ending: .reachedEnd))
    }

    @Test("with a bound, pages are dropped as usual: the call reaches the end, the list keeps the newest pages")
    func bound() async {
        let source = PostSource()
        source.enqueue(
            .page(Page(items: posts(0..<15), previous: nil, next: 1)),
            .page(Page(items: posts(15..<30), previous: 0, next: 2)),
            .page(Page(items: posts(30..<45), previous: 1, next: 3)),
            .page(Page(items: posts(45..<60), previous: 2, next: nil)))
        let feed = PostFeed(source: source, clock: clock, configuration: boundedConfiguration(maximumItems: 30))
        let result = await feed.loadAll()
        // The end is reached; the start was dropped, and loadAll does not walk back to it.
        #expect(result == LoadAllResult(pagesLoaded: 4, itemsApplied: 60, ending: .reachedEnd))
        #expect(feed.currentSnapshot.ids == Array(30..<60))
        #expect(await feed.cursors == FeedCursors(previous: 1, next: nil, reachedEnd: true, reachedStart: false))
        #expect(source.requests.map(\.side) == [.refresh, .loadMore, .loadMore, .loadMore])
    }

    @Test("cancelling the calling task lets the load in flight end and starts no other")
    func callerCancelled() async {
        let source = PostSource()
        source.enqueue(pageResponse(0, latency: .zero), pageResponse(1, latency: .seconds(1)), pageResponse(2, last: true, latency: .zero))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration())
        _ = await feed.waitForFirstPage()
        let loading = Task { await feed.loadAll() }
        #expect(await source.waitForRequests(2))
        #expect(await clock.waitForSleepers(1))
        loading.cancel()
        clock.advance(by: .seconds(1))
        let result = await loading.value
        #expect(result == LoadAllResult(pagesLoaded: 1, itemsApplied: 15, ending: .callerCancelled))
        #expect(source.requests.count == 2)
        #expect(feed.currentSnapshot.count == 30)
    }

    @Test("a closed feed answers ignored(closed)")
    func closed() async {
        let feed = PostFeed(source: PostSource(), clock: clock, configuration: configuration(loadsInitialPage: false))
        await feed.close()
        #expect(await feed.loadAll().ending == .ignored(.closed))
    }
}

@Suite("loadAll and a refresh in flight")
struct LoadAllRefreshInFlightTests {
    let clock = TestClock()

    @Test("a refresh in flight is joined and counted, not cancelled by the first load-more")
    func joinsARefresh() async {
        let source = PostSource()
        source.enqueue(pageResponse(0, latency: .zero), pageResponse(0, latency: .seconds(1)), pageResponse(1, last: true, latency: .zero))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration(loadsInitialPage: false))
        _ = await feed.refresh()
        let refreshing = Task { await feed.refresh() }
        #expect(await source.waitForRequests(2))
        #expect(await clock.waitForSleepers(1))
        let loading = Task { await feed.loadAll() }
        // Whichever reaches the feed first, loadAll or the page, the refresh must complete: a
        // load-more started while it is in flight would cancel it (the default policy). (When
        // the page lands first, loadAll finds no refresh to join, and the test checks less.)
        clock.advance(by: .seconds(1))
        #expect(await refreshing.value.outcome == .completed(LoadSummary(itemsApplied: 15)))
        let result = await loading.value
        #expect(result.ending == .reachedEnd)
        #expect(source.requests.map(\.side) == [.refresh, .refresh, .loadMore])
        #expect(feed.currentSnapshot.ids == Array(0..<30))
    }
}
