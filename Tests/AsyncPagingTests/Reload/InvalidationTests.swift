import AsyncPaging
import AsyncPagingTesting
import Testing

/// `invalidate()` and `followInvalidations(_:)` on the test clock: the list reloads around the
/// row on screen, the change says where that row's item went, and loads, edits, the bound and
/// repeated invalidations follow the documented rules. Paging 3's invalidation and refresh-key
/// cases (`PageFetcherSnapshotTest`, `PageFetcherTest`) are named where they are translated.
@Suite("Invalidation")
struct InvalidationTests {
    let clock = TestClock()

    /// A feed restored with pages `pages` of `data` (no request), keeping page cursors.
    func restoredFeed(
        _ data: ChangingData, _ source: PostSource, pages: Range<Int> = 0..<500,
        configuration: FeedConfiguration = reloadConfiguration()
    ) throws -> PostFeed {
        PostFeed(
            source: source, clock: clock, configuration: configuration, restoring: try data.state(pages: pages),
            restorePolicy: .never)
    }

    @Test("Paging 3 PageFetcherSnapshotTest refresh key: an invalidation reloads the page holding the anchor, which stays on screen")
    func reloadsTheAnchorsPage() async throws {
        let data = ChangingData()
        let source = data.source()
        let feed = try restoredFeed(data, source)
        #expect(feed.currentSnapshot.count == 10_000)
        feed.reportVisibleRows(5_000..<5_010)
        let before = feed.currentSnapshot[5_000].id
        data.insertAtTop(5) // five new posts above: every post moves down five rows
        #expect(await feed.invalidate() == .completed(.refresh, applied: 20))
        #expect(source.requests.map(\.cursor) == [250], "one page, the anchor's")
        let after = feed.currentSnapshot
        #expect(after.change == .reloaded(FeedAnchorMove(from: 5_000, to: 5)))
        #expect(after[5].id == before, "the same item, at the index the change names")
        #expect(after.ids == Array(4_995..<5_015))
        #expect(await feed.cursors == FeedCursors(previous: 249, next: 251, reachedEnd: false, reachedStart: false))
    }

    @Test("Paging 3 PageFetcherSnapshotTest currentPagingState_noHint: without rows on screen the list's first page reloads")
    func withoutRowsTheFirstPageReloads() async throws {
        let data = ChangingData()
        let source = data.source()
        let feed = try restoredFeed(data, source, pages: 40..<43)
        data.insertAtTop(1)
        #expect(await feed.invalidate() == .completed(.refresh, applied: 20))
        #expect(source.requests.map(\.cursor) == [40], "the cursor the list's first page was fetched with")
        #expect(feed.currentSnapshot.change == .replaced)
        #expect(feed.currentSnapshot.ids == Array(799..<819))
    }

    @Test("Paging 3 PagingSource.getRefreshKey: the reload policy names the cursor for the anchor")
    func theRefreshCursorPolicy() async throws {
        let data = ChangingData()
        let source = data.source()
        let feed = try restoredFeed(data, source, pages: 0..<10)
        let anchors = Locked<[String]>([])
        await feed.setReloadPolicy(ReloadPolicy(refreshCursor: { anchor in
            anchors.withLock { $0.append("\(anchor.item.id) at \(anchor.index), page \(anchor.pageCursor ?? -1)[\(anchor.indexInPage)]") }
            return (anchor.pageCursor ?? 0) - 1 // the page before: the anchor is its neighbour's
        }))
        feed.reportVisibleRows(105..<110, prefetchDistance: 3)
        _ = await feed.invalidate()
        #expect(anchors.withLock { $0 } == ["105 at 105, page 5[5]"])
        #expect(source.requests.map(\.cursor) == [4])
        #expect(feed.currentSnapshot.change == .reloaded(FeedAnchorMove(from: 105, to: nil)), "page 4 no longer holds it")
    }

    @Test("a feed that keeps no page cursors reloads its first page; the anchor is found by id")
    func withoutPageCursors() async throws {
        let data = ChangingData()
        let source = data.source()
        let feed = PostFeed(source: source, clock: clock, configuration: reloadConfiguration(keepsPageCursors: false))
        await initialLoadEnded(feed)
        _ = await feed.loadMore()
        feed.reportVisibleRows(12..<18)
        data.insertAtTop(3)
        #expect(await feed.invalidate() == .completed(.refresh, applied: 20))
        #expect(source.requests.map(\.cursor) == [nil, 1, nil])
        #expect(feed.currentSnapshot.change == .reloaded(FeedAnchorMove(from: 12, to: 15)))
        #expect(feed.currentSnapshot[15].id == 12)
    }

    @Test("a feed without ids keeps the anchor's place in its page")
    func withoutIDs() async throws {
        let data = ChangingData()
        let source = ScriptedPageSource<Int, Int> { request in
            let page = data.page(request.cursor)
            return .page(Page(items: page.items.map(\.id), previous: page.previous, next: page.next))
        }
        let feed = FeedController<Int, Int>(
            source: source, clock: clock, configuration: reloadConfiguration(), initialCursor: 7)
        await initialLoadEnded(feed)
        _ = await feed.loadPrevious()
        feed.reportVisibleRows(25..<30)
        #expect(await feed.invalidate() == .completed(.refresh, applied: 20))
        #expect(source.requests.map(\.cursor) == [7, 6, 7])
        #expect(feed.currentSnapshot.change == .reloaded(FeedAnchorMove(from: 25, to: 5)))
    }

    @Test("Paging 3 PageFetcherSnapshotTest: after a reload both ends load on from the new page's cursors")
    func bothEndsLoadOnAfterAReload() async throws {
        let data = ChangingData()
        let source = data.source()
        let feed = try restoredFeed(data, source, pages: 0..<30)
        feed.reportVisibleRows(410..<420)
        _ = await feed.invalidate()
        #expect(await feed.loadMore() == .completed(.loadMore, applied: 20))
        #expect(await feed.loadPrevious() == .completed(.loadPrevious, applied: 20))
        #expect(source.requests.map(\.cursor) == [20, 21, 19])
        #expect(feed.currentSnapshot.ids == Array(380..<440))
    }

    @Test("Paging 3 PageFetcherTest invalidate: loads at both ends in flight are cancelled and their pages never shown")
    func loadsInFlightAreCancelled() async throws {
        let data = ChangingData(latency: .seconds(2))
        let source = data.source()
        let feed = try restoredFeed(data, source, pages: 10..<13)
        let log = await PublishedListLog(feed)
        feed.reportVisibleRows(25..<30)
        async let more = feed.loadMore()
        async let previous = feed.loadPrevious()
        #expect(await source.waitForRequests(2))
        data.insertAtTop(1)
        async let reload = feed.invalidate()
        #expect(await source.waitForRequests(3))
        clock.advance(by: .seconds(2))
        #expect(await more == LoadResult(side: .loadMore, outcome: .cancelled(.preemptedByRefresh)))
        #expect(await previous == LoadResult(side: .loadPrevious, outcome: .cancelled(.preemptedByRefresh)))
        #expect(await reload == .completed(.refresh, applied: 20))
        #expect(Set(source.requests.map(\.cursor)) == [13, 9, 11] && source.requests.last?.cursor == 11)
        #expect(!log.everShowed { $0.id == 260 || $0.id == 180 }, "the pages of the cancelled loads were never applied")
        #expect(feed.currentSnapshot.change == .reloaded(FeedAnchorMove(from: 25, to: 6)))
    }

    @Test("Paging 3 PageFetcherTest invalidate during refresh: invalidations during a fetch coalesce; its stale page is never applied")
    func invalidationsCoalesce() async throws {
        let data = ChangingData(latency: .seconds(2))
        let source = data.source()
        let feed = try restoredFeed(data, source, pages: 0..<20)
        let log = await PublishedListLog(feed)
        let diagnostics = StreamRecorder(feed.diagnostics)
        feed.reportVisibleRows(250..<260)
        data.insertAtTop(1)
        async let first = feed.invalidate()
        #expect(await source.waitForRequests(1)) // page 12 with one new post: 239..<259
        data.insertAtTop(1)
        async let second = feed.invalidate()
        async let third = feed.invalidate()
        _ = await (feed.currentStatus, feed.cursors) // the joins are in before the answer
        clock.advance(by: .seconds(2))
        #expect(await source.waitForRequests(2), "the stale answer is dropped and the page fetched again")
        clock.advance(by: .seconds(2))
        let results = await [first, second, third]
        #expect(results.map(\.outcome) == Array(repeating: .completed(LoadSummary(itemsApplied: 20)), count: 3))
        #expect(results.map(\.joinedInFlightLoad).filter { $0 }.count == 2)
        #expect(source.requests.map(\.cursor) == [12, 12], "two fetches for three invalidations")
        #expect(!log.lists.contains { $0.ids == Array(239..<259) }, "the stale page (239..<259) was never applied")
        #expect(feed.currentSnapshot.ids == Array(238..<258))
        #expect(await diagnostics.waitFor { $0 == .staleResultDiscarded(side: .refresh, attempt: 1, succeeded: true) } != nil)
    }

    @Test("loads at the ends are ignored while a reload is in flight: the reload wins")
    func aReloadWinsOverLoadsAtTheEnds() async throws {
        let data = ChangingData(latency: .seconds(1))
        let source = data.source()
        let feed = try restoredFeed(data, source, pages: 3..<5)
        async let reload = feed.invalidate()
        #expect(await source.waitForRequests(1))
        #expect(await feed.loadMore() == LoadResult(side: .loadMore, outcome: .ignored(.refreshInFlight)))
        #expect(await feed.loadPrevious() == LoadResult(side: .loadPrevious, outcome: .ignored(.refreshInFlight)))
        clock.advance(by: .seconds(1))
        #expect(await reload == .completed(.refresh, applied: 20))
        #expect(source.requests.count == 1)
    }

    @Test("a refresh() during a reload restarts it (RefreshDuringRefreshPolicy.restart)")
    func aRefreshRestartsAReload() async throws {
        let data = ChangingData(latency: .seconds(1))
        let source = data.source()
        let feed = try restoredFeed(data, source, pages: 3..<5)
        feed.reportVisibleRows(30..<35)
        async let reload = feed.invalidate()
        #expect(await source.waitForRequests(1))
        async let refresh = feed.refresh()
        #expect(await source.waitForRequests(2))
        clock.advance(by: .seconds(1))
        #expect(await reload == LoadResult(side: .refresh, outcome: .cancelled(.supersededByNewerRequest)))
        #expect(await refresh == .completed(.refresh, applied: 20))
        #expect(source.requests.map(\.cursor) == [4, 3])
        #expect(feed.currentSnapshot.change == .replaced)
    }

    @Test("edits made while a reload is in flight are replaced with the list")
    func editsDuringAReload() async throws {
        let data = ChangingData(latency: .seconds(1))
        let source = data.source()
        let feed = try restoredFeed(data, source, pages: 0..<3)
        feed.reportVisibleRows(22..<25)
        async let reload = feed.invalidate()
        #expect(await source.waitForRequests(1))
        #expect(try await feed.remove(ids: [21, 24]) == [21, 24])
        #expect(feed.currentSnapshot.count == 58)
        clock.advance(by: .seconds(1))
        #expect(await reload == .completed(.refresh, applied: 20))
        #expect(feed.currentSnapshot.ids == Array(20..<40), "the source's page, the removed posts with it")
        #expect(feed.currentSnapshot.change == .reloaded(FeedAnchorMove(from: 21, to: 2)), "found by id in the edited list")
    }

    @Test("on a bounded feed the reloaded page replaces the list, and the ends load on under the bound")
    func onABoundedFeed() async throws {
        let data = ChangingData()
        let source = data.source()
        let feed = PostFeed(
            source: source, clock: clock, configuration: reloadConfiguration(maximumItems: 60, keepsPageCursors: false),
            initialCursor: 100)
        await initialLoadEnded(feed)
        for _ in 0..<4 { _ = await feed.loadMore() }
        #expect(feed.currentSnapshot.ids == Array(2_040..<2_100), "pages 102...104 kept")
        feed.reportVisibleRows(25..<30)
        data.insertAtTop(2)
        #expect(await feed.invalidate() == .completed(.refresh, applied: 20))
        #expect(source.requests.map(\.cursor).suffix(1) == [103])
        #expect(feed.currentSnapshot.change == .reloaded(FeedAnchorMove(from: 25, to: 7)))
        for _ in 0..<3 { _ = await feed.loadMore() }
        #expect(feed.currentSnapshot.count == 60)
        _ = await feed.loadPrevious()
        #expect(feed.currentSnapshot.count == 60)
    }

    @Test("before the first page an invalidation loads it; after close it is ignored")
    func beforeTheFirstPageAndAfterClose() async throws {
        let data = ChangingData()
        let source = data.source()
        let feed = PostFeed(source: source, clock: clock, configuration: reloadConfiguration(loadsInitialPage: false))
        #expect(await feed.invalidate() == .completed(.refresh, applied: 20))
        #expect(source.requests.map(\.cursor) == [nil])
        await feed.close()
        #expect(await feed.invalidate() == LoadResult(side: .refresh, outcome: .ignored(.closed)))
    }

    @Test("Paging 3 PageFetcherTest refresh_fromPagingSource: a followed sequence of invalidations reloads; following ends on close")
    func followedInvalidations() async throws {
        let data = ChangingData()
        let source = data.source()
        let feed = try restoredFeed(data, source, pages: 0..<5)
        let snapshots = StreamRecorder(feed.snapshots)
        let (invalidations, continuation) = AsyncStream<Void>.makeStream()
        let (ended, endedContinuation) = AsyncStream<Void>.makeStream()
        continuation.onTermination = { _ in endedContinuation.finish() }
        feed.followInvalidations(invalidations)
        feed.reportVisibleRows(45..<50)
        data.insertAtTop(4)
        continuation.yield(())
        let reloaded = await snapshots.waitFor { if case .reloaded = $0.change { true } else { false } }
        #expect(reloaded?.change == .reloaded(FeedAnchorMove(from: 45, to: 9)))
        #expect(source.requests.map(\.cursor) == [2])
        await feed.close()
        for await _ in ended {} // the following task was cancelled: the stream ended
        guard case .terminated = continuation.yield(()) else {
            Issue.record("the followed sequence is still iterated after close")
            return
        }
        #expect(source.requests.count == 1)
    }
}
