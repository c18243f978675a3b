import AsyncPaging
import AsyncPagingTesting
import OfflineFeedKit
import Testing

/// The remote cases of Paging 3's `PageFetcherSnapshotTest` (and of `RemoteMediatorTest`'s
/// contract), translated onto ``OfflineFeed``: the list is read from the database, the mediator
/// fills it at the ends and on refresh, a local write reloads it, a restart shows what is
/// stored before any network answer, and a failing network leaves the list usable with the
/// failing side in the feed's load states. Each test uses a database file of its own.
@Suite("Offline feed (Paging 3 PageFetcherSnapshotTest, remote cases)")
struct OfflineFeedTests {
    /// A feed on `test`'s database with 10-item pages, on a test clock.
    func makeFeed(_ test: TestDatabase, _ mediator: ScriptedMediator) throws -> OfflineFeed {
        try OfflineFeed(
            database: test.database, mediator: mediator, initialAction: mediator.initialAction,
            clock: TestClock(), pageSize: 10)
    }

    @Test("requestLoadIfRefreshAllowed_simple (LAUNCH_INITIAL_REFRESH, through the feed): the empty stored list, then the network's first page through the database")
    func initialLoadTriggersRefresh() async throws {
        let test = try TestDatabase()
        defer { test.remove() }
        let mediator = ScriptedMediator(database: test.database, initialAction: .launchInitialRefresh)
        let feed = try makeFeed(test, mediator)
        let start = await feed.start()
        #expect(start.stored.outcome == .completed(LoadSummary(itemsApplied: 0, reachedEnd: true)))
        #expect(start.network?.outcome == .completed(LoadSummary(itemsApplied: 10)))
        #expect(feed.controller.currentSnapshot.map(\.id) == Array(0..<10))
        #expect(mediator.loads == [.refresh])
        await feed.close()
    }

    @Test("remoteMediator_initializeSkip (PageFetcherTest) and requestLoadIfRefreshAllowed_noop: SKIP_INITIAL_REFRESH shows the stored list only; the network is not asked")
    func skipInitialRefresh() async throws {
        let test = try TestDatabase()
        defer { test.remove() }
        let mediator = ScriptedMediator(database: test.database, initialAction: .skipInitialRefresh)
        try await test.database.storeRefresh(mediator.items(0..<10), next: "10")
        let feed = try makeFeed(test, mediator)
        let start = await feed.start()
        #expect(start.network == nil)
        #expect(feed.controller.currentSnapshot.map(\.id) == Array(0..<10))
        #expect(mediator.loads.isEmpty)
        await feed.close()
    }

    @Test("remoteMediator_initialLoadErrorTriggersLocal (its order: the remote refresh loading, the local list delivered): a restart shows the stored list before the network answers")
    func restartShowsStoredListFirst() async throws {
        let first = try TestDatabase()
        defer { first.remove() }
        // The previous run stored two pages.
        let seeding = ScriptedMediator(database: first.database)
        try await first.database.storeRefresh(seeding.items(0..<10), next: "10")
        try await first.database.storeAppend(seeding.items(10..<20), next: "20")
        // The restart: the same file, a mediator whose refresh waits for the test.
        let test = try first.reopen()
        let mediator = ScriptedMediator(database: test.database, initialAction: .launchInitialRefresh, gated: true)
        let feed = try makeFeed(test, mediator)
        let snapshots = StreamRecorder(feed.controller.snapshots)
        var started = mediator.started.makeAsyncIterator()
        let start = Task { await feed.start() }
        #expect(await started.next() == .refresh)  // the network refresh runs, not answered yet
        let stored = await snapshots.waitFor { $0.count == 10 }
        #expect(stored?.map(\.id) == Array(0..<10))
        #expect(feed.controller.currentLoadStates.refresh == .loading)
        mediator.answer(.refresh)
        let result = await start.value
        #expect(result.stored.outcome == .completed(LoadSummary(itemsApplied: 10)))
        #expect(result.network?.outcome == .completed(LoadSummary(itemsApplied: 10)))
        #expect(try await test.database.count() == 10)  // the refresh replaced the stored rows
        await feed.close()
        snapshots.cancel()
    }

    @Test("remoteMediator_initialLoadTriggersAppend: stored pages come from the database; past them the mediator stores the network's next page")
    func appendAtBoundaryTriggersMediator() async throws {
        let test = try TestDatabase()
        defer { test.remove() }
        let mediator = ScriptedMediator(database: test.database)
        try await test.database.storeRefresh(mediator.items(0..<10), next: "10")
        try await test.database.storeAppend(mediator.items(10..<20), next: "20")
        let feed = try makeFeed(test, mediator)
        _ = await feed.start()
        #expect(await feed.loadMore().outcome == .completed(LoadSummary(itemsApplied: 10)))
        #expect(mediator.loads.isEmpty)  // the second page was stored
        #expect(await feed.loadMore().outcome == .completed(LoadSummary(itemsApplied: 10)))
        #expect(mediator.loads == [.append])
        #expect(feed.controller.currentSnapshot.map(\.id) == Array(0..<30))
        #expect(try await test.database.count() == 30)
        await feed.close()
    }

    @Test("remoteMediator_initialLoadTriggersPrepend: before the first stored row the mediator stores the network's previous page")
    func prependAtBoundaryTriggersMediator() async throws {
        let test = try TestDatabase()
        defer { test.remove() }
        let mediator = ScriptedMediator(database: test.database, refreshStart: 50)
        try await test.database.storeRefresh(mediator.items(50..<60), previous: "50", next: "60")
        let feed = try makeFeed(test, mediator)
        _ = await feed.start()
        #expect(await feed.loadPrevious().outcome == .completed(LoadSummary(itemsApplied: 10)))
        #expect(mediator.loads == [.prepend])
        #expect(feed.controller.currentSnapshot.map(\.id) == Array(40..<60))
        await feed.close()
    }

    @Test("loadEvents (RemoteMediatorAccessorTest, its append error, through the feed): the mediator's error fails the load-more side; the stored list stays and a retry stores the page")
    func appendErrorSurfacesPerSide() async throws {
        let test = try TestDatabase()
        defer { test.remove() }
        let mediator = ScriptedMediator(database: test.database)
        try await test.database.storeRefresh(mediator.items(0..<10), next: "10")
        let feed = try makeFeed(test, mediator)
        _ = await feed.start()
        mediator.failNext(.append, "append")
        let failed = await feed.loadMore()
        guard case .failed(let failure) = failed.outcome else {
            Issue.record("expected a failure, got \(failed.outcome)")
            return
        }
        #expect(failure.error as? ScriptedMediator.Failure == ScriptedMediator.Failure(label: "append"))
        let states = feed.controller.currentLoadStates
        #expect(states.refresh == .idle)
        #expect(states.loadPrevious == .reachedEnd)
        if case .failed = states.loadMore {} else { Issue.record("loadMore is \(states.loadMore)") }
        #expect(feed.controller.currentSnapshot.map(\.id) == Array(0..<10))
        #expect(await feed.accessor.states.append == .failed("network down (append)"))
        #expect(await feed.retry(.loadMore).outcome == .completed(LoadSummary(itemsApplied: 10)))
        #expect(feed.controller.currentSnapshot.map(\.id) == Array(0..<20))
        #expect(feed.controller.currentLoadStates.loadMore == .idle)
        await feed.close()
    }

    @Test("remoteMediator_initialLoadErrorTriggersLocal and requestLoad_queuesBoundaryAfterRefreshFails (through the feed): a failed network refresh fails the refresh side; the stored list stays; the ends wait for a refresh")
    func refreshErrorKeepsStoredList() async throws {
        let test = try TestDatabase()
        defer { test.remove() }
        let mediator = ScriptedMediator(database: test.database, initialAction: .launchInitialRefresh)
        try await test.database.storeRefresh(mediator.items(0..<10), next: "10")
        mediator.failNext(.refresh, "refresh")
        let feed = try makeFeed(test, mediator)
        let start = await feed.start()
        #expect(start.stored.outcome == .completed(LoadSummary(itemsApplied: 10)))
        guard case .failed = start.network?.outcome else {
            Issue.record("expected a failed network refresh, got \(String(describing: start.network))")
            return
        }
        if case .failed = feed.controller.currentLoadStates.refresh {} else {
            Issue.record("refresh is \(feed.controller.currentLoadStates.refresh)")
        }
        #expect(feed.controller.currentSnapshot.map(\.id) == Array(0..<10))
        // At the stored end the network waits for a refresh: that side fails with the reason.
        let more = await feed.loadMore()
        #expect(more.outcome == .failed(FeedFailure(error: OfflineFeedError.refreshRequired, side: .loadMore, attempt: 1)))
        #expect(feed.controller.currentSnapshot.map(\.id) == Array(0..<10))
        #expect(await feed.retry(.refresh).outcome == .completed(LoadSummary(itemsApplied: 10)))
        #expect(await feed.loadMore().outcome == .completed(LoadSummary(itemsApplied: 10)))
        #expect(mediator.loads == [.refresh, .refresh, .append])
        await feed.close()
    }

    @Test("remoteMediator_appendEndOfPaginationReachedLocalThenRemote: the stored rows end, then the network's end ends the list; no more network loads")
    func endOfPaginationReached() async throws {
        let test = try TestDatabase()
        defer { test.remove() }
        let mediator = ScriptedMediator(database: test.database, count: 15, initialAction: .launchInitialRefresh)
        let feed = try makeFeed(test, mediator)
        _ = await feed.start()
        #expect(await feed.loadMore().outcome == .completed(LoadSummary(itemsApplied: 5, reachedEnd: true)))
        #expect(await feed.loadMore().outcome == .endOfData)
        #expect(feed.controller.currentLoadStates.loadMore == .reachedEnd)
        #expect(feed.controller.currentSnapshot.map(\.id) == Array(0..<15))
        #expect(mediator.loads == [.refresh, .append])
        await feed.close()
    }

    @Test("remoteMediator_endOfPaginationNotReachedLoadStatePrepend (the append side; and this example's rule for a short stored page): a short stored page at the end is completed from the network in the same load")
    func partialStoredPageCompletedFromNetwork() async throws {
        let test = try TestDatabase()
        defer { test.remove() }
        let mediator = ScriptedMediator(database: test.database)
        try await test.database.storeRefresh(mediator.items(0..<10), next: "10")
        try await test.database.storeAppend(mediator.items(10..<14), next: "14")
        let feed = try makeFeed(test, mediator)
        _ = await feed.start()
        #expect(await feed.loadMore().outcome == .completed(LoadSummary(itemsApplied: 10)))
        #expect(mediator.loads == [.append])
        #expect(feed.controller.currentSnapshot.map(\.id) == Array(0..<20))
        // With the network down, a short stored page is still shown; the next load fails.
        mediator.failNext(.append)
        #expect(await feed.loadMore().outcome == .completed(LoadSummary(itemsApplied: 4)))
        #expect(feed.controller.currentSnapshot.count == 24)
        await feed.close()
    }

    @Test("this example's rule (Paging 3: a database write invalidates the PagingSource): a local write reloads the list from the database; with no rows reported, its first page")
    func localWriteReloadsList() async throws {
        let test = try TestDatabase()
        defer { test.remove() }
        let mediator = ScriptedMediator(database: test.database)
        try await test.database.storeRefresh(mediator.items(0..<10), next: "10")
        let feed = try makeFeed(test, mediator)
        _ = await feed.start()
        let snapshots = StreamRecorder(feed.controller.snapshots)
        #expect(try await test.database.rename(id: 3, title: "renamed"))
        let renamed = await snapshots.waitFor { $0.count == 10 && $0[3].title == "renamed" }
        #expect(renamed != nil)
        #expect(try await test.database.delete(id: 0))
        let deleted = await snapshots.waitFor { $0.first?.id == 1 }
        #expect(deleted?.map(\.id) == Array(1..<10))
        #expect(mediator.loads.isEmpty)
        await feed.close()
        snapshots.cancel()
    }

    @Test("dropAppendPrependIfRefreshIsTriggered (through the feed): a network refresh during an append at the boundary cancels it; the list is the refreshed one")
    func refreshCancelsBoundaryLoad() async throws {
        let test = try TestDatabase()
        defer { test.remove() }
        let mediator = ScriptedMediator(database: test.database, refreshStart: 0, gated: true)
        try await test.database.storeRefresh(mediator.items(0..<10), next: "10")
        let feed = try makeFeed(test, mediator)
        _ = await feed.start()
        var started = mediator.started.makeAsyncIterator()
        let more = Task { await feed.loadMore() }
        #expect(await started.next() == .append)
        let refresh = Task { await feed.refresh() }
        #expect(await started.next() == .refresh)  // the append's wait was cancelled first
        mediator.answer(.refresh)
        #expect(await refresh.value.outcome == .completed(LoadSummary(itemsApplied: 10)))
        guard case .cancelled = await more.value.outcome else {
            Issue.record("expected the load-more to be cancelled")
            return
        }
        #expect(mediator.loads == [.append, .refresh])  // its caller gone, the append is not run again
        #expect(mediator.maximumConcurrent == 1)
        #expect(feed.controller.currentSnapshot.map(\.id) == Array(0..<10))
        #expect(try await test.database.count() == 10)
        await feed.close()
    }

    @Test("this example's rule (Paging 3: a write invalidates, the new generation loads from getRefreshKey(anchorPosition)): a local write reloads the page holding the row on screen, from the database, and says where that row went")
    func localWriteReloadsAroundAnchor() async throws {
        let test = try TestDatabase()
        defer { test.remove() }
        let mediator = ScriptedMediator(database: test.database)
        try await test.database.storeRefresh(mediator.items(0..<10), next: "10")
        try await test.database.storeAppend(mediator.items(10..<30), next: "30")
        let feed = try makeFeed(test, mediator)
        _ = await feed.start()
        _ = await feed.loadMore()
        _ = await feed.loadMore()
        #expect(feed.controller.currentSnapshot.map(\.id) == Array(0..<30))
        let snapshots = StreamRecorder(feed.controller.snapshots)
        feed.controller.reportVisibleRows(22..<25)
        #expect(try await test.database.rename(id: 22, title: "renamed"))
        let reloaded = await snapshots.waitFor { $0.contains { $0.title == "renamed" } }
        #expect(reloaded?.change == .reloaded(FeedAnchorMove(from: 22, to: 2)))
        #expect(reloaded?.map(\.id) == Array(20..<30))  // the anchor's page, read again
        #expect(reloaded?[2].title == "renamed")
        // Both ends load on from the reloaded page, from the database.
        #expect(await feed.loadPrevious().outcome == .completed(LoadSummary(itemsApplied: 10)))
        #expect(feed.controller.currentSnapshot.map(\.id) == Array(10..<30))
        #expect(mediator.loads.isEmpty)
        await feed.close()
        snapshots.cancel()
    }

    @Test("this example's rule, features together (a write during a remote append): a local write cancels the load-more waiting on the network; the network's page is still stored, and the next load-more reads it from the database")
    func localWriteDuringBoundaryLoad() async throws {
        let test = try TestDatabase()
        defer { test.remove() }
        let mediator = ScriptedMediator(database: test.database, gated: true)
        try await test.database.storeRefresh(mediator.items(0..<10), next: "10")
        let feed = try makeFeed(test, mediator)
        _ = await feed.start()
        let snapshots = StreamRecorder(feed.controller.snapshots)
        var started = mediator.started.makeAsyncIterator()
        let more = Task { await feed.loadMore() }
        #expect(await started.next() == .append)
        #expect(try await test.database.rename(id: 4, title: "renamed"))
        let reloaded = await snapshots.waitFor { $0.contains { $0.title == "renamed" } }
        #expect(reloaded?.map(\.id) == Array(0..<10))
        guard case .cancelled = await more.value.outcome else {
            Issue.record("expected the load-more to be cancelled by the reload")
            return
        }
        mediator.answer(.append)  // the network answers late: its page is stored all the same
        await feed.accessor.waitForIdle()
        #expect(try await test.database.count() == 20)
        #expect(await feed.loadMore().outcome == .completed(LoadSummary(itemsApplied: 10)))
        #expect(mediator.loads == [.append])  // read from the database, not fetched again
        #expect(feed.controller.currentSnapshot.map(\.id) == Array(0..<20))
        await feed.close()
        snapshots.cancel()
    }
}
