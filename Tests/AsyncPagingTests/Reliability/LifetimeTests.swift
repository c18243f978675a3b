import AsyncPaging
import AsyncPagingTesting
import Testing

/// Leaks and lifetimes: what a controller and its subscribers keep alive, and for how long.
@Suite("Leaks and lifetimes")
struct LifetimeTests {
    let clock = TestClock()

    @Test("a released controller is freed with a fetch, a late fetch and a timeout in flight and subscribers attached")
    func releasedWithLoadsInFlight() async {
        let source = RowSource()
        source.enqueue(.page(rows(0..<3), next: 1, latency: .seconds(2), ignoresCancellation: true), .hang)
        var feed: RowFeed? = RowFeed(source: source, clock: clock, configuration: configuration(pageSize: 3, timeout: .seconds(10)))
        weak let weakFeed = feed
        let events = StreamRecorder(feed!.events)
        let snapshots = StreamRecorder(feed!.snapshots)
        let statuses = StreamRecorder(feed!.statuses)
        let diagnostics = StreamRecorder(feed!.diagnostics)
        await clock.waitForSleepers(2) // the first fetch and its timeout
        // A second refresh replaces the first, whose source ignores cancellation and sleeps on.
        feed!.send(.refresh)
        await source.waitForRequests(2)
        await clock.waitForSleepers(3) // the late first fetch, the hanging second one, its timeout
        #expect(feed!.subscriberCounts == (1, 1, 1))

        feed = nil
        // Releasing the last reference ends the load as closed and finishes every stream.
        #expect(await events.waitForFinish() == [.began(.refresh), .ended(.refresh, .cancelled(.closed))])
        #expect(weakFeed == nil)
        #expect(await statuses.waitForFinish().last == .closed)
        #expect(await snapshots.waitForFinish().map(\.version) == [0])
        await diagnostics.waitForFinish()
        // The hanging fetch and the timeout were cancelled; only the source's own late sleep is left.
        #expect(clock.pendingDeadlines == [.init(offset: .seconds(2))])
        clock.advance(by: .seconds(2))
        await source.waitForCompletions(2)
        #expect(clock.pendingDeadlines.isEmpty)
    }

    @Test("a released controller is freed while a retry waits for its backoff")
    func releasedDuringBackoff() async {
        let source = RowSource()
        source.enqueue(.failure(ScriptedFailure(request: 0), latency: .seconds(1)))
        let retry = RetryPolicy(maximumAttempts: 3, initialBackoff: .seconds(4))
        var feed: RowFeed? = RowFeed(source: source, clock: clock, configuration: configuration(pageSize: 3, retry: retry))
        weak let weakFeed = feed
        let events = StreamRecorder(feed!.events)
        let diagnostics = StreamRecorder(feed!.diagnostics)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(await diagnostics.waitForCount(1) == [.retryScheduled(
            side: .refresh, retryNumber: 1, delay: .seconds(4),
            failure: FeedFailure(error: ScriptedFailure(request: 0), side: .refresh, attempt: 1))])
        await clock.waitForSleepers(1) // the backoff timer

        feed = nil
        #expect(await events.waitForFinish() == [.began(.refresh), .ended(.refresh, .cancelled(.closed))])
        #expect(weakFeed == nil)
        #expect(clock.pendingDeadlines.isEmpty)
        #expect(source.requests.count == 1)
    }

    @Test("a subscriber whose iterating task ends, or is cancelled, is removed")
    func stoppedSubscribersAreRemoved() async {
        let source = RowSource()
        source.enqueue(.hang)
        let feed = RowFeed(source: source, clock: clock, configuration: configuration(pageSize: 3))

        // A loop that breaks out.
        let breaking = Task {
            for await _ in feed.snapshots { break }
            for await _ in feed.statuses { break }
            for await _ in feed.events { break }
        }
        await breaking.value
        #expect(feed.subscriberCounts == (0, 0, 0))

        // A loop whose task is cancelled.
        let snapshots = StreamRecorder(feed.snapshots)
        let statuses = StreamRecorder(feed.statuses)
        let events = StreamRecorder(feed.events)
        #expect(feed.subscriberCounts == (1, 1, 1))
        snapshots.cancel()
        statuses.cancel()
        events.cancel()
        await snapshots.waitForFinish()
        await statuses.waitForFinish()
        await events.waitForFinish()
        #expect(feed.subscriberCounts == (0, 0, 0))
        await feed.close()
    }

    @Test("a stream released without being iterated is removed at once")
    func releasedStreamsAreRemoved() async {
        let feed = RowFeed(source: RowSource(), clock: clock, configuration: configuration(pageSize: 3, loadsInitialPage: false))
        do {
            let snapshots = feed.snapshots
            let statuses = feed.statuses
            let events = feed.events
            #expect(feed.subscriberCounts == (1, 1, 1))
            _ = (snapshots, statuses, events)
        }
        #expect(feed.subscriberCounts == (0, 0, 0))
        await feed.close()
    }

    @Test("a subscriber that never reads keeps only the newest snapshot and status; it keeps every event")
    func neverReadingSubscriberIsBounded() async {
        let live = LiveRows()
        let source = ScriptedPageSource<TrackedRow, Int>()
        let feed = FeedController<TrackedRow, Int>(
            source: source, clock: clock, configuration: configuration(pageSize: 3, loadsInitialPage: false))
        let snapshots = feed.snapshots
        let statuses = feed.statuses
        let events = feed.events
        let refreshes = 50
        for round in 0..<refreshes {
            source.enqueue(.page((0..<10).map { TrackedRow(id: round * 10 + $0, rows: live) }, next: 1))
            _ = await feed.refresh()
            // Only the list of this round stays: neither the controller nor the unread streams
            // keep an older list alive.
            await live.waitUntilAlive(atMost: 10)
            #expect(feed.currentSnapshot.count == 10)
        }
        await feed.close()

        // The unread snapshot stream kept only the newest list, the status stream only the
        // final status; the event stream kept all of them (lossless, one buffer per subscriber).
        let keptSnapshots = await collect(snapshots)
        #expect(keptSnapshots.map(\.version) == [UInt64(refreshes)])
        #expect(await collect(statuses) == [.closed])
        let keptEvents = await collect(events)
        #expect(keptEvents.count == 2 * refreshes)
        #expect(keptEvents.prefix(2) == [.began(.refresh), .ended(.refresh, .completed)])
        _ = keptSnapshots
    }
}
