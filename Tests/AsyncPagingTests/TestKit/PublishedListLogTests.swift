import AsyncPaging
import AsyncPagingTesting
import Testing

/// `PublishedListLog`: every published list, none skipped, where a recorder of `snapshots`
/// (newest only) can miss a list that showed for one version.
@Suite("Published list log")
struct PublishedListLogTests {
    let clock = TestClock()
    let source = PostSource()

    @Test("a snapshot reader not scheduled between two lists misses the first; the log has every version")
    func snapshotReaderMissesATransientList() async {
        source.enqueue(
            pageResponse(0, latency: .zero), pageResponse(1, latency: .zero), .page(posts(100..<115), next: 1))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration(loadsInitialPage: false))
        // Subscribed now and read only at the end: a reader that was not scheduled while the
        // lists below were published (a busy machine does this at random; here it is certain).
        let snapshots = feed.snapshots
        let log = await PublishedListLog(feed)

        #expect(await feed.refresh() == .completed(.refresh, applied: 15))   // version 1
        #expect(await feed.loadMore() == .completed(.loadMore, applied: 15)) // version 2 shows posts 15..<30
        #expect(await feed.refresh() == .completed(.refresh, applied: 15))   // version 3 replaces them

        let recorder = StreamRecorder(snapshots)
        await recorder.waitFor { $0.version == 3 }
        // The recorder's check passes without having looked: it never had version 2.
        #expect(recorder.values.map(\.version) == [3])
        #expect(!recorder.values.contains { $0.ids.contains(20) })
        // The log had every version, so the same check catches the page.
        #expect(log.versions == [0, 1, 2, 3])
        #expect(log.everShowed(id: 20))
        #expect(log.firstList(showing: { $0.id == 20 })?.version == 2)
        #expect(log.lists.map(\.ids) == [[], Array(0..<15), Array(0..<30), Array(100..<115)])
    }

    @Test("a load-more cancelled by a refresh: its page, arriving late, never showed in any version")
    func cancelledPageNeverShowed() async {
        source.enqueue(
            pageResponse(0, latency: .zero),
            pageResponse(1, latency: .seconds(2), ignoresCancellation: true), // answers even when cancelled
            .page(posts(100..<115), next: 1, latency: .seconds(1)))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration())
        #expect(await feed.waitForFirstPage().outcome == .completed(LoadSummary(itemsApplied: 15)))
        let log = await PublishedListLog(feed)
        let diagnostics = StreamRecorder(feed.diagnostics)

        async let loadMore = feed.loadMore()
        await clock.waitForSleepers(1)
        async let refresh = feed.refresh()
        #expect(await loadMore == LoadResult(side: .loadMore, outcome: .cancelled(.preemptedByRefresh)))
        await clock.waitForSleepers(2) // the refresh's latency, and the load-more's, which runs out anyway
        clock.advance(by: .seconds(2))
        #expect(await refresh == .completed(.refresh, applied: 15))
        // The late page reached the controller, which dropped it.
        let dropped = await diagnostics.waitFor {
            if case .staleResultDiscarded(.loadMore, _, true) = $0 { true } else { false }
        }
        #expect(dropped != nil)

        #expect(!log.everShowed { (15..<30).contains($0.id) })
        #expect(log.versions == Array(1...feed.currentSnapshot.version))
        #expect(log.lists.last?.ids == Array(100..<115))
    }

    @Test("two logs of one controller each get every list")
    func twoLogs() async {
        source.enqueue(pageResponse(0, latency: .zero), pageResponse(1, latency: .zero))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration(loadsInitialPage: false))
        let first = await PublishedListLog(feed)
        #expect(await feed.refresh() == .completed(.refresh, applied: 15))
        let second = await PublishedListLog(feed)
        #expect(await feed.loadMore() == .completed(.loadMore, applied: 15))
        #expect(first.versions == [0, 1, 2])
        #expect(second.versions == [1, 2])
        #expect(second.lists.last?.ids == Array(0..<30))
    }

    @Test("waitForVersion returns once the version is logged, and false when its task is cancelled")
    func waitForVersion() async {
        source.enqueue(pageResponse(0))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration())
        let log = await PublishedListLog(feed)
        #expect(await log.waitForVersion(0))

        async let first = log.waitForVersion(1)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        #expect(await first)
        #expect(log.lists.last?.ids == Array(0..<15))

        let never = Task { await log.waitForVersion(99) }
        never.cancel()
        #expect(await never.value == false)
        #expect(log.pendingWaitCount == 0)
    }
}
