import AsyncPaging
import AsyncPagingTesting
import Testing

/// ``RefreshMode/refetchLoaded`` on the test clock: every loaded page fetched again in order,
/// the list replaced once at the end. TanStack Query's refetch cases (`infiniteQueryBehavior`,
/// `useInfiniteQuery`), which recorded the gap, are named where they are translated.
@Suite("Refetch what is loaded")
struct RefetchTests {
    let clock = TestClock()

    func feed(
        _ source: PostSource, at cursor: Int? = nil, maximumItems: Int? = nil, retry: RetryPolicy = .none
    ) async -> PostFeed {
        let feed = PostFeed(
            source: source, clock: clock,
            configuration: reloadConfiguration(refreshMode: .refetchLoaded, maximumItems: maximumItems, keepsPageCursors: false, retry: retry),
            initialCursor: cursor)
        await initialLoadEnded(feed)
        return feed
    }

    @Test("TanStack infiniteQueryBehavior refetch: after pages 0 and 1, a refetch fetches [0, 1]")
    func refetchesPagesZeroAndOne() async {
        let data = ChangingData()
        let source = data.source()
        let feed = await feed(source)
        _ = await feed.loadMore()
        let before = feed.currentSnapshot.version
        data.insertAtTop(3)
        #expect(await feed.refresh() == .completed(.refresh, applied: 40))
        #expect(source.requests.map(\.cursor) == [nil, 1, nil, 1], "page 0 is the first page of the data: cursor nil")
        #expect(feed.currentSnapshot.version == before + 1, "one published list")
        #expect(feed.currentSnapshot.change == .replaced)
        #expect(feed.currentSnapshot.ids == [-3, -2, -1] + Array(0..<37))
        #expect(await feed.cursors == FeedCursors(previous: nil, next: 2, reachedEnd: false, reachedStart: true))
    }

    @Test("TanStack useInfiniteQuery should be able to refetch when providing page params automatically: pages [9, 10, 11]")
    func refetchesNineTenEleven() async {
        let data = ChangingData()
        let source = data.source()
        let feed = await feed(source, at: 10)
        _ = await feed.loadMore()
        _ = await feed.loadPrevious()
        #expect(await feed.refresh() == .completed(.refresh, applied: 60))
        #expect(source.requests.map(\.cursor) == [10, 11, 9, 9, 10, 11])
        #expect(feed.currentSnapshot.ids == Array(180..<240))
        #expect(await feed.loadMore() == .completed(.loadMore, applied: 20), "the ends load on from the refetched edges")
        #expect(source.requests.last?.cursor == 12)
    }

    @Test("TanStack infiniteQueryBehavior refetch stops when a page names no next page: the data got shorter")
    func stopsWhenTheDataEnds() async {
        let data = ChangingData(count: 100)
        let source = PostSource { request in
            // After the first round the data is two pages long.
            let page = data.page(request.cursor)
            let shortened = data.insertedAtTop.withLock { $0 } > 0 && (request.cursor ?? 0) >= 1
            return .page(Page(items: page.items, previous: page.previous, next: shortened ? nil : page.next))
        }
        let feed = await feed(source)
        for _ in 0..<3 { _ = await feed.loadMore() }
        data.insertAtTop(1)
        #expect(await feed.refresh() == .completed(.refresh, applied: 40, reachedEnd: true))
        #expect(source.requests.map(\.cursor) == [nil, 1, 2, 3, nil, 1])
        #expect(feed.currentLoadStates.loadMore == .reachedEnd)
    }

    @Test("refetch of 50 loaded pages: exactly 50 requests, one published list")
    func fiftyPages() async {
        let data = ChangingData()
        let source = data.source()
        let feed = await feed(source)
        for _ in 0..<49 { _ = await feed.loadMore() }
        let requestsBefore = source.requests.count
        let log = await PublishedListLog(feed)
        #expect(await feed.refresh() == .completed(.refresh, applied: 1_000))
        #expect(source.requests.count - requestsBefore == 50)
        #expect(source.requests.suffix(50).map(\.cursor) == [nil] + Array(1..<50).map(Optional.some))
        #expect(log.lists.count == 2, "the list it found, and the refetched list: \(log.versions)")
    }

    @Test("a failing page fails the refetch and leaves the list as it was; retry() runs the whole refetch")
    func aFailureLeavesTheList() async {
        let data = ChangingData()
        let source = data.source()
        let feed = await feed(source)
        for _ in 0..<2 { _ = await feed.loadMore() }
        let before = feed.currentSnapshot
        data.failing.withLock { $0 = [1] }
        let result = await feed.refresh()
        guard case .failed = result.outcome else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(source.requests.map(\.cursor).suffix(2) == [nil, 1])
        #expect(feed.currentSnapshot.version == before.version, "nothing was replaced")
        data.failing.withLock { $0 = [] }
        data.insertAtTop(1)
        #expect(await feed.retry() == .completed(.refresh, applied: 60))
        #expect(source.requests.map(\.cursor).suffix(3) == [nil, 1, 2])
        #expect(feed.currentSnapshot.ids == [-1] + Array(0..<59))
    }

    @Test("TanStack useInfiniteQuery should silently cancel any ongoing fetch when fetching more: a load-more cancels the refetch, the list stays")
    func aLoadMoreCancelsARefetch() async {
        let data = ChangingData(latency: .seconds(1))
        let source = data.source()
        let feed = PostFeed(
            source: source, clock: clock, configuration: reloadConfiguration(refreshMode: .refetchLoaded),
            restoring: try? data.state(pages: 0..<3), restorePolicy: .never)
        let log = await PublishedListLog(feed)
        data.insertAtTop(1)
        async let refetch = feed.refresh()
        #expect(await source.waitForRequests(1))
        clock.advance(by: .seconds(1)) // page 0 came; page 1 is in flight
        #expect(await source.waitForRequests(2))
        async let more = feed.loadMore()
        #expect(await source.waitForRequests(3))
        #expect(await refetch == LoadResult(side: .refresh, outcome: .cancelled(.preemptedByLoadMore)))
        clock.advance(by: .seconds(1))
        // Page 3 of the changed data (59..<79) lands on the old list: 59 is a duplicate there.
        #expect(await more == .completed(.loadMore, applied: 19, dropped: 1))
        #expect(!log.everShowed { $0.id == -1 }, "no page of the cancelled refetch was applied")
        #expect(feed.currentSnapshot.ids == Array(0..<79))
    }

    @Test("edits during a refetch are replaced with the list; an invalidation during it refetches from the first page")
    func editsAndInvalidationDuringARefetch() async throws {
        let data = ChangingData(latency: .seconds(1))
        let source = data.source()
        let feed = PostFeed(
            source: source, clock: clock, configuration: reloadConfiguration(refreshMode: .refetchLoaded),
            restoring: try data.state(pages: 0..<2), restorePolicy: .never)
        let log = await PublishedListLog(feed)
        async let refetch = feed.refresh()
        #expect(await source.waitForRequests(1))
        clock.advance(by: .seconds(1))
        #expect(await source.waitForRequests(2)) // page 1 in flight
        _ = try await feed.remove(ids: [3])
        data.insertAtTop(2)
        async let invalidation = feed.invalidate()
        _ = await feed.cursors
        clock.advance(by: .seconds(1)) // page 1's stale answer: dropped, the refetch starts over
        #expect(await source.waitForRequests(3))
        clock.advance(by: .seconds(1))
        #expect(await source.waitForRequests(4))
        clock.advance(by: .seconds(1))
        #expect(await refetch == .completed(.refresh, applied: 40))
        #expect(await invalidation == .completed(.refresh, applied: 40, joined: true))
        // A restored first page is fetched with the cursor the state names for it (0).
        #expect(source.requests.map(\.cursor) == [0, 1, 0, 1])
        #expect(feed.currentSnapshot.ids == [-2, -1] + Array(0..<38), "the edit went with the old list")
        #expect(log.lists.dropFirst().map(\.change) == [.removed([3]), .replaced], "replaced once, after the edit")
    }

    @Test("on a bounded feed the refetched list is trimmed to the bound")
    func boundedRefetch() async {
        let data = ChangingData()
        let grown = Locked(false)
        let source = PostSource { request in
            // Once grown, each page holds five more posts (ids 100,000 + 10 × cursor + k).
            let page = data.page(request.cursor)
            let extra = grown.withLock { $0 } ? (0..<5).map { Post(id: 100_000 + 10 * (request.cursor ?? 0) + $0) } : []
            return .page(Page(items: page.items + extra, previous: page.previous, next: page.next))
        }
        let feed = await feed(source, at: 5, maximumItems: 60)
        for _ in 0..<4 { _ = await feed.loadMore() }
        #expect(feed.currentSnapshot.ids == Array(140..<200), "pages 7...9 under the bound")
        grown.withLock { $0 = true }
        #expect(await feed.refresh() == .completed(.refresh, applied: 75))
        #expect(source.requests.map(\.cursor).suffix(3) == [7, 8, 9])
        // 75 items over the bound of 60: page 7 goes, as when a page lands at the end.
        #expect(feed.currentSnapshot.count == 50)
        #expect(feed.currentSnapshot.ids.prefix(20) == ArraySlice(160..<180))
        #expect(await feed.cursors == FeedCursors(previous: 7, next: 10, reachedEnd: false, reachedStart: false))
    }
}
