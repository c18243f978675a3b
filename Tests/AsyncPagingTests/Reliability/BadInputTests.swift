import AsyncPaging
import AsyncPagingTesting
import Testing

/// What a caller gets for each kind of bad input: one test per row of the README's table.
@Suite("Bad input")
struct BadInputTests {
    let clock = TestClock()
    let source = RowSource()

    func makeFeed(_ configuration: FeedConfiguration = configuration(pageSize: 3, loadsInitialPage: false)) -> RowFeed {
        RowFeed(source: source, clock: clock, configuration: configuration)
    }

    /// A feed showing rows 0..<3 with next cursor 1.
    func loadedFeed(_ configuration: FeedConfiguration = configuration(pageSize: 3, loadsInitialPage: false)) async -> RowFeed {
        let feed = makeFeed(configuration)
        source.enqueue(.page(rows(0..<3), next: 1))
        #expect(await feed.refresh() == LoadResult(
            side: .refresh, outcome: .completed(LoadSummary(itemsApplied: 3))))
        return feed
    }

    @Test("a throwing source: the call fails with the error, the list stays, retry runs the load again")
    func throwingSource() async {
        let feed = await loadedFeed()
        let events = StreamRecorder(feed.events)
        source.enqueue(.failure(ScriptedFailure(request: 1)))
        let failure = FeedFailure(error: ScriptedFailure(request: 1), side: .loadMore, attempt: 1)
        #expect(await feed.loadMore() == LoadResult(side: .loadMore, outcome: .failed(failure)))
        #expect(feed.currentSnapshot.ids == [0, 1, 2])
        #expect(feed.currentStatus == .failed(failure))
        #expect(await events.waitForCount(2) == [.began(.loadMore), .ended(.loadMore, .failed(failure))])

        source.enqueue(.page(rows(3..<6), next: 2))
        #expect(await feed.retry() == LoadResult(side: .loadMore, outcome: .completed(LoadSummary(itemsApplied: 3))))
        #expect(source.requests.map(\.attempt) == [1, 1, 2])
        #expect(feed.currentSnapshot.ids == Array(0..<6))
        await feed.close()
    }

    @Test("a hanging source with a timeout: the call fails with timedOut on the clock and the fetch is cancelled")
    func hangingSourceWithTimeout() async {
        let feed = makeFeed(configuration(pageSize: 3, loadsInitialPage: false, timeout: .seconds(5)))
        source.enqueue(.hang)
        async let result = feed.refresh()
        await clock.waitForSleepers(2) // the hang and the timeout
        clock.advance(by: .seconds(5))
        let failure = FeedFailure(error: FeedError.timedOut(after: .seconds(5)), side: .refresh, attempt: 1)
        #expect(await result == LoadResult(side: .refresh, outcome: .failed(failure)))
        await source.waitForCompletions(1) // the hanging fetch was cancelled and returned
        #expect(clock.pendingDeadlines.isEmpty)
        #expect(feed.currentStatus == .failed(failure))
        await feed.close()
    }

    @Test("a hanging source without a timeout: the call waits until a newer request or close ends the load")
    func hangingSourceWithoutTimeout() async {
        let feed = makeFeed()
        source.enqueue(.hang, .hang)
        async let first = feed.refresh()
        await clock.waitForSleepers(1)
        #expect(feed.currentStatus == .refreshing)
        // A newer refresh supersedes it (restart policy)...
        async let second = feed.refresh()
        #expect(await first == LoadResult(side: .refresh, outcome: .cancelled(.supersededByNewerRequest)))
        await source.waitForCompletions(1)
        await clock.waitForSleepers(1)
        // ...and close ends the one left.
        await feed.close()
        #expect(await second == LoadResult(side: .refresh, outcome: .cancelled(.closed)))
        await source.waitForCompletions(2)
        #expect(clock.pendingDeadlines.isEmpty)
    }

    @Test("a source that ignores cancellation: the cancelled call says so and its late page is discarded")
    func cancellationIgnoringSource() async {
        let feed = await loadedFeed()
        let diagnostics = StreamRecorder(feed.diagnostics)
        source.enqueue(.page(rows(100..<103), next: 9, latency: .seconds(2), ignoresCancellation: true))
        async let more = feed.loadMore()
        await clock.waitForSleepers(1)
        source.enqueue(.page(rows(10..<13), next: 1))
        #expect(await feed.refresh() == LoadResult(side: .refresh, outcome: .completed(LoadSummary(itemsApplied: 3))))
        #expect(await more == LoadResult(side: .loadMore, outcome: .cancelled(.preemptedByRefresh)))

        clock.advance(by: .seconds(2)) // the late page arrives...
        let stale = FeedDiagnostic.staleResultDiscarded(side: .loadMore, attempt: 1, succeeded: true)
        #expect(await diagnostics.waitFor { $0 == stale } == stale)
        // ...and is not applied, and its cursor is not followed.
        #expect(feed.currentSnapshot.ids == [10, 11, 12])
        source.enqueue(.page(rows(13..<16), next: nil))
        _ = await feed.loadMore()
        #expect(source.requests.last?.cursor == 1)
        await feed.close()
    }

    @Test("a source that ignores cancellation past the timeout: the call fails with timedOut and the late page is discarded")
    func cancellationIgnoringSourcePastTimeout() async {
        let feed = makeFeed(configuration(pageSize: 3, loadsInitialPage: false, timeout: .seconds(5)))
        let diagnostics = StreamRecorder(feed.diagnostics)
        source.enqueue(.page(rows(0..<3), next: 1, latency: .seconds(7), ignoresCancellation: true))
        async let result = feed.refresh()
        await clock.waitForSleepers(2)
        clock.advance(by: .seconds(5))
        let failure = FeedFailure(error: FeedError.timedOut(after: .seconds(5)), side: .refresh, attempt: 1)
        #expect(await result == LoadResult(side: .refresh, outcome: .failed(failure)))
        clock.advance(by: .seconds(2))
        #expect(await diagnostics.waitForCount(2) == [
            .timedOut(side: .refresh, attempt: 1),
            .staleResultDiscarded(side: .refresh, attempt: 1, succeeded: true),
        ])
        #expect(feed.currentSnapshot.isEmpty)
        #expect(feed.currentStatus == .failed(failure))
        await feed.close()
    }

    @Test("duplicate ids (drop policy): later copies are dropped, counted and reported")
    func duplicateIdsDropped() async {
        let feed = await loadedFeed()
        let diagnostics = StreamRecorder(feed.diagnostics)
        source.enqueue(.page(rows([2, 3, 3, 0, 4]), next: 2))
        #expect(await feed.loadMore() == LoadResult(
            side: .loadMore, outcome: .completed(LoadSummary(itemsApplied: 2, droppedDuplicates: 3))))
        #expect(feed.currentSnapshot.ids == [0, 1, 2, 3, 4])
        #expect(await diagnostics.waitForCount(1) == [.duplicatesDropped(side: .loadMore, count: 3)])
        await feed.close()
    }

    @Test("duplicate ids (keep policy): every item is kept and none is counted")
    func duplicateIdsKept() async {
        let feed = await loadedFeed(configuration(pageSize: 3, loadsInitialPage: false, duplicates: .keep))
        source.enqueue(.page(rows([2, 3, 3]), next: 2))
        #expect(await feed.loadMore() == LoadResult(side: .loadMore, outcome: .completed(LoadSummary(itemsApplied: 3))))
        #expect(feed.currentSnapshot.ids == [0, 1, 2, 2, 3, 3])
        await feed.close()
    }

    @Test("a repeated cursor: the page is applied once, load-more stops, retry rechecks without appending again")
    func repeatedCursor() async {
        // `.keep`, so that a page applied twice would show (issue 11, bug 5: it gave [0, 1, 1, 1]).
        let feed = await loadedFeed(configuration(pageSize: 3, loadsInitialPage: false, duplicates: .keep))
        source.enqueue(.page(rows(3..<6), next: 1)) // cursor 1 points back at itself
        let failure = FeedFailure(error: FeedError.repeatedCursor("1"), side: .loadMore, attempt: 1)
        #expect(await feed.loadMore() == LoadResult(side: .loadMore, outcome: .failed(failure)))
        #expect(feed.currentSnapshot.ids == Array(0..<6))
        #expect(feed.currentStatus == .failed(failure))
        // Nothing loops on its own, however often the UI asks.
        #expect(await feed.loadMore() == LoadResult(side: .loadMore, outcome: .ignored(.stoppedByGuard)))
        #expect(source.requests.count == 2)
        // retry() asks for the last page again to get a fresh `next`; its items are not applied again.
        source.enqueue(.page(rows(3..<6), next: 1))
        let again = FeedFailure(error: FeedError.repeatedCursor("1"), side: .loadMore, attempt: 2)
        #expect(await feed.retry() == LoadResult(side: .loadMore, outcome: .failed(again)))
        #expect(feed.currentSnapshot.ids == Array(0..<6))
        source.enqueue(.page(rows(3..<6), next: 2)) // the server fixed its cursors
        #expect(await feed.retry() == LoadResult(side: .loadMore, outcome: .completed(LoadSummary(itemsApplied: 0))))
        #expect(feed.currentSnapshot.ids == Array(0..<6))
        source.enqueue(.page(rows(6..<9), next: nil))
        #expect(await feed.loadMore() == LoadResult(
            side: .loadMore, outcome: .completed(LoadSummary(itemsApplied: 3, reachedEnd: true))))
        #expect(feed.currentSnapshot.ids == Array(0..<9))
        #expect(source.requests.map(\.cursor) == [nil, 1, 1, 1, 2])
        await feed.close()
    }

    @Test("empty pages claiming more: one load follows up to the limit, then fails; load-more stops until retry")
    func emptyPageClaimingMore() async {
        let feed = await loadedFeed() // follows up to 3 empty pages by default
        source.enqueue(.page([], next: 2), .page([], next: 3), .page([], next: 4), .page([], next: 5))
        let failure = FeedFailure(error: FeedError.emptyPageClaimsMore, side: .loadMore, attempt: 1)
        #expect(await feed.loadMore() == LoadResult(side: .loadMore, outcome: .failed(failure)))
        #expect(feed.currentSnapshot.ids == [0, 1, 2])
        #expect(source.requests.map(\.cursor) == [nil, 1, 2, 3, 4])
        // Issue 11, bug 6: a UI calling loadMore() at the bottom 100 times fetches nothing.
        for _ in 0..<100 {
            #expect(await feed.loadMore() == LoadResult(side: .loadMore, outcome: .ignored(.stoppedByGuard)))
        }
        #expect(source.requests.count == 5)
        source.enqueue(.page(rows(3..<6), next: nil))
        #expect(await feed.retry() == LoadResult(
            side: .loadMore, outcome: .completed(LoadSummary(itemsApplied: 3, reachedEnd: true))))
        #expect(source.requests.map(\.cursor) == [nil, 1, 2, 3, 4, 5])
        await feed.close()
    }

    @Test("one empty page claiming more is followed within the same load")
    func oneEmptyPageIsFollowed() async {
        let feed = await loadedFeed()
        source.enqueue(.page([], next: 2), .page(rows(3..<6), next: 3))
        #expect(await feed.loadMore() == LoadResult(side: .loadMore, outcome: .completed(LoadSummary(itemsApplied: 3))))
        #expect(feed.currentSnapshot.ids == Array(0..<6))
        #expect(source.requests.map(\.cursor) == [nil, 1, 2])
        await feed.close()
    }

    @Test("loadMore() after a failed first page fetches nothing; retry() runs the refresh again")
    func loadMoreAfterAFailedFirstPage() async {
        let feed = makeFeed(configuration(pageSize: 3, loadsInitialPage: false))
        source.enqueue(.failure(ScriptedFailure(request: 0)))
        let failure = FeedFailure(error: ScriptedFailure(request: 0), side: .refresh, attempt: 1)
        #expect(await feed.refresh() == LoadResult(side: .refresh, outcome: .failed(failure)))
        // Issue 11, bug 7: it fetched the first page as a load-more and appended it.
        #expect(await feed.loadMore() == LoadResult(side: .loadMore, outcome: .ignored(.noFirstPage)))
        #expect(feed.currentStatus == .failed(failure))
        #expect(source.requests.count == 1)
        source.enqueue(.page(rows(0..<3), next: 1))
        #expect(await feed.retry() == LoadResult(side: .refresh, outcome: .completed(LoadSummary(itemsApplied: 3))))
        #expect(feed.currentSnapshot.generation == 1)
        await feed.close()
    }

    @Test("an invalid configuration: FeedConfiguration's initializer throws a typed FeedConfigurationError")
    func invalidConfiguration() {
        let invalid: [(String, () throws(FeedConfigurationError) -> FeedConfiguration, FeedConfigurationError)] = [
        ("page size 0", { () throws(FeedConfigurationError) in try FeedConfiguration(pageSize: 0) }, .invalidPageSize(0)),
        ("timeout 0", { () throws(FeedConfigurationError) in try FeedConfiguration(timeout: .zero) }, .nonPositiveTimeout(.zero)),
        ("negative timeout", { () throws(FeedConfigurationError) in try FeedConfiguration(timeout: .seconds(-1)) }, .nonPositiveTimeout(.seconds(-1))),
        ("0 attempts", { () throws(FeedConfigurationError) in try FeedConfiguration(retry: RetryPolicy(maximumAttempts: 0)) }, .invalidRetryAttempts(0)),
        ("negative backoff", { () throws(FeedConfigurationError) in
            try FeedConfiguration(retry: RetryPolicy(maximumAttempts: 2, initialBackoff: .seconds(-1)))
        }, .negativeBackoff(.seconds(-1))),
        ("maximum below initial", { () throws(FeedConfigurationError) in
            try FeedConfiguration(retry: RetryPolicy(maximumAttempts: 2, initialBackoff: .seconds(5), maximumBackoff: .seconds(1)))
        }, .maximumBackoffBelowInitial(initial: .seconds(5), maximum: .seconds(1))),
        ("multiplier below 1", { () throws(FeedConfigurationError) in
            try FeedConfiguration(retry: RetryPolicy(maximumAttempts: 2, multiplier: 0.5))
        }, .invalidBackoffMultiplier(0.5)),
        ("infinite multiplier", { () throws(FeedConfigurationError) in
            try FeedConfiguration(retry: RetryPolicy(maximumAttempts: 2, multiplier: .infinity))
        }, .invalidBackoffMultiplier(.infinity)),
        ("jitter above 1", { () throws(FeedConfigurationError) in
            try FeedConfiguration(retry: RetryPolicy(maximumAttempts: 2, jitter: 1.5))
        }, .invalidJitter(1.5)),
        ("negative jitter", { () throws(FeedConfigurationError) in
            try FeedConfiguration(retry: RetryPolicy(maximumAttempts: 2, jitter: -0.1))
        }, .invalidJitter(-0.1)),
        ]
        for (name, make, expected) in invalid {
            #expect(throws: expected, "\(name)") { try make() }
        }
        // NaN compares unequal to itself, so it is checked by case.
        #expect {
            try FeedConfiguration(retry: RetryPolicy(maximumAttempts: 2, multiplier: .nan))
        } throws: { error in
            if case .invalidBackoffMultiplier(let value) = error as? FeedConfigurationError { value.isNaN } else { false }
        }
        #expect {
            try FeedConfiguration(retry: RetryPolicy(maximumAttempts: 2, jitter: .nan))
        } throws: { error in
            if case .invalidJitter(let value) = error as? FeedConfigurationError { value.isNaN } else { false }
        }
    }

    @Test("calls after close: every call answers ignored(closed), send does nothing, new streams finish at once")
    func callsAfterClose() async {
        let feed = await loadedFeed()
        await feed.close()
        await feed.close() // closing twice is harmless
        #expect(await feed.refresh() == LoadResult(side: .refresh, outcome: .ignored(.closed)))
        #expect(await feed.loadMore() == LoadResult(side: .loadMore, outcome: .ignored(.closed)))
        #expect(await feed.retry() == LoadResult(side: nil, outcome: .ignored(.closed)))
        feed.send(.refresh)
        feed.send(.loadMore)
        #expect(source.requests.count == 1)
        #expect(await collect(feed.snapshots).map(\.ids) == [[0, 1, 2]])
        #expect(await collect(feed.statuses) == [.closed])
        #expect(await collect(feed.events).isEmpty)
        #expect(await collect(feed.diagnostics).isEmpty)
        #expect(feed.subscriberCounts == (0, 0, 0))
    }

    @Test("a source that throws CancellationError on its own: the call fails with it, like any error")
    func spontaneousCancellationError() async {
        let feed = makeFeed()
        source.enqueue(.failure(CancellationError()))
        let failure = FeedFailure(error: CancellationError(), side: .refresh, attempt: 1)
        #expect(await feed.refresh() == LoadResult(side: .refresh, outcome: .failed(failure)))
        #expect(feed.currentStatus == .failed(failure))
        await feed.close()
    }

    @Test("a page longer than the page size: every item is applied")
    func oversizedPage() async {
        let feed = makeFeed()
        source.enqueue(.page(rows(0..<50), next: 1))
        #expect(await feed.refresh() == LoadResult(side: .refresh, outcome: .completed(LoadSummary(itemsApplied: 50))))
        #expect(feed.currentSnapshot.count == 50)
        await feed.close()
    }
}
