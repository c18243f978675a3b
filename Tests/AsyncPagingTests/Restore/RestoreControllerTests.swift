import AsyncPaging
import AsyncPagingTesting
import Foundation
import Testing

/// A controller created from a saved state, on the test clock: it shows the state at once,
/// refreshes or not by its policy, and then behaves as the controller that saved it would —
/// both ends load on from the saved cursors, the repeated-cursor guard and the duplicate
/// filter know the restored pages, and the bound applies from the next load.
@Suite("Restore")
struct RestoreControllerTests {
    typealias Fixtures = RestoreFixtures
    let clock = TestClock()

    /// A feed opened at page 5 of the two-ended source and grown to pages 4...6 (no latency:
    /// every answer is applied before the call returns).
    func grownFeed(_ source: PostSource, configuration: FeedConfiguration = Fixtures.configuration()) async -> PostFeed {
        let feed = PostFeed(source: source, clock: clock, configuration: configuration, initialCursor: 5)
        await initialLoadEnded(feed)
        await feed.loadPrevious()
        await feed.loadMore()
        return feed
    }

    @Test("export, JSON, restore: the same items, cursors, load states and generation, at once and without a fetch")
    func roundTrip() async throws {
        // A bounded feed keeps a record per page, and saves its pages one by one.
        let feed = await grownFeed(Fixtures.source(), configuration: Fixtures.configuration(maximumItems: 1_000))
        #expect(feed.currentSnapshot.ids == Array(40..<70))
        let saved = try #require(try await feed.exportState(anchorIndex: 12, savedBy: clock))
        #expect(saved.pages == [Fixtures.page(4), Fixtures.page(5), Fixtures.page(6)])
        #expect(saved.generation == feed.currentSnapshot.generation)
        #expect(saved.savedAt == .zero)
        let restoredState = try JSONDecoder().decode(PostState.self, from: try Fixtures.json(saved))
        #expect(restoredState == saved)

        let source = Fixtures.source()
        let restored = PostFeed(source: source, clock: clock, configuration: Fixtures.configuration(), restoring: restoredState, restorePolicy: .never)
        let snapshot = restored.currentSnapshot
        #expect(snapshot.ids == Array(40..<70))
        #expect(snapshot.version == 1)
        #expect(snapshot.generation == saved.generation)
        #expect(snapshot.change == .replaced)
        #expect(restored.restoredAnchorIndex == 12)
        #expect(await restored.cursors == FeedCursors(previous: 3, next: 7, reachedEnd: false, reachedStart: false))
        #expect(restored.currentLoadStates == .idle)
        #expect(restored.currentStatus == .idle)
        #expect(await restored.waitForFirstPage() == .completed(.refresh, applied: 30))
        #expect(source.requests.isEmpty, "a restored controller runs no initial load")
    }

    @Test("the ends' flags come from the edge pages: no previous is the start, no next the end")
    func endFlags() async {
        let whole = PostFeed(source: Fixtures.source(), clock: clock, restoring: Fixtures.state(0...9), restorePolicy: .never)
        #expect(await whole.cursors == FeedCursors(previous: nil, next: nil, reachedEnd: true, reachedStart: true))
        #expect(whole.currentLoadStates == FeedLoadStates(refresh: .idle, loadPrevious: .reachedEnd, loadMore: .reachedEnd))
        #expect(whole.currentStatus == .endOfData)
        #expect(await whole.loadMore().outcome == .endOfData)
        #expect(await whole.loadPrevious().outcome == .endOfData)
    }

    @Test("an unbounded feed, which keeps no record per page, saves its list as one page with its two ends' cursors")
    func unboundedExportsOnePage() async throws {
        let feed = await grownFeed(Fixtures.source())
        let saved = try #require(try await feed.exportState(anchorIndex: 12, savedBy: clock))
        #expect(saved.pages.count == 1)
        #expect(saved.pages[0].items.map(\.id) == Array(40..<70))
        #expect(saved.pages[0].previous == 3 && saved.pages[0].next == 7)
        let restored = PostFeed(
            source: Fixtures.source(), clock: clock, configuration: Fixtures.configuration(), restoring: saved, restorePolicy: .never)
        #expect(restored.currentSnapshot.ids == Array(40..<70))
        #expect(restored.restoredAnchorIndex == 12)
        #expect(await restored.loadMore() == .completed(.loadMore, applied: 10))
        #expect(await restored.loadPrevious() == LoadResult(side: .loadPrevious, outcome: .completed(LoadSummary(itemsApplied: 10))))
        #expect(restored.currentSnapshot.ids == Array(30..<80))
    }

    @Test("export: nothing before the first page; only applied pages (a load in flight is not exported); the anchor by id")
    func exportRules() async throws {
        let source = Fixtures.source(latency: .seconds(1))
        let feed = PostFeed(source: source, clock: clock, configuration: Fixtures.configuration(maximumItems: 1_000), initialCursor: 5)
        #expect(try await feed.exportState(savedBy: clock) == nil, "no page applied yet")
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        await initialLoadEnded(feed)
        async let more = feed.loadMore()
        await clock.waitForSleepers(1)
        let during = try #require(try await feed.exportState(anchorID: 57, savedBy: clock))
        #expect(during.pages == [Fixtures.page(5)], "the load in flight is not exported")
        #expect(during.anchorIndex == 7)
        #expect(during.savedAt == .seconds(1))
        clock.advance(by: .seconds(1))
        #expect(await more.outcome == .completed(LoadSummary(itemsApplied: 10)))
        let after = try #require(try await feed.exportState(anchorIndex: 20, savedBy: clock))
        #expect(after.pages == [Fixtures.page(5), Fixtures.page(6)])
        #expect(after.anchorIndex == nil, "an index outside the list saves no anchor")
        #expect(try await feed.exportState(anchorID: 99, savedBy: clock)?.anchorIndex == nil)
        #expect(try await feed.exportState(anchorIndex: -1, savedBy: clock)?.anchorIndex == nil)
    }

    @Test("policy always: the saved list shows while the refresh loads, then the refresh replaces it (next generation)")
    func policyAlways() async {
        let source = Fixtures.source(latency: .seconds(1))
        let feed = PostFeed(source: source, clock: clock, restoring: Fixtures.state(4...6, generation: 4), restorePolicy: .always)
        #expect(feed.currentSnapshot.ids == Array(40..<70))
        #expect(feed.currentLoadStates.refresh == .loading)
        await clock.waitForSleepers(1)
        #expect(source.requests.map(\.cursor) == [4], "the refresh starts at the restored list's own first page")
        clock.advance(by: .seconds(1))
        await initialLoadEnded(feed)
        #expect(feed.currentSnapshot.ids == Array(40..<50))
        #expect(feed.currentSnapshot.generation == 5)
        #expect(feed.currentSnapshot.version == 2)
    }

    @Test("refreshStart .initialCursor: the policy's refresh starts at initialCursor, a later refresh() at the first page of the data")
    func policyAlwaysFromCursor() async {
        let source = Fixtures.source()
        let feed = PostFeed(
            source: source, clock: clock, initialCursor: 5, restoring: Fixtures.state(7...8), restorePolicy: .always,
            refreshStart: .initialCursor)
        await initialLoadEnded(feed)
        #expect(source.requests.map(\.cursor) == [5])
        #expect(feed.currentSnapshot.ids == Array(50..<60))
        #expect(await feed.refresh() == .completed(.refresh, applied: 10))
        #expect(source.requests.map(\.cursor) == [5, nil])
    }

    @Test("a restored list refreshes from its own first page ([7], not initialCursor or [0]), and so does every later refresh()")
    func refreshFromTheSavedFirstPage() async {
        let source = Fixtures.source()
        let feed = PostFeed(source: source, clock: clock, initialCursor: 5, restoring: Fixtures.state(7...8), restorePolicy: .always)
        await initialLoadEnded(feed)
        #expect(source.requests.map(\.cursor) == [7])
        #expect(feed.currentSnapshot.ids == Array(70..<80))
        #expect(await feed.loadMore() == .completed(.loadMore, applied: 10))
        #expect(await feed.refresh() == .completed(.refresh, applied: 10))
        #expect(source.requests.map(\.cursor) == [7, 8, 7])
        #expect(feed.currentSnapshot.ids == Array(70..<80))
        // A one-page state does not know its page's cursor: the first page of the data.
        let single = PostFeed(source: source, clock: clock, restoring: Fixtures.state(3...3), restorePolicy: .always)
        await initialLoadEnded(single)
        #expect(source.requests.map(\.cursor).last == .some(nil))
        #expect(single.currentSnapshot.ids == Array(0..<10))
    }

    @Test("policy never: the saved list stays and nothing is fetched until asked")
    func policyNever() async {
        let source = Fixtures.source()
        let feed = PostFeed(source: source, clock: clock, restoring: Fixtures.state(4...6, savedAt: nil), restorePolicy: .never)
        #expect(feed.currentLoadStates == .idle)
        #expect(await feed.refresh() == .completed(.refresh, applied: 10))
        #expect(source.requests.map(\.cursor) == [4], "the restored list's own first page")
        #expect(feed.currentSnapshot.ids == Array(40..<50))
        #expect(feed.currentSnapshot.generation == 5)
    }

    /// A controller restored from pages 4...6 saved at `savedAt` on the test clock, with policy
    /// ifOlderThan(5 minutes) read on that clock after it moved to `now`.
    func restoredAged(savedAt: Duration?, now: Duration, source: PostSource) -> PostFeed {
        clock.advance(to: TestClock.Instant(offset: now))
        return PostFeed(
            source: source, clock: clock, restoring: Fixtures.state(4...6, savedAt: savedAt),
            restorePolicy: .ifOlderThan(.seconds(300), clock: clock))
    }

    @Test("ifOlderThan: a fresh state stays (also at exactly the age), a stale one refreshes", arguments: [
        (Duration.seconds(10), Duration.seconds(299), false),
        (.seconds(10), .seconds(310), false),
        (.seconds(10), .seconds(311), true),
        (.seconds(10), .seconds(3600), true),
    ])
    func policyAge(savedAt: Duration, now: Duration, refreshes: Bool) async {
        let source = Fixtures.source()
        let feed = restoredAged(savedAt: savedAt, now: now, source: source)
        await initialLoadEnded(feed)
        #expect(source.requests.count == (refreshes ? 1 : 0))
        #expect(feed.currentSnapshot.ids == (refreshes ? Array(40..<50) : Array(40..<70)))
    }

    @Test("ifOlderThan: a state saved by a controller, aged by advancing the test clock")
    func policyAgeFromExport() async throws {
        let saver = await grownFeed(Fixtures.source())
        let saved = try #require(try await saver.exportState(savedBy: clock))
        clock.advance(by: .seconds(60))
        let freshSource = Fixtures.source()
        let fresh = PostFeed(source: freshSource, clock: clock, restoring: saved, restorePolicy: .ifOlderThan(.seconds(120), clock: clock))
        clock.advance(by: .seconds(61))
        let staleSource = Fixtures.source()
        let stale = PostFeed(source: staleSource, clock: clock, restoring: saved, restorePolicy: .ifOlderThan(.seconds(120), clock: clock))
        await initialLoadEnded(fresh)
        await initialLoadEnded(stale)
        #expect(freshSource.requests.isEmpty)
        #expect(staleSource.requests.map(\.cursor) == [nil])
    }

    @Test("ifOlderThan: an unknown age (no savedAt) and a negative age (a clock that went back) are stale")
    func policyUnknownAndNegativeAge() async {
        let unknownSource = Fixtures.source()
        let unknown = restoredAged(savedAt: nil, now: .seconds(1), source: unknownSource)
        await initialLoadEnded(unknown)
        #expect(unknownSource.requests.count == 1)
        let negativeSource = Fixtures.source()
        let negative = restoredAged(savedAt: .seconds(500), now: .seconds(1), source: negativeSource)
        await initialLoadEnded(negative)
        #expect(negativeSource.requests.count == 1)
    }

    @Test("loads continue from the restored cursors at both ends")
    func loadsContinue() async {
        let source = Fixtures.source()
        let feed = PostFeed(source: source, clock: clock, restoring: Fixtures.state(4...5), restorePolicy: .never)
        let before = feed.currentSnapshot
        #expect(await feed.loadPrevious() == .completed(.loadPrevious, applied: 10))
        #expect(await feed.loadMore() == .completed(.loadMore, applied: 10))
        #expect(source.requests.map(\.cursor) == [3, 6])
        let after = feed.currentSnapshot
        #expect(after.ids == Array(30..<70))
        #expect(after.generation == before.generation)
        #expect(after.change(since: before) == .extended(prepended: 0..<10, appended: 30..<40))
        #expect(await feed.cursors == FeedCursors(previous: 2, next: 7, reachedEnd: false, reachedStart: false))
    }

    @Test("the repeated-cursor guard knows the restored pages: a page pointing back at one fails the load")
    func repeatedCursorGuard() async {
        // Page 6 claims page 5 (restored) comes next.
        let source = PostSource { request in
            request.cursor == 6 ? .page(Page(items: posts(60..<70), previous: 5, next: 5)) : .page(Fixtures.page(request.cursor ?? 0))
        }
        let feed = PostFeed(source: source, clock: clock, restoring: Fixtures.state(4...5), restorePolicy: .never)
        let result = await feed.loadMore()
        #expect(result.outcome == .failed(FeedFailure(error: FeedError.repeatedCursor("5"), side: .loadMore, attempt: 1)))
        #expect(feed.currentSnapshot.ids == Array(40..<70), "the page is applied once, its cursor not followed")
        #expect(await feed.loadMore().outcome == .ignored(.stoppedByGuard))
    }

    @Test("a saved end that points back at a restored page is restored halted, as the live feed left it")
    func restoredHalt() async throws {
        let pages = [Fixtures.page(4), Page(items: posts(50..<60), previous: 4, next: 5)]
        let state = try PostState(pages: pages)
        let source = Fixtures.source()
        let feed = PostFeed(source: source, clock: clock, restoring: state, restorePolicy: .never)
        #expect(feed.currentLoadStates.loadMore == .failed(FeedFailure(error: FeedError.repeatedCursor("5"), side: .loadMore, attempt: 1)))
        #expect(await feed.loadMore().outcome == .ignored(.stoppedByGuard))
        #expect(await feed.loadPrevious() == .completed(.loadPrevious, applied: 10))
        #expect(source.requests.map(\.cursor) == [3])
    }

    @Test("the duplicate filter knows the restored ids: a later page's repeats are dropped")
    func duplicateFilter() async {
        let source = PostSource { request in
            request.cursor == 6 ? .page(Page(items: posts(55..<65), previous: 5, next: 7)) : .page(Fixtures.page(request.cursor ?? 0))
        }
        let feed = PostFeed(source: source, clock: clock, restoring: Fixtures.state(4...5), restorePolicy: .never)
        #expect(await feed.loadMore() == .completed(.loadMore, applied: 5, dropped: 5))
        #expect(feed.currentSnapshot.ids == Array(40..<65))
    }

    @Test("duplicates inside a saved state are dropped as a load drops them; the anchor moves with its item")
    func duplicatesInState() async throws {
        // Page 5 repeats posts 48 and 49 of page 4.
        let pages = [Fixtures.page(4), Page(items: posts(48..<58), previous: 4, next: 6)]
        let anchored = try PostState(pages: pages, anchorIndex: 13) // post 51
        let feed = PostFeed(source: Fixtures.source(), clock: clock, restoring: anchored, restorePolicy: .never)
        #expect(feed.currentSnapshot.ids == Array(40..<58))
        #expect(feed.restoredAnchorIndex == 11)
        #expect(feed.currentSnapshot[11].id == 51)
        let onDuplicate = try PostState(pages: pages, anchorIndex: 10) // the second post 48: next kept is 50
        let second = PostFeed(source: Fixtures.source(), clock: clock, restoring: onDuplicate, restorePolicy: .never)
        #expect(second.restoredAnchorIndex == 10)
        #expect(second.currentSnapshot[10].id == 50)
        let keeping = PostFeed(
            source: Fixtures.source(), clock: clock, configuration: configuration(pageSize: 10, duplicates: .keep),
            restoring: anchored, restorePolicy: .never)
        #expect(keeping.currentSnapshot.count == 20, "duplicates: .keep keeps them")
        #expect(keeping.restoredAnchorIndex == 13)
        // A state exported from the filtered feed has no duplicates and round-trips.
        let again = try #require(try await feed.exportState(anchorIndex: feed.restoredAnchorIndex, savedBy: clock))
        #expect(again.items.map(\.id) == Array(40..<58))
        #expect(again.anchorItem?.id == 51)
    }

    @Test("a restored bounded feed keeps what it was given, then drops whole pages at the far end on its next load")
    func boundAfterRestore() async {
        let source = Fixtures.source()
        let feed = PostFeed(
            source: source, clock: clock, configuration: Fixtures.configuration(maximumItems: 20),
            restoring: Fixtures.state(2...6), restorePolicy: .never)
        #expect(feed.currentSnapshot.count == 50, "the bound applies from the next load")
        let diagnostics = StreamRecorder(feed.diagnostics)
        #expect(await feed.loadMore() == .completed(.loadMore, applied: 10))
        #expect(feed.currentSnapshot.ids == Array(60..<80))
        #expect(await feed.cursors == FeedCursors(previous: 5, next: 8, reachedEnd: false, reachedStart: false))
        #expect(await diagnostics.waitFor { $0 == .pagesDropped(side: .loadPrevious, pages: 4, items: 40) } != nil)
        #expect(await feed.loadPrevious() == .completed(.loadPrevious, applied: 10))
        #expect(feed.currentSnapshot.ids == Array(50..<70))
        #expect(source.requests.map(\.cursor) == [7, 5])
    }

    @Test("a restored feed under mergeAtHead merges the refresh's new posts onto the restored head")
    func mergeAtHeadAfterRestore() async {
        // The newest page now starts with two new posts (-2, -1) before post 0.
        let source = PostSource { request in
            request.cursor == nil ? .page(Page(items: posts(-2..<8), next: 1)) : .page(Fixtures.page(request.cursor ?? 0))
        }
        let feed = PostFeed(
            source: source, clock: clock, configuration: Fixtures.configuration(refreshMode: .mergeAtHead),
            restoring: Fixtures.state(0...2), restorePolicy: .always)
        await initialLoadEnded(feed)
        #expect(feed.currentSnapshot.ids == Array(-2..<30))
        #expect(feed.currentSnapshot.generation == 4, "merged, not replaced")
    }
}

/// Export after edits without refetching: the state holds the list as shown.
@Suite("Restore after edits")
struct RestoreAfterEditsTests {
    typealias Fixtures = RestoreFixtures
    let clock = TestClock()

    @Test("updated, removed and inserted items are exported as shown, and restore so")
    func editsExported() async throws {
        let feed = PostFeed(
            source: Fixtures.source(), clock: clock, configuration: Fixtures.configuration(maximumItems: 1_000), initialCursor: 5)
        await initialLoadEnded(feed)
        await feed.loadMore()
        try await feed.update(Post(id: 52))
        let removed = try await feed.remove(ids: [51, 60, 69])
        #expect(removed == [1, 10, 19], "indices of the list before the removal")
        try await feed.insertAtTop([Post(id: 1000)])
        let shown = feed.currentSnapshot.ids
        #expect(shown == [1000, 50] + Array(52..<60) + Array(61..<69))
        let saved = try #require(try await feed.exportState(anchorID: 52, savedBy: clock))
        #expect(saved.items.map(\.id) == shown)
        #expect(saved.pages.map(\.items.count) == [10, 8], "the inserted item joins the first page")
        #expect(saved.anchorIndex == 2)
        let restored = PostFeed(source: Fixtures.source(), clock: clock, restoring: saved, restorePolicy: .never)
        #expect(restored.currentSnapshot.ids == shown)
        #expect(restored.restoredAnchorIndex == 2)
        #expect(await restored.loadMore() == .completed(.loadMore, applied: 10))
        #expect(restored.currentSnapshot.ids == shown + Array(70..<80))
    }
}
