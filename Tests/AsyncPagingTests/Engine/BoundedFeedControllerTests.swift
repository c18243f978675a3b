import AsyncPaging
import AsyncPagingTesting
import Testing

/// A feed with a memory bound (``FeedConfiguration/maximumItems``) scrolled both ways on the
/// test clock: whole pages go at the far end, come back through the cursors, and the outputs
/// say what happened.
@Suite("Memory bound")
struct BoundedFeedControllerTests {
    let clock = TestClock()

    /// Pages 0...99 of 10 posts each: page `c` has posts `10c..<10c+10`, `previous` `c - 1` and
    /// `next` `c + 1` (none before page 0 or after page 99); `forwardOnly` pages name no
    /// `previous`. Each answer takes `latency`.
    func source(latency: Duration = .zero, forwardOnly: Bool = false) -> PostSource {
        PostSource { request in
            let index = request.cursor ?? 0
            let page = Page(
                items: posts(index * 10..<index * 10 + 10),
                previous: index > 0 && !forwardOnly ? index - 1 : nil, next: index < 99 ? index + 1 : nil)
            return .page(page, latency: latency)
        }
    }

    func bounded(_ maximum: Int) -> FeedConfiguration {
        do { return try FeedConfiguration(pageSize: 10, maximumItems: maximum) } catch {
            fatalError("test configuration: \(error)")
        }
    }

    /// A feed of at most 30 items opened at page 5 (a source without latency answers at once).
    func openedFeed(_ source: PostSource, maximum: Int = 30, at cursor: Int? = 5) async -> PostFeed {
        let feed = PostFeed(source: source, clock: clock, configuration: bounded(maximum), initialCursor: cursor)
        await initialLoadEnded(feed)
        return feed
    }

    @Test("scrolling down drops the first pages; the start loads them again, dropping at the end")
    func scrollDownThenBackUp() async {
        let feed = await openedFeed(source())
        for _ in 0..<3 { _ = await feed.loadMore() }
        let scrolled = feed.currentSnapshot
        #expect(scrolled.ids == Array(60..<90))
        #expect(scrolled.change == .ends(FeedEndsChange(removedAtStart: 10, insertedAtEnd: 10)))
        #expect(scrolled.change.indexShift == -10, "row 15 of the older list is row 5 now")
        #expect(await feed.cursors == FeedCursors(previous: 5, next: 9, reachedEnd: false, reachedStart: false))
        #expect(feed.currentLoadStates == .idle)
        // Back up: page 5 comes again, its ids are no duplicates any more; page 8 goes.
        #expect(await feed.loadPrevious() == LoadResult(side: .loadPrevious, outcome: .completed(LoadSummary(itemsApplied: 10))))
        let back = feed.currentSnapshot
        #expect(back.ids == Array(50..<80))
        #expect(back.change == .ends(FeedEndsChange(insertedAtStart: 10, removedAtEnd: 10)))
        #expect(back.change.indexShift == 10)
        #expect(back.generation == scrolled.generation, "drops keep the generation")
        #expect(await feed.cursors == FeedCursors(previous: 4, next: 8, reachedEnd: false, reachedStart: false))
        // And down again: page 8 is fetched again, no repeated-cursor failure.
        #expect(await feed.loadMore().outcome == .completed(LoadSummary(itemsApplied: 10)))
        #expect(feed.currentSnapshot.ids == Array(60..<90))
    }

    @Test("every drop is a diagnostic naming the end and the counts")
    func dropsAreDiagnostics() async {
        let feed = await openedFeed(source())
        let diagnostics = StreamRecorder(feed.diagnostics)
        for _ in 0..<3 { _ = await feed.loadMore() }
        _ = await feed.loadPrevious()
        #expect(await diagnostics.waitForCount(2) == [
            .pagesDropped(side: .loadPrevious, pages: 1, items: 10), .pagesDropped(side: .loadMore, pages: 1, items: 10),
        ])
    }

    @Test("the drop cancels the load in flight at the dropped end, whose page would follow a dropped page")
    func aDropCancelsTheLoadAtThatEnd() async {
        let slow = PostSource { request in
            let index = request.cursor ?? 0
            let page = Page(items: posts(index * 10..<index * 10 + 10), previous: index - 1, next: index + 1)
            // The start answers slowly, the end at once.
            return .page(page, latency: request.side == .loadPrevious ? .seconds(5) : .zero)
        }
        let feed = await openedFeed(slow, maximum: 20)
        let events = StreamRecorder(feed.events)
        async let older = feed.loadPrevious()
        await clock.waitForSleepers(1)
        #expect(await feed.loadMore().outcome == .completed(LoadSummary(itemsApplied: 10)))
        #expect(feed.currentSnapshot.ids == Array(50..<70), "no drop yet: 20 items")
        #expect(await feed.loadMore().outcome == .completed(LoadSummary(itemsApplied: 10)))
        #expect(await older == LoadResult(side: .loadPrevious, outcome: .cancelled(.pagesDropped)))
        #expect(feed.currentSnapshot.ids == Array(60..<80))
        #expect(feed.currentLoadStates == .idle)
        #expect(await events.waitFor { $0 == .ended(.loadPrevious, .cancelled(.pagesDropped)) } != nil)
        clock.advance(by: .seconds(5)) // the cancelled fetch is gone; nothing changes
        #expect(feed.currentSnapshot.ids == Array(60..<80))
    }

    @Test("pages that name no cursor back are kept over the bound, and a diagnostic says so")
    func forwardOnlyPagesAreKept() async {
        let feed = await openedFeed(source(forwardOnly: true), maximum: 20, at: nil)
        let diagnostics = StreamRecorder(feed.diagnostics)
        for _ in 0..<2 { _ = await feed.loadMore() }
        #expect(feed.currentSnapshot.ids == Array(0..<30))
        #expect(await diagnostics.waitForCount(1) == [.pagesKeptOverBound(side: .loadPrevious, itemCount: 30)])
        #expect(feed.currentLoadStates.loadPrevious == .reachedEnd)
    }

    @Test("a subscriber that skipped versions learns what changed at each end")
    func changeAcrossSkippedVersions() async {
        let feed = await openedFeed(source())
        for _ in 0..<2 { _ = await feed.loadMore() }
        let seen = feed.currentSnapshot
        #expect(seen.ids == Array(50..<80))
        for _ in 0..<2 { _ = await feed.loadMore() } // pages 8 and 9 come, pages 5 and 6 go
        let now = feed.currentSnapshot
        #expect(now.ids == Array(70..<100))
        #expect(now.version == seen.version + 2)
        #expect(now.change(since: seen) == .ends(FeedEndsChange(removedAtStart: 20, insertedAtEnd: 20)))
    }

    @Test("a bound below one item is refused when the configuration is made")
    func invalidBound() {
        #expect(throws: FeedConfigurationError.invalidMaximumItems(0)) { try FeedConfiguration(maximumItems: 0) }
        #expect(throws: FeedConfigurationError.invalidMaximumItems(-5)) { try FeedConfiguration(maximumItems: -5) }
    }
}
