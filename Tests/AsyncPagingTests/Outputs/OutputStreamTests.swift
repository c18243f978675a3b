import AsyncPaging
import AsyncPagingTesting
import Testing

@Suite("Outputs")
struct OutputStreamTests {
    let clock = TestClock()
    let source = PostSource()

    @Test("every subscriber gets its own stream, starting with the current list")
    func manySubscribers() async {
        source.enqueue(pageResponse(0, latency: .zero), pageResponse(1, latency: .zero))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration())
        await initialLoadEnded(feed)
        let recorders = (0..<5).map { _ in StreamRecorder(feed.snapshots) }
        for recorder in recorders {
            #expect(await recorder.waitForCount(1).first?.count == 15)
        }
        await feed.loadMore()
        for recorder in recorders {
            #expect(await recorder.waitFor { $0.count == 30 }?.change == .appended(15..<30))
        }
        #expect(feed.subscriberCounts.snapshots == 5)
    }

    @Test("beyond eight subscribers a fan-out task delivers: newest list to all, versions in order, the last list before the end")
    func fanOutToManySubscribers() async {
        source.enqueue(pageResponse(0, latency: .zero), pageResponse(1, latency: .zero), pageResponse(2, latency: .zero))
        source.enqueue(pageResponse(3, latency: .zero))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration())
        await initialLoadEnded(feed)
        let early = (0..<12).map { _ in StreamRecorder(feed.snapshots) }
        #expect(await feed.loadMore() == .completed(.loadMore, applied: 15))
        let late = StreamRecorder(feed.snapshots) // joins once the fan-out task delivers
        #expect(await late.waitForCount(1).first?.count == 30)
        #expect(await feed.loadMore() == .completed(.loadMore, applied: 15))
        for recorder in early + [late] {
            #expect(await recorder.waitFor { $0.count == 45 } != nil)
        }
        #expect(await feed.loadMore() == .completed(.loadMore, applied: 15))
        await feed.close() // the list of 60 must still reach everyone, then every stream ends
        for recorder in early + [late] {
            let versions = await recorder.waitForFinish().map(\.version)
            #expect(versions == versions.sorted() && Set(versions).count == versions.count, "\(versions)")
            #expect(recorder.last?.count == 60)
        }
        #expect(feed.subscriberCounts.snapshots == 0)
    }

    @Test("a slow subscriber skips to the newest snapshot and can tell what changed")
    func slowSubscriberSkips() async {
        source.enqueue(pageResponse(0, latency: .zero), pageResponse(1, latency: .zero), pageResponse(2, latency: .zero))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration())
        await initialLoadEnded(feed)
        var iterator = feed.snapshots.makeAsyncIterator()
        let first = await iterator.next()
        await feed.loadMore()
        await feed.loadMore()
        let newest = await iterator.next()
        #expect(first?.version == 1)
        #expect(newest?.version == 3) // version 2 was skipped: the stream keeps only the newest
        #expect(newest?.change == .appended(30..<45))
        if let first, let newest {
            #expect(newest.change(since: first) == .appended(15..<45))
            #expect(newest.ids == Array(0..<45))
            #expect(first.ids == Array(0..<15)) // an old snapshot never changes
        }
    }

    @Test("a subscriber that joins mid-load first gets that load's began")
    func lateEventSubscriberSeesBegan() async {
        source.enqueue(pageResponse(0))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration())
        await clock.waitForSleepers(1)
        let events = StreamRecorder(feed.events)
        #expect(await events.waitForCount(1) == [.began(.refresh)])
        clock.advance(by: .seconds(2))
        #expect(await events.waitForCount(2) == [.began(.refresh), .ended(.refresh, .completed)])
    }

    @Test("statuses start with the current one and follow every change")
    func statuses() async {
        source.enqueue(pageResponse(0))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration())
        let statuses = StreamRecorder(feed.statuses)
        #expect(await statuses.waitForCount(1) == [.refreshing])
        #expect(statuses.last?.isLoading == true)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        #expect(await statuses.waitFor { $0 == .idle } == .idle)
    }

    @Test("close ends the load in flight, finishes every stream and ignores later calls")
    func closeFinishesEverything() async {
        source.enqueue(pageResponse(0))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration())
        let events = StreamRecorder(feed.events)
        let snapshots = StreamRecorder(feed.snapshots)
        let statuses = StreamRecorder(feed.statuses)
        await clock.waitForSleepers(1)
        await feed.close()
        #expect(await events.waitForFinish() == [.began(.refresh), .ended(.refresh, .cancelled(.closed))])
        #expect(await snapshots.waitForFinish().last?.isEmpty == true)
        #expect(await statuses.waitForFinish().last == .closed)
        #expect(await feed.refresh() == LoadResult(side: .refresh, outcome: .ignored(.closed)))
        #expect(await feed.loadMore() == LoadResult(side: .loadMore, outcome: .ignored(.closed)))
        // A subscription after close gets the latest value and finishes at once.
        let late = StreamRecorder(feed.statuses)
        #expect(await late.waitForFinish() == [.closed])
        await source.waitForCompletions(1) // the fetch was cancelled
    }

    @Test("a stale page from a source that ignores cancellation is never applied")
    func stalePageDropped() async {
        source.enqueue(
            pageResponse(0, latency: .zero), pageResponse(9, latency: .seconds(5), ignoresCancellation: true),
            .page(posts(100..<115), next: 1, latency: .seconds(1)))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration())
        await initialLoadEnded(feed)
        let diagnostics = StreamRecorder(feed.diagnostics)
        let snapshots = StreamRecorder(feed.snapshots)
        async let loadMore = feed.loadMore()
        await clock.waitForSleepers(1)
        async let refresh = feed.refresh()
        #expect(await loadMore == LoadResult(side: .loadMore, outcome: .cancelled(.preemptedByRefresh)))
        await clock.waitForSleepers(2) // the ignoring load-more still sleeps, next to the refresh
        clock.advance(by: .seconds(1))
        #expect(await refresh == .completed(.refresh, applied: 15))
        clock.advance(by: .seconds(4)) // the cancelled load-more answers now, late
        #expect(await diagnostics.waitForCount(1) == [
            .staleResultDiscarded(side: .loadMore, attempt: 1, succeeded: true),
        ])
        #expect(feed.currentSnapshot.ids == Array(100..<115))
        #expect(snapshots.values.allSatisfy { !$0.ids.contains(135) })
    }

    @Test("duplicate ids are dropped and counted")
    func duplicatesDropped() async {
        source.enqueue(pageResponse(0, latency: .zero), .page(posts(10..<25), next: 2))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration())
        await initialLoadEnded(feed)
        #expect(await feed.loadMore() == .completed(.loadMore, applied: 10, dropped: 5))
        #expect(feed.currentSnapshot.ids == Array(0..<25))
    }

    @Test("duplicates are kept under the keep policy")
    func duplicatesKept() async {
        source.enqueue(pageResponse(0, latency: .zero), .page(posts(10..<25), next: 2))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration(duplicates: .keep))
        await initialLoadEnded(feed)
        #expect(await feed.loadMore() == .completed(.loadMore, applied: 15))
        #expect(feed.currentSnapshot.count == 30)
    }

    @Test("requests sent without waiting run in the order sent")
    func sendKeepsOrder() async {
        source.enqueue(pageResponse(0, latency: .zero), pageResponse(1), .page(posts(200..<215), next: 1))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration())
        await initialLoadEnded(feed)
        let events = StreamRecorder(feed.events)
        feed.send(.loadMore)
        feed.send(.refresh)
        #expect(await events.waitForCount(4) == [
            .began(.loadMore), .ended(.loadMore, .cancelled(.preemptedByRefresh)),
            .began(.refresh), .ended(.refresh, .completed),
        ])
        #expect(feed.currentSnapshot.ids == Array(200..<215))
    }

    @Test("a configuration that cannot work is rejected when made", arguments: [
        (0, nil, FeedConfigurationError.invalidPageSize(0)),
        (10, Duration.zero, FeedConfigurationError.nonPositiveTimeout(.zero)),
        (10, Duration.seconds(-1), FeedConfigurationError.nonPositiveTimeout(.seconds(-1))),
    ] as [(Int, Duration?, FeedConfigurationError)])
    func invalidConfiguration(pageSize: Int, timeout: Duration?, expected: FeedConfigurationError) {
        #expect(throws: expected) { try FeedConfiguration(pageSize: pageSize, timeout: timeout) }
    }

    @Test func invalidRetryPolicies() {
        #expect(throws: FeedConfigurationError.invalidRetryAttempts(0)) {
            try FeedConfiguration(retry: RetryPolicy(maximumAttempts: 0))
        }
        #expect(throws: FeedConfigurationError.invalidJitter(2)) {
            try FeedConfiguration(retry: RetryPolicy(maximumAttempts: 2, jitter: 2))
        }
        #expect(throws: FeedConfigurationError.invalidBackoffMultiplier(0.5)) {
            try FeedConfiguration(retry: RetryPolicy(maximumAttempts: 2, multiplier: 0.5))
        }
    }

    @Test func backoffGrowsAndIsCapped() {
        let policy = RetryPolicy(maximumAttempts: 10, initialBackoff: .seconds(1), multiplier: 2, maximumBackoff: .seconds(5), jitter: 0.5)
        #expect(policy.backoff(beforeRetry: 1) == .seconds(1))
        #expect(policy.backoff(beforeRetry: 3) == .seconds(4))
        #expect(policy.backoff(beforeRetry: 4) == .seconds(5))
        #expect(policy.backoff(beforeRetry: 3, randomUnit: 1) == .seconds(2))
    }
}
