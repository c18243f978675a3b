import AsyncPaging
import AsyncPagingTesting
import AsyncPagingUI
import Testing

/// The model at both ends of the list: the prefetch at the top, the fill rule, the buffered
/// hints and the index bookkeeping across prepends. Pages are numbered: page `c` holds
/// `10c..<10c+10` (see `numberedSource`).
@Suite("FeedModel at both ends") @MainActor
struct FeedModelBothEndsTests {
    /// No request of the model is unanswered and no side is loading.
    func isSettled(_ model: FeedModel<Int, Int>) -> Bool {
        model.requestsInFlight == 0 && !model.loadStates.isLoading
    }

    func cursors(_ source: Source) -> [Int?] { source.requests.map(\.cursor) }

    // MARK: The top

    @Test func aFeedOpenedInTheMiddleLoadsOlderNearTheTopAndKeepsItsRowsAcrossThePrepend() async {
        let source = numberedSource(pages: 10)
        let (feed, _) = makeController(source: source, initialCursor: 5)
        let model = FeedModel(controller: feed, prefetch: PrefetchTrigger(prefetchDistance: 2))
        await waitUntil { model.items.count == 10 && isSettled(model) }
        #expect(Array(model.items) == Array(50..<60))
        #expect(model.loadStates == FeedLoadStates(refresh: .idle, loadPrevious: .idle, loadMore: .idle))
        #expect(!model.isAtStartOfData)

        #expect(model.visibleRowsChanged(3..<7) == .skip(.notNearEnd))
        #expect(model.visibleRowsChanged(2..<7) == .loadPrevious)
        await waitUntil { model.items.count == 20 && isSettled(model) }
        #expect(Array(model.items) == Array(40..<60))
        #expect(model.items.change == .prepended(0..<10))
        // The remembered rows moved down by the ten prepended rows (12..<17 now): far from both
        // ends, so nothing more loads. Had they stayed at 2..<7, the top would load again.
        #expect(source.requests.map(\.side) == [.refresh, .loadPrevious])
        #expect(cursors(source) == [5, 4])

        #expect(model.visibleRowsChanged(12..<18) == .loadMore)
        await waitUntil { model.items.count == 30 && isSettled(model) }
        #expect(Array(model.items) == Array(40..<70))
        #expect(cursors(source) == [5, 4, 6])
    }

    @Test func theTopShowsLoadingOlderThenTheStartOfTheData() async {
        let source = numberedSource(pages: 10, overrides: [0: [page(0..<10, previous: nil, next: 1, latency: .seconds(1))]])
        let (feed, clock) = makeController(source: source, initialCursor: 1)
        let model = FeedModel(controller: feed, prefetch: PrefetchTrigger(prefetchDistance: 2))
        await waitUntil { model.items.count == 10 && isSettled(model) }

        #expect(model.rowAppeared(at: 0) == .loadPrevious)
        await waitUntil { model.isLoadingPrevious }
        #expect(model.status == .loadingPrevious)
        #expect(!model.isLoadingMore)
        #expect(model.rowAppeared(at: 0) == .skip(.loadInFlight)) // a bouncing top row loads once
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        await waitUntil { model.items.count == 20 && isSettled(model) }
        #expect(model.isAtStartOfData)
        #expect(model.loadStates.loadPrevious == .reachedEnd)
        #expect(!model.isEndOfData) // the summary status speaks of the end of the list
        #expect(model.status == .idle)
        // At the start of the data the top loads nothing; the summary tells the end's reason.
        #expect(model.rowAppeared(at: 0) == .skip(.notNearEnd))
        #expect(cursors(source) == [1, 0])
    }

    @Test func aFailedTopDoesNotStopTheBottom() async {
        let source = numberedSource(pages: 10, overrides: [4: [.failure(Offline())]])
        let (feed, _) = makeController(source: source, initialCursor: 5)
        let model = FeedModel(controller: feed, prefetch: PrefetchTrigger(prefetchDistance: 2))
        await waitUntil { model.items.count == 10 && isSettled(model) }

        // Ten rows on screen: near both ends, and both load at once (BothEndsPolicy.runBoth).
        #expect(model.visibleRowsChanged(0..<10) == .loadMore)
        await waitUntil { model.items.count == 20 && isSettled(model) && model.loadStates.loadPrevious != .idle }
        #expect(model.loadStates.loadPrevious == .failed(FeedFailure(error: Offline(), side: .loadPrevious, attempt: 1)))
        #expect(Array(model.items) == Array(50..<70))
        #expect(model.rowAppeared(at: 0) == .skip(.failed))
        #expect(model.rowAppeared(at: 19) == .loadMore)
        await waitUntil { model.items.count == 30 && isSettled(model) }
        #expect(cursors(source).count == 4)
        #expect(Set(cursors(source)) == [5, 4, 6, 7])

        // A retry of the top runs it again; it prepends.
        let retried = await model.retry()
        #expect(retried.side == .loadPrevious)
        #expect(retried.outcome == .completed(LoadSummary(itemsApplied: 10)))
        #expect(model.items.first == 40)
    }

    @Test func anIdentifiableFirstItemLoadsOlder() async {
        let source = ScriptedPageSource<Post, Int>()
        source.enqueue(
            .page(Page(items: (50..<60).map(Post.init), previous: 4, next: 6)),
            .page(Page(items: (40..<50).map(Post.init), previous: 3, next: 5)))
        let model = FeedModel(
            controller: FeedController(source: source, clock: TestClock(), initialCursor: 5),
            prefetch: PrefetchTrigger(prefetchDistance: 1))
        await waitUntil { model.items.count == 10 && model.status == .idle }
        #expect(model.rowAppeared(Post(id: 52)) == .skip(.notNearEnd))
        #expect(model.rowAppeared(Post(id: 51)) == .loadPrevious)
        await waitUntil { model.items.count == 20 && model.requestsInFlight == 0 }
        #expect(model.items.first == Post(id: 40))
    }

    @Test func theGeometryNearTheTopLoadsOlder() async {
        let source = numberedSource(pages: 10)
        let (feed, _) = makeController(source: source, initialCursor: 5)
        let model = FeedModel(controller: feed, prefetch: PrefetchTrigger(bottomDistance: 100, topDistance: 100))
        await waitUntil { model.items.count == 10 && isSettled(model) }
        let middle = FeedScrollGeometry(contentOffset: 300, contentHeight: 1_000, viewportHeight: 400)
        #expect(model.scrolled(middle) == .skip(.notNearEnd))
        let nearTop = FeedScrollGeometry(contentOffset: 80, contentHeight: 1_000, viewportHeight: 400)
        #expect(model.scrolled(nearTop) == .loadPrevious)
        #expect(model.scrolled(nearTop) == .skip(.loadInFlight))
        await waitUntil { model.items.count == 20 && isSettled(model) }
        #expect(cursors(source) == [5, 4])
    }

    @Test func extremeRowsNeverTrap() async {
        let source = numberedSource(pages: 2)
        let (feed, _) = makeController(source: source, initialCursor: 1)
        let model = FeedModel(controller: feed)
        await waitUntil { model.items.count == 10 && isSettled(model) }
        #expect(model.rowAppeared(at: .min) == .skip(.notNearEnd))
        #expect(model.rowAppeared(at: .max) == .skip(.endOfData)) // past the end: near it, and it is done
        #expect(model.visibleRowsChanged((Int.max - 5)..<Int.max) == .skip(.endOfData))
        // The prepend would move the remembered rows past Int.max: they are dropped instead.
        let result = await model.loadPrevious()
        #expect(result.outcome == .completed(LoadSummary(itemsApplied: 10, reachedEnd: true)))
        #expect(model.visibleRowsChanged(Int.min..<(Int.min + 1)) == .skip(.notNearEnd))
        #expect(cursors(source) == [1, 0])
    }

    // MARK: The fill rule

    @Test func oneHintKeepsLoadingAtTheEndUntilTheDistanceIsFilled() async {
        let source = numberedSource(pages: 10)
        let (feed, _) = makeController(source: source)
        let model = FeedModel(controller: feed, prefetch: PrefetchTrigger(prefetchDistance: 25))
        await waitUntil { model.items.count == 10 && isSettled(model) }
        #expect(model.visibleRowsChanged(0..<10) == .loadMore)
        // 20 items: the last row is 10 from the end, within 25: again; 30: 20, again; 40: 30, filled.
        await waitUntil { model.items.count == 40 && isSettled(model) }
        #expect(cursors(source) == [nil, 1, 2, 3])
        #expect(source.requests.map(\.side) == [.refresh, .loadMore, .loadMore, .loadMore])
    }

    @Test func oneHintKeepsLoadingAtTheStartUntilTheDistanceIsFilled() async {
        let source = numberedSource(pages: 10)
        let (feed, _) = makeController(source: source, initialCursor: 9)
        let model = FeedModel(controller: feed, prefetch: PrefetchTrigger(prefetchDistance: 25))
        await waitUntil { model.items.count == 10 && isSettled(model) }
        #expect(model.loadStates.loadMore == .reachedEnd)
        #expect(model.visibleRowsChanged(0..<10) == .loadPrevious)
        // Each prepend moves the rows down by ten: 10..<20, 20..<30 (within 25), 30..<40 (filled).
        await waitUntil { model.items.count == 40 && isSettled(model) }
        #expect(cursors(source) == [9, 8, 7, 6])
        #expect(Array(model.items) == Array(60..<100))
    }

    @Test func theFillStopsAtTheEndOfTheData() async {
        let source = numberedSource(pages: 3)
        let (feed, _) = makeController(source: source)
        let model = FeedModel(controller: feed, prefetch: PrefetchTrigger(prefetchDistance: 100))
        await waitUntil { model.items.count == 10 && isSettled(model) }
        model.visibleRowsChanged(0..<10)
        await waitUntil { model.items.count == 30 && isSettled(model) && model.isEndOfData }
        #expect(cursors(source) == [nil, 1, 2])
    }

    @Test func theFillStopsAtAFailureAndGoesOnAfterTheRetry() async {
        let source = numberedSource(pages: 10, overrides: [2: [.failure(Offline())]])
        let (feed, _) = makeController(source: source)
        let model = FeedModel(controller: feed, prefetch: PrefetchTrigger(prefetchDistance: 25))
        await waitUntil { model.items.count == 10 && isSettled(model) }
        model.visibleRowsChanged(0..<10)
        await waitUntil { model.failure != nil && isSettled(model) }
        #expect(model.items.count == 20)
        #expect(cursors(source) == [nil, 1, 2])

        let retried = await model.retry()
        #expect(retried.outcome == .completed(LoadSummary(itemsApplied: 10)))
        // The retry's page landed with the rows still within 25 rows of the end: one more.
        await waitUntil { model.items.count == 40 && isSettled(model) }
        #expect(cursors(source) == [nil, 1, 2, 2, 3])
    }

    @Test func bothEndsFillAtOnce() async {
        let source = numberedSource(pages: 10)
        let (feed, _) = makeController(source: source, initialCursor: 5)
        let model = FeedModel(controller: feed, prefetch: PrefetchTrigger(prefetchDistance: 12))
        await waitUntil { model.items.count == 10 && isSettled(model) }
        #expect(model.visibleRowsChanged(0..<10) == .loadMore)
        // Rows 0..<10 of 10: both ends load. After both landed (30 items, rows 10..<20): 10 from
        // the top and 10 from the bottom, both within 12: both load again; then 20 and 20.
        await waitUntil { model.items.count == 50 && isSettled(model) }
        #expect(Array(model.items) == Array(30..<80))
        #expect(Set(cursors(source)) == [5, 4, 6, 3, 7])
        #expect(cursors(source).count == 5)
    }

    @Test func underCancelOtherTheEndsFillOneAtATime() async {
        let source = numberedSource(pages: 10)
        let (feed, _) = makeController(source: source, configuration: configuration(bothEnds: .cancelOther), initialCursor: 5)
        let model = FeedModel(controller: feed, prefetch: PrefetchTrigger(prefetchDistance: 5))
        await waitUntil { model.items.count == 10 && isSettled(model) }
        // Both ends are near; the end loads first, and the top only once the end has landed.
        #expect(model.visibleRowsChanged(0..<10) == .loadMore)
        await waitUntil { model.items.count == 30 && isSettled(model) }
        #expect(cursors(source) == [5, 6, 4])
        #expect(Array(model.items) == Array(40..<70))
    }

    @Test func aRefreshDropsTheRememberedRows() async {
        let source = numberedSource(pages: 10)
        let (feed, _) = makeController(source: source, initialCursor: 5)
        let model = FeedModel(controller: feed, prefetch: PrefetchTrigger(prefetchDistance: 2))
        await waitUntil { model.items.count == 10 && isSettled(model) }
        #expect(model.visibleRowsChanged(4..<8) == .loadMore)
        await waitUntil { model.items.count == 20 && isSettled(model) }
        // The refresh replaces the list with page 0: the old rows mean nothing in it.
        let refreshed = await model.refresh()
        #expect(refreshed.outcome == .completed(LoadSummary(itemsApplied: 10)))
        await waitUntil { isSettled(model) }
        #expect(cursors(source) == [5, 6, nil])
    }

    // MARK: Buffered hints

    @Test func aHintDuringARefreshThatWinsIsReplayedWhenItEnds() async {
        let (feed, source, clock) = makeController(
            page(0..<15, next: 1), page(100..<115, next: 1, latency: .seconds(1)), page(115..<130, next: 2),
            configuration: configuration(loadMoreDuringRefresh: .ignoreLoadMore))
        let model = FeedModel(controller: feed)
        await waitUntil { model.items.count == 15 && isSettled(model) }
        let refresh = Task { await model.refresh() }
        await waitUntil { model.isRefreshing }
        // The last row appears while the refresh runs: nothing is sent, the hint is kept.
        #expect(model.rowAppeared(at: 14) == .skip(.loadInFlight))
        await clock.waitForSleepers(1)
        #expect(source.requests.count == 2)
        clock.advance(by: .seconds(1))
        _ = await refresh.value
        await waitUntil { model.items.count == 30 && isSettled(model) }
        #expect(Array(model.items) == Array(100..<130))
        #expect(source.requests.map(\.side) == [.refresh, .refresh, .loadMore])
    }

    @Test func aLoadIgnoredWhileTheFirstPageLoadsIsReplayedAfterIt() async {
        let (feed, source, clock) = makeController(page(0..<15, next: 1, latency: .seconds(1)), page(15..<30, next: 2))
        let model = FeedModel(controller: feed)
        await clock.waitForSleepers(1)
        let ignored = await model.loadMore()
        #expect(ignored.outcome == .ignored(.firstPageLoading))
        clock.advance(by: .seconds(1))
        await waitUntil { model.items.count == 30 && isSettled(model) }
        #expect(source.requests.map(\.side) == [.refresh, .loadMore])
    }

    @Test func aTopLoadIgnoredForARefreshIsReplayedToo() async {
        let source = numberedSource(pages: 10, overrides: [3: [page(30..<40, previous: 2, next: 4, latency: .seconds(1))]])
        let (feed, clock) = makeController(
            source: source, configuration: configuration(loadPreviousDuringRefresh: .ignoreLoadPrevious), initialCursor: 5)
        let model = FeedModel(controller: feed)
        await waitUntil { model.items.count == 10 && isSettled(model) }
        let jump = Task { await feed.refresh(from: 3) }
        await waitUntil { model.isRefreshing }
        let ignored = await model.loadPrevious()
        #expect(ignored.outcome == .ignored(.refreshInFlight))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        _ = await jump.value
        await waitUntil { model.items.count == 20 && isSettled(model) }
        #expect(Array(model.items) == Array(20..<40))
        #expect(cursors(source) == [5, 3, 2])
    }

    @Test func aHintDuringARefreshItWouldCancelIsNotKept() async {
        let (feed, source, clock) = makeController(
            page(0..<15, next: 1), page(100..<115, next: 1, latency: .seconds(1)))
        let model = FeedModel(controller: feed)
        await waitUntil { model.items.count == 15 && isSettled(model) }
        let refresh = Task { await model.refresh() }
        await waitUntil { model.isRefreshing }
        // Scrolling does not cancel a refresh (the default policy would), and keeps no hint.
        #expect(model.rowAppeared(at: 14) == .skip(.loadInFlight))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        _ = await refresh.value
        await waitUntil { model.items.first == 100 && isSettled(model) }
        #expect(source.requests.map(\.side) == [.refresh, .refresh])
    }

    // MARK: Observation

    @Test func theModelFollowsAChangeOfOneSideAlone() async {
        let source = numberedSource(
            pages: 10, overrides: [4: [.failure(Offline())], 6: [page(60..<70, previous: 5, next: 7, latency: .seconds(1))]])
        let (feed, clock) = makeController(source: source, initialCursor: 5)
        let model = FeedModel(controller: feed)
        await waitUntil { model.items.count == 10 && isSettled(model) }
        // Sent past the model: only the per-side states tell it that the top failed while the
        // bottom loads (the list and the summary status stay the same).
        feed.send(.loadMore)
        await waitUntil { model.isLoadingMore }
        feed.send(.loadPrevious)
        await waitUntil { model.loadStates.loadPrevious != .idle && !model.isLoadingPrevious }
        #expect(model.status == .loadingMore)
        #expect(model.loadStates.loadPrevious == .failed(FeedFailure(error: Offline(), side: .loadPrevious, attempt: 1)))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        await waitUntil { model.items.count == 20 && isSettled(model) }
    }
}
