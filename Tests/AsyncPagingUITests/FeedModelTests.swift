import AsyncPaging
import AsyncPagingTesting
import AsyncPagingUI
import Testing

@Suite("FeedModel") @MainActor
struct FeedModelTests {
    /// Suspends until the model shows `count` items, the status is idle and no request of the
    /// model is waiting for its answer.
    func settle(_ model: FeedModel<Int, Int>, count: Int) async {
        await waitUntil { model.items.count == count && model.status == .idle && model.requestsInFlight == 0 }
    }

    // MARK: Mirroring

    @Test func itMirrorsTheInitialLoad() async {
        let (feed, _, clock) = makeController(page(0..<15, next: 1, latency: .seconds(2)))
        let model = FeedModel(controller: feed)
        #expect(model.isRefreshing)
        #expect(model.items.isEmpty)
        #expect(model.footer?.state == .invalid) // nothing to append to while the first page loads
        await waitUntil { model.header?.state == .loading }

        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        await waitUntil { model.status == .idle && model.header?.state == .stopped }
        #expect(Array(model.items) == Array(0..<15))
        #expect(!model.isRefreshing && !model.isLoadingMore && !model.isEndOfData)
        #expect(model.failure == nil)
        #expect(model.footer?.state == .stopped)
    }

    @Test func aModelOfAFeedAtItsEndStartsThere() async {
        let (feed, _, _) = makeController(page(0..<5, next: nil))
        let statuses = StreamRecorder(feed.statuses)
        await statuses.waitFor { $0 == .endOfData }
        let model = FeedModel(controller: feed)
        #expect(model.isEndOfData)
        #expect(model.items.count == 5)
        #expect(model.footer?.state == .invalid)
        #expect(model.header?.state == .stopped)
    }

    @Test func refreshReturnsWithItsPageInPlace() async {
        let (feed, _, _) = makeController(page(0..<15, next: 1), page(100..<110, next: 1))
        let model = FeedModel(controller: feed)
        await settle(model, count: 15)
        let result = await model.refresh()
        #expect(result.outcome == .completed(LoadSummary(itemsApplied: 10)))
        #expect(Array(model.items) == Array(100..<110))
    }

    @Test func loadMoreReturnsWithItsPageInPlace() async {
        let (feed, _, _) = makeController(page(0..<15, next: 1), page(15..<20, next: nil))
        let model = FeedModel(controller: feed)
        await settle(model, count: 15)
        let result = await model.loadMore()
        #expect(result.outcome == .completed(LoadSummary(itemsApplied: 5, reachedEnd: true)))
        #expect(model.items.count == 20)
        await waitUntil { model.isEndOfData }
    }

    @Test func closingTheControllerMakesEveryActionUnavailable() async {
        let (feed, _, _) = makeController(page(0..<15, next: 1))
        let model = FeedModel(controller: feed)
        await settle(model, count: 15)
        await feed.close()
        await waitUntil { model.status == .closed }
        #expect(model.header?.state == .invalid)
        #expect(model.footer?.state == .invalid)
        #expect(model.rowAppeared(at: 14) == .skip(.closed))
    }

    // MARK: Prefetch

    @Test func aBouncingLastRowLoadsOnce() async {
        let (feed, source, clock) = makeController(
            page(0..<15, next: 1), page(15..<30, next: 2, latency: .seconds(1)))
        let model = FeedModel(controller: feed)
        await settle(model, count: 15)

        let decisions = (0..<5).map { _ in model.rowAppeared(at: 14) }
        #expect(decisions == [.loadMore] + Array(repeating: .skip(.loadInFlight), count: 4))
        await waitUntil { model.isLoadingMore }
        #expect(model.rowAppeared(at: 14) == .skip(.loadInFlight))

        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        await settle(model, count: 30)
        #expect(model.rowAppeared(at: 14) == .skip(.notNearEnd))
        #expect(source.requests.map(\.side) == [.refresh, .loadMore])
    }

    @Test func thePrefetchDistanceLoadsBeforeTheLastRow() async {
        let (feed, source, _) = makeController(page(0..<15, next: 1), page(15..<30, next: 2))
        let model = FeedModel(controller: feed, prefetch: PrefetchTrigger(prefetchDistance: 5))
        await settle(model, count: 15)
        #expect(model.rowAppeared(at: 8) == .skip(.notNearEnd))
        #expect(model.visibleRowsChanged(0..<9) == .skip(.notNearEnd))
        #expect(model.visibleRowsChanged(0..<10) == .loadMore)
        await settle(model, count: 30)
        #expect(source.requests.map(\.cursor) == [nil, 1])
    }

    @Test func theEndOfTheDataStopsLoadingMore() async {
        let (feed, source, _) = makeController(page(0..<15, next: 1), page(15..<20, next: nil))
        let model = FeedModel(controller: feed)
        await settle(model, count: 15)
        #expect(model.rowAppeared(at: 14) == .loadMore)
        await waitUntil { model.isEndOfData && model.requestsInFlight == 0 }
        #expect(model.items.count == 20)
        #expect(model.rowAppeared(at: 19) == .skip(.endOfData))
        let bottom = FeedScrollGeometry(contentOffset: 400, contentHeight: 1_200, viewportHeight: 800)
        #expect(model.scrolled(bottom) == .skip(.endOfData))
        #expect(source.requests.count == 2)
    }

    @Test func afterAFailureNothingLoadsUntilRetry() async {
        let (feed, source, _) = makeController(
            page(0..<15, next: 1), .failure(Offline()), page(15..<30, next: 2), page(30..<35, next: nil))
        let model = FeedModel(controller: feed)
        await settle(model, count: 15)
        #expect(model.rowAppeared(at: 14) == .loadMore)
        await waitUntil { model.failure != nil && model.requestsInFlight == 0 }
        #expect(model.failure == FeedFailure(error: Offline(), side: .loadMore, attempt: 1))
        #expect(model.rowAppeared(at: 14) == .skip(.failed))
        #expect(model.rowAppeared(at: 14) == .skip(.failed))

        let result = await model.retry()
        #expect(result.outcome == .completed(LoadSummary(itemsApplied: 15)))
        #expect(model.items.count == 30)
        await settle(model, count: 30)
        #expect(model.rowAppeared(at: 29) == .loadMore)
        await waitUntil { model.isEndOfData && model.requestsInFlight == 0 }
        #expect(source.requests.map(\.attempt) == [1, 1, 2, 1])
    }

    @Test func aRefreshInFlightBlocksPrefetchFromTheRelease() async {
        let (feed, source, clock) = makeController(
            page(0..<15, next: 1), page(100..<115, next: 1, latency: .seconds(1)))
        let model = FeedModel(controller: feed)
        await settle(model, count: 15)
        model.pullHeader(by: 100)
        model.releasePull()
        // The refresh has not reached the controller yet, but it is in flight already.
        #expect(model.rowAppeared(at: 14) == .skip(.loadInFlight))
        await clock.waitForSleepers(1)
        #expect(model.rowAppeared(at: 14) == .skip(.loadInFlight))
        clock.advance(by: .seconds(1))
        await waitUntil { model.items.first == 100 && model.status == .idle && model.requestsInFlight == 0 }
        #expect(source.requests.map(\.side) == [.refresh, .refresh])
    }

    @Test func scrollingToTheBottomLoadsMoreAndPullsTheGestures() async {
        let (feed, source, _) = makeController(page(0..<15, next: 1), page(15..<30, next: 2))
        let model = FeedModel(controller: feed, prefetch: PrefetchTrigger(bottomDistance: 100))
        await settle(model, count: 15)
        let pulledDown = FeedScrollGeometry(contentOffset: -30, contentHeight: 1_500, viewportHeight: 800)
        #expect(model.scrolled(pulledDown) == .skip(.notNearEnd))
        #expect(model.header?.progress == 0.5)
        let nearBottom = FeedScrollGeometry(contentOffset: 600, contentHeight: 1_500, viewportHeight: 800)
        #expect(model.scrolled(nearBottom) == .loadMore)
        #expect(model.header?.progress == 0)
        #expect(model.scrolled(nearBottom) == .skip(.loadInFlight))
        await settle(model, count: 30)
        #expect(source.requests.count == 2)
    }

    @Test func anIdentifiableItemFindsItsRow() async {
        let source = ScriptedPageSource<Post, Int>()
        source.enqueue(.page((0..<15).map(Post.init), next: 1), .page((15..<30).map(Post.init), next: nil))
        let model = FeedModel(
            controller: FeedController(source: source, clock: TestClock()),
            prefetch: PrefetchTrigger(prefetchDistance: 2))
        await waitUntil { model.items.count == 15 && model.status == .idle }
        #expect(model.rowAppeared(Post(id: 3)) == .skip(.notNearEnd))
        #expect(model.rowAppeared(Post(id: 11)) == .skip(.notNearEnd))
        #expect(model.rowAppeared(Post(id: 99)) == .skip(.notNearEnd))
        #expect(model.rowAppeared(Post(id: 12)) == .loadMore)
        await waitUntil { model.items.count == 30 && model.requestsInFlight == 0 }
    }

    // MARK: Gestures

    @Test func releasingATriggeredHeaderRefreshes() async {
        let (feed, _, clock) = makeController(page(0..<15, next: 1), page(100..<115, next: 1, latency: .seconds(1)))
        let model = FeedModel(controller: feed, header: .header(threshold: 80))
        await settle(model, count: 15)
        model.pullHeader(by: 40)
        #expect(model.header?.state == .stopped)
        #expect(model.header?.progress == 0.5)
        model.pullHeader(by: 90)
        #expect(model.header?.state == .triggered)
        model.releasePull()
        #expect(model.header?.state == .loading)
        await waitUntil { model.isRefreshing }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        await waitUntil { model.header?.state == .stopped }
        #expect(model.items.first == 100)
    }

    @Test func releasingATriggeredFooterLoadsMoreUntilTheEnd() async {
        let (feed, _, clock) = makeController(page(0..<15, next: 1), page(15..<30, next: nil, latency: .seconds(1)))
        let model = FeedModel(controller: feed)
        await settle(model, count: 15)
        model.pullFooter(by: 30)
        #expect(model.footer?.state == .stopped)
        model.pullFooter(by: 60)
        #expect(model.footer?.state == .triggered)
        model.releasePull()
        #expect(model.footer?.state == .loading)
        #expect(model.header?.state == .stopped)
        await waitUntil { model.isLoadingMore }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        await waitUntil { model.footer?.state == .invalid && model.requestsInFlight == 0 }
        #expect(model.items.count == 30)
        #expect(model.isEndOfData)
    }

    @Test func aFooterIsInvalidWhileARefreshItCouldNotCancelRuns() async {
        let (feed, source, clock) = makeController(
            page(0..<15, next: 1), page(100..<115, next: 1, latency: .seconds(1)),
            configuration: configuration(loadMoreDuringRefresh: .ignoreLoadMore))
        let model = FeedModel(controller: feed)
        await settle(model, count: 15)
        #expect(model.footer?.state == .stopped)
        let refresh = Task { await model.refresh() }
        await waitUntil { model.isRefreshing }
        #expect(model.footer?.state == .invalid)
        model.pullFooter(by: 100)
        #expect(model.footer?.state == .invalid)
        #expect(model.footer?.progress == 0)
        model.releasePull()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        _ = await refresh.value
        await settle(model, count: 15)
        #expect(model.footer?.state == .stopped)
        #expect(source.requests.map(\.side) == [.refresh, .refresh])
    }

    @Test func aFooterPullCancelsAPendingHeaderRefreshAndItsData() async {
        let (feed, source, clock) = makeController(
            page(0..<15, next: 1),
            page(100..<115, next: 1, latency: .seconds(2)),
            page(15..<30, next: 2, latency: .seconds(2)))
        let model = FeedModel(controller: feed)
        await settle(model, count: 15)
        model.pullHeader(by: 100)
        model.releasePull()
        await waitUntil { model.isRefreshing }
        #expect(model.footer?.state == .stopped) // a load-more may cancel this refresh

        model.pullFooter(by: 100)
        model.releasePull()
        #expect(model.footer?.state == .loading)
        await waitUntil { model.isLoadingMore && model.header?.state == .stopped }
        // The refresh's fetch is cancelled before the load-more's starts.
        await source.waitForRequests(3)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        await settle(model, count: 30)
        #expect(Array(model.items) == Array(0..<30))
        #expect(model.footer?.state == .stopped)
        #expect(model.header?.state == .stopped)
    }

    @Test func aReleasedModelIsFreed() async {
        let (feed, _, _) = makeController(page(0..<15, next: 1))
        var model: FeedModel? = FeedModel(controller: feed)
        if let model { await settle(model, count: 15) }
        weak let released = model
        model = nil
        #expect(released == nil)
    }

    @Test func gesturesAreOptional() async {
        let (feed, source, _) = makeController(page(0..<15, next: 1))
        let model = FeedModel(controller: feed, header: nil, footer: nil)
        await settle(model, count: 15)
        model.pullHeader(by: 100)
        model.pullFooter(by: 100)
        model.releasePull()
        #expect(model.header == nil)
        #expect(model.footer == nil)
        #expect(model.requestsInFlight == 0)
        #expect(source.requests.count == 1)
    }
}

/// An identifiable item.
struct Post: Identifiable, Sendable, Hashable {
    let id: Int
}
