import AsyncPaging
import AsyncPagingTesting
import Testing

/// A feed opened in the middle of its data and grown at both ends, on the test clock: the
/// controller carries out the two-ended rules (the machine's tests have them all) and
/// publishes what a UI needs — prepends in the snapshot, per-side load states, both cursors.
@Suite("Both ends")
struct BothEndsControllerTests {
    let clock = TestClock()

    /// Pages 0...9 of 10 posts each: page `c` has posts `10c..<10c+10`, `previous` `c - 1` and
    /// `next` `c + 1` (none before page 0 or after page 9). Each answer takes `latency`;
    /// `ignoresCancellation` makes every answer arrive even when cancelled.
    func source(latency: Duration = .seconds(1), ignoresCancellation: Bool = false) -> PostSource {
        PostSource { request in
            let index = request.cursor ?? 0
            let page = Page(
                items: posts(index * 10..<index * 10 + 10), previous: index > 0 ? index - 1 : nil,
                next: index < 9 ? index + 1 : nil)
            return .page(page, latency: latency, ignoresCancellation: ignoresCancellation)
        }
    }

    /// A feed opened at page 5 (posts 50..<60), after its first page landed (a source without
    /// latency answers at once: nothing sleeps, there is no time to let pass).
    func openedFeed(_ source: PostSource, latency: Duration = .seconds(1)) async -> PostFeed {
        let feed = PostFeed(source: source, clock: clock, configuration: configuration(), initialCursor: 5)
        if latency > .zero {
            await clock.waitForSleepers(1)
            clock.advance(by: latency)
        }
        await initialLoadEnded(feed)
        return feed
    }

    @Test("a feed created at a cursor opens there, with both cursors and both ends loadable")
    func opensAtACursor() async {
        let source = source()
        let feed = await openedFeed(source)
        #expect(source.requests.map(\.cursor) == [5])
        #expect(feed.currentSnapshot.ids == Array(50..<60))
        #expect(await feed.cursors == FeedCursors(previous: 4, next: 6, reachedEnd: false, reachedStart: false))
        #expect(feed.currentLoadStates == .idle)
    }

    @Test("loadPrevious prepends the page before the first; older snapshots and indices stay valid")
    func loadPreviousPrepends() async {
        let feed = await openedFeed(source())
        let before = feed.currentSnapshot
        async let result = feed.loadPrevious()
        await clock.waitForSleepers(1)
        #expect(feed.currentLoadStates.loadPrevious == .loading)
        #expect(feed.currentStatus == .loadingPrevious)
        clock.advance(by: .seconds(1))
        #expect(await result == LoadResult(side: .loadPrevious, outcome: .completed(LoadSummary(itemsApplied: 10))))
        let after = feed.currentSnapshot
        #expect(after.ids == Array(40..<60))
        #expect(after.change == .prepended(0..<10))
        #expect(after.change.prependedCount == 10)
        #expect(after.change(since: before) == .prepended(0..<10))
        #expect(before.ids == Array(50..<60), "an older snapshot keeps its items")
        #expect(after[3 + after.change.prependedCount] == before[3], "an older index moves by the prepended count")
        #expect(await feed.cursors.previous == 3)
    }

    @Test("both ends load at once; a UI sees both loading, then both land at their own end")
    func bothEndsAtOnce() async {
        let feed = await openedFeed(source())
        let states = StreamRecorder(feed.loadStates)
        async let older = feed.loadPrevious()
        async let newer = feed.loadMore()
        await clock.waitForSleepers(2)
        let bothLoading = FeedLoadStates(refresh: .idle, loadPrevious: .loading, loadMore: .loading)
        #expect(await states.waitFor { $0 == bothLoading } != nil)
        clock.advance(by: .seconds(1))
        #expect(await older.outcome == .completed(LoadSummary(itemsApplied: 10)))
        #expect(await newer.outcome == .completed(LoadSummary(itemsApplied: 10)))
        #expect(feed.currentSnapshot.ids == Array(40..<70))
        #expect(feed.currentLoadStates == .idle)
    }

    @Test("a refresh cancels both ends; their late pages are never applied")
    func refreshCancelsBothEnds() async {
        let source = source(ignoresCancellation: true)
        let feed = await openedFeed(source)
        let events = StreamRecorder(feed.events)
        let diagnostics = StreamRecorder(feed.diagnostics)
        async let older = feed.loadPrevious()
        async let newer = feed.loadMore()
        await clock.waitForSleepers(2)
        async let refreshed = feed.refresh()
        #expect(await older.outcome == .cancelled(.preemptedByRefresh))
        #expect(await newer.outcome == .cancelled(.preemptedByRefresh))
        await clock.waitForSleepers(3)
        clock.advance(by: .seconds(1))
        #expect(await refreshed.outcome == .completed(LoadSummary(itemsApplied: 10)))
        // The two cancelled fetches still answered (they ignore cancellation): both dropped.
        #expect(await diagnostics.waitForCount(2).allSatisfy {
            if case .staleResultDiscarded(_, _, succeeded: true) = $0 { true } else { false }
        })
        #expect(feed.currentSnapshot.ids == Array(0..<10))
        let ended = await events.waitForCount(6).filter { if case .ended = $0 { true } else { false } }
        #expect(ended.map(\.description).sorted() == [
            FeedEvent.ended(.loadMore, .cancelled(.preemptedByRefresh)), .ended(.loadPrevious, .cancelled(.preemptedByRefresh)),
            .ended(.refresh, .completed),
        ].map(\.description).sorted())
    }

    @Test("the start of the data shows while the end loads: per-side states say both")
    func reachedStartShowsWhileTheEndLoads() async {
        let feed = PostFeed(source: source(), clock: clock, configuration: configuration(), initialCursor: 1)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        await initialLoadEnded(feed)
        async let older = feed.loadPrevious()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(await older == LoadResult(side: .loadPrevious, outcome: .completed(LoadSummary(itemsApplied: 10, reachedEnd: true))))
        #expect(await feed.loadPrevious() == LoadResult(side: .loadPrevious, outcome: .endOfData))
        async let newer = feed.loadMore()
        await clock.waitForSleepers(1)
        #expect(feed.currentLoadStates == FeedLoadStates(refresh: .idle, loadPrevious: .reachedEnd, loadMore: .loading))
        clock.advance(by: .seconds(1))
        _ = await newer
        #expect(feed.currentSnapshot.ids == Array(0..<30))
        #expect(await feed.cursors == FeedCursors(previous: nil, next: 3, reachedEnd: false, reachedStart: true))
    }

    @Test("close while both ends load: no side reads loading afterwards, and the stream ends saying so")
    func closeLeavesNoSideLoading() async {
        let feed = await openedFeed(source())
        let states = StreamRecorder(feed.loadStates)
        async let older = feed.loadPrevious()
        async let newer = feed.loadMore()
        await clock.waitForSleepers(2)
        await feed.close()
        #expect(await older.outcome == .cancelled(.closed))
        #expect(await newer.outcome == .cancelled(.closed))
        #expect(!feed.currentLoadStates.isLoading)
        #expect(feed.currentStatus == .closed)
        #expect(await states.waitForFinish().last?.isLoading == false)
    }

    @Test("releasing a feed while both ends load ends both and leaves no side loading")
    func releaseLeavesNoSideLoading() async {
        var feed: PostFeed? = await openedFeed(source())
        let states = StreamRecorder(feed!.loadStates)
        let events = StreamRecorder(feed!.events)
        feed!.send(.loadPrevious)
        feed!.send(.loadMore)
        await clock.waitForSleepers(2)
        feed = nil
        #expect(await states.waitForFinish().last?.isLoading == false)
        let ended = await events.waitForFinish().filter { if case .ended(_, .cancelled(.closed)) = $0 { true } else { false } }
        #expect(ended.count == 2)
    }

    @Test("refresh(from:) reopens the list at another cursor")
    func refreshFromACursor() async {
        let feed = await openedFeed(source())
        async let reopened = feed.refresh(from: 8)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(await reopened.outcome == .completed(LoadSummary(itemsApplied: 10)))
        #expect(feed.currentSnapshot.ids == Array(80..<90))
        #expect(feed.currentSnapshot.change == .replaced)
        #expect(await feed.cursors == FeedCursors(previous: 7, next: 9, reachedEnd: false, reachedStart: false))
    }

    @Test("a prepended page drops items already in the list, and counts them")
    func duplicatesInAPrepend() async {
        let source = PostSource()
        source.enqueue(
            .page(Page(items: posts(50..<60), previous: 4, next: 6)),
            .page(Page(items: posts(45..<55), previous: 3, next: 5)))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration(), initialCursor: 5)
        await initialLoadEnded(feed)
        #expect(await feed.loadPrevious().outcome == .completed(LoadSummary(itemsApplied: 5, droppedDuplicates: 5)))
        #expect(feed.currentSnapshot.ids == Array(45..<60))
    }

    @Test("a slow subscriber that skipped versions learns that both ends grew")
    func changeSinceAcrossBothEnds() async {
        let feed = await openedFeed(source(latency: .zero), latency: .zero)
        let opened = feed.currentSnapshot
        _ = await feed.loadPrevious()
        _ = await feed.loadMore()
        let grown = feed.currentSnapshot
        #expect(grown.change(since: opened) == .extended(prepended: 0..<10, appended: 20..<30))
        #expect(grown.ids == Array(40..<70))
    }

    @Test("retry(side) runs that side's failed load again")
    func retryOfOneSide() async {
        let source = PostSource()
        source.enqueue(
            .page(Page(items: posts(50..<60), previous: 4, next: 6)),
            .failure(ServerError(code: 503)),
            .page(Page(items: posts(40..<50), previous: 3, next: 5)))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration(), initialCursor: 5)
        await initialLoadEnded(feed)
        let failed = await feed.loadPrevious()
        #expect(failed.outcome == .failed(FeedFailure(error: ServerError(code: 503), side: .loadPrevious, attempt: 1)))
        #expect(feed.currentLoadStates.loadPrevious == .failed(FeedFailure(error: ServerError(code: 503), side: .loadPrevious, attempt: 1)))
        #expect(await feed.retry(.loadMore) == LoadResult(side: .loadMore, outcome: .ignored(.nothingToRetry)))
        #expect(await feed.retry(.loadPrevious) == LoadResult(side: .loadPrevious, outcome: .completed(LoadSummary(itemsApplied: 10))))
        #expect(source.requests.map(\.cursor) == [5, 4, 4])
        #expect(source.requests.map(\.side) == [.refresh, .loadPrevious, .loadPrevious])
        #expect(feed.currentSnapshot.ids == Array(40..<60))
    }
}
