@testable import AsyncPaging
import AsyncPagingTesting
import Testing

/// `FeedController.updates` on the test clock: the list, the status and the load states of one
/// moment, newest only, any number of readers, the end on close.
@Suite("Updates")
struct FeedUpdatesTests {
    let clock = TestClock()
    let source = PostSource()

    @Test("an iteration starts with the current update, then gets each turn's list and states together")
    func currentThenTurns() async {
        source.enqueue(pageResponse(0))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration())
        var updates = feed.updates.makeAsyncIterator()
        let first = await updates.next()
        #expect(first?.snapshot.isEmpty == true)
        #expect(first?.status == .refreshing)
        #expect(first?.loadStates.refresh == .loading)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        // The page and the end of its load come as one update: never the new list with the
        // status of its load still running.
        let second = await updates.next()
        #expect(second?.snapshot.ids == Array(0..<15))
        #expect(second?.snapshot.change == .replaced)
        #expect(second?.status == .idle)
        #expect(second?.loadStates == FeedLoadStates(refresh: .idle, loadPrevious: .reachedEnd, loadMore: .idle))
        await feed.close()
    }

    @Test("a reader that is busy gets only the newest update, and can tell what changed")
    func latestWins() async {
        source.enqueue(pageResponse(0, latency: .zero), pageResponse(1, latency: .zero), pageResponse(2, latency: .zero))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration())
        await initialLoadEnded(feed)
        var updates = feed.updates.makeAsyncIterator()
        let first = await updates.next()
        #expect(first?.snapshot.count == 15)
        #expect(await feed.loadMore() == .completed(.loadMore, applied: 15))
        #expect(await feed.loadMore() == .completed(.loadMore, applied: 15))
        let newest = await updates.next() // the two loads' four updates, skipped to the newest
        #expect(newest?.snapshot.version == 3)
        #expect(newest?.status == .idle)
        #expect(newest?.loadStates.isLoading == false)
        if let first, let newest {
            #expect(newest.snapshot.change(since: first.snapshot) == .appended(15..<45))
            #expect(newest.snapshot.ids == Array(0..<45))
        }
        await feed.close()
        #expect(await updates.next()?.status == .closed)
        #expect(await updates.next() == nil)
    }

    @Test("an update never pairs the last page with its load still running")
    func statusMatchesList() async {
        for index in 0..<4 { source.enqueue(pageResponse(index, last: index == 3, latency: .zero)) }
        let feed = PostFeed(source: source, clock: clock, configuration: configuration())
        // A reader running on the pool beside the controller, recording every update it gets.
        let reader = Task {
            var seen: [FeedUpdate<Post>] = []
            for await update in feed.updates {
                seen.append(update)
                if update.status == .closed { break }
            }
            return seen
        }
        await initialLoadEnded(feed)
        for _ in 0..<3 { await feed.loadMore() }
        #expect(feed.currentStatus == .endOfData)
        await feed.close()
        let seen = await reader.value
        #expect(seen.last?.status == .closed)
        #expect(seen.last?.snapshot.count == 60)
        for update in seen {
            // The last page's turn ends the data: a list of 60 with any other status (or the
            // end with a shorter list) would be half a turn.
            if update.status != .closed {
                #expect((update.snapshot.count == 60) == (update.status == .endOfData), "\(update)")
            }
            #expect(update.loadStates.loadMore.isLoading == (update.status == .loadingMore), "\(update)")
        }
        let versions = seen.map(\.snapshot.version)
        #expect(versions == versions.sorted(), "\(versions)")
        // Latest wins: no update is handed twice.
        for (earlier, later) in zip(seen, seen.dropFirst()) {
            #expect(
                earlier.snapshot.version != later.snapshot.version || earlier.status != later.status
                    || earlier.loadStates != later.loadStates, "\(earlier) then \(later)")
        }
    }

    @Test("any number of readers each get the newest update; a sequence can be iterated again")
    func manyReaders() async {
        source.enqueue(pageResponse(0, latency: .zero), pageResponse(1, latency: .zero))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration())
        await initialLoadEnded(feed)
        let updates = feed.updates
        let readers = (0..<12).map { _ in
            Task { () -> FeedUpdate<Post>? in
                for await update in updates where update.snapshot.count == 30 { return update }
                return nil
            }
        }
        #expect(await feed.loadMore() == .completed(.loadMore, applied: 15))
        for reader in readers {
            let update = await reader.value
            #expect(update?.snapshot.ids == Array(0..<30))
            #expect(update?.status == .idle)
        }
        // A new iteration of the same sequence starts again from the current update.
        var again = updates.makeAsyncIterator()
        #expect(await again.next()?.snapshot.count == 30)
        #expect(feed.updates.waitingReaders == 0)
        await feed.close()
    }

    @Test("close wakes a waiting reader with the last update, then ends it; later iterations get the last update and end")
    func closeEndsIterations() async {
        source.enqueue(pageResponse(0, latency: .zero))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration())
        await initialLoadEnded(feed)
        let reader = Task { () -> [FeedStatus] in
            var statuses: [FeedStatus] = []
            for await update in feed.updates { statuses.append(update.status) }
            return statuses // ends only when the iteration ends
        }
        await feed.close()
        let statuses = await reader.value
        #expect(statuses.last == .closed)
        #expect(statuses.count <= 2) // idle (if it ran before the close), then closed
        var late = feed.updates.makeAsyncIterator()
        let last = await late.next()
        #expect(last?.status == .closed)
        #expect(last?.snapshot.ids == Array(0..<15))
        #expect(await late.next() == nil)
        #expect(await late.next() == nil)
        #expect(feed.updates.waitingReaders == 0)
    }

    @Test("releasing the controller ends the iterations like close")
    func releaseEndsIterations() async {
        source.enqueue(pageResponse(0, latency: .zero))
        var feed: PostFeed? = PostFeed(source: source, clock: clock, configuration: configuration())
        await initialLoadEnded(feed!)
        let updates = feed!.updates
        var iterator = updates.makeAsyncIterator()
        #expect(await iterator.next()?.snapshot.count == 15)
        feed = nil
        #expect(await iterator.next()?.status == .closed)
        #expect(await iterator.next() == nil)
    }

    @Test("a cancelled reader's iteration ends with nil and leaves no waiter behind")
    func cancelledReaderEnds() async {
        source.enqueue(pageResponse(0))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration())
        let reader = Task { () -> (first: FeedUpdate<Post>?, second: FeedUpdate<Post>?) in
            var updates = feed.updates.makeAsyncIterator()
            let first = await updates.next() // the current update: there is one, even when cancelled
            let second = await updates.next() // nothing new before the clock moves: ends on cancel
            return (first, second)
        }
        reader.cancel()
        let (first, second) = await reader.value
        #expect(first?.status == .refreshing)
        #expect(second == nil)
        #expect(feed.updates.waitingReaders == 0)
        await feed.close()
    }

    @Test("an edit with no load in flight is an update of its own")
    func editIsAnUpdate() async throws {
        source.enqueue(pageResponse(0, latency: .zero))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration())
        await initialLoadEnded(feed)
        var updates = feed.updates.makeAsyncIterator()
        let before = await updates.next()
        _ = try await feed.update(Post(id: 3))
        // Checked without waiting first: a reader that had to wait here would wait for a load.
        guard !feed.updates.broadcaster.state.withLock({ $0.updatePending }) else {
            Issue.record("the edit's list is not an update: a reader would wait")
            return
        }
        let edited = await updates.next()
        #expect(edited?.snapshot.version == (before?.snapshot.version ?? 0) + 1)
        #expect(edited?.snapshot.change == .updated([3]))
        #expect(edited?.status == .idle)
        await feed.close()
    }

    @Test("an edit made while a load is in flight reaches update readers at once, then the page")
    func editDuringALoad() async throws {
        source.enqueue(pageResponse(0, latency: .zero), pageResponse(1))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration())
        await initialLoadEnded(feed)
        var updates = feed.updates.makeAsyncIterator()
        _ = await updates.next()
        async let loadMore = feed.loadMore()
        await clock.waitForSleepers(1)
        let loading = await updates.next()
        #expect(loading?.status == .loadingMore)
        _ = try await feed.update(Post(id: 3))
        let edited = await updates.next() // the edit's own turn, while the load runs
        #expect(edited?.snapshot.change == .updated([3]))
        #expect(edited?.status == .loadingMore)
        clock.advance(by: .seconds(2))
        #expect(await loadMore == .completed(.loadMore, applied: 15))
        let landed = await updates.next()
        #expect(landed?.snapshot.count == 30)
        #expect(landed?.status == .idle)
        await feed.close()
    }

    @Test("a reader on the main actor gets its updates there")
    @MainActor
    func readerOnTheMainActor() async {
        source.enqueue(pageResponse(0, latency: .zero), pageResponse(1, latency: .zero))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration())
        var counts: [Int] = []
        for await update in feed.updates {
            counts.append(update.snapshot.count)
            if update.snapshot.count == 15 { await feed.loadMore() }
            if update.snapshot.count == 30 { break }
        }
        #expect(counts.last == 30)
        await feed.close()
    }
}
