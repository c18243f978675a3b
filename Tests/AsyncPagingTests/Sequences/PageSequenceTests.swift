import AsyncPaging
import AsyncPagingTesting
import Testing

/// An error that says when to try again, as an HTTP 503 with `Retry-After` does.
struct BusyError: PageSourceError, Equatable {
    var retryAfter: Duration?
    var isRetryable: Bool { true }
}

/// An error that trying again cannot mend, as an HTTP 404.
struct GoneError: PageSourceError, Equatable {
    var isRetryable: Bool { false }
}

/// Reads a sequence to its end or its first error: what it returned, and the error.
func readAll<Element>(
    _ sequence: some AsyncSequence<Element, FeedFailure>
) async -> (elements: [Element], failure: FeedFailure?) {
    var elements: [Element] = []
    do {
        for try await element in sequence { elements.append(element) }
        return (elements, nil)
    } catch {
        return (elements, error)
    }
}

@Suite("Page and item sequences over a source")
struct PageSequenceTests {
    let clock = TestClock()

    @Test("items come page after page to the end of the data, from the first page")
    func itemsToTheEnd() async {
        let source = PostSource()
        source.enqueue(pageResponse(0, size: 3, latency: .zero), pageResponse(1, size: 3, latency: .zero),
                       pageResponse(2, size: 3, last: true, latency: .zero))
        let (items, failure) = await readAll(source.items(configuration: configuration(pageSize: 3), clock: clock))
        #expect(items.map(\.id) == Array(0..<9))
        #expect(failure == nil)
        #expect(source.requests.map(\.cursor) == [nil, 1, 2])
        #expect(source.requests.map(\.side) == [.refresh, .loadMore, .loadMore])
        #expect(source.requests.map(\.pageSize) == [3, 3, 3])
    }

    @Test("pages start at the cursor given, and an iteration after the end returns nil")
    func pagesFromACursor() async throws {
        let source = PostSource()
        source.enqueue(pageResponse(4, size: 2, latency: .zero), pageResponse(5, size: 2, last: true, latency: .zero))
        var pages = source.pages(from: 4, configuration: configuration(pageSize: 2), clock: clock).makeAsyncIterator()
        #expect(try await pages.next()?.items.map(\.id) == [8, 9])
        #expect(try await pages.next()?.next == nil)
        #expect(try await pages.next() == nil)
        #expect(source.requests.map(\.cursor) == [4, 5])
    }

    @Test("a failed try is retried after the policy's backoff on the clock, with the attempt in the request")
    func retriesWithBackoff() async throws {
        let source = PostSource()
        source.enqueue(.failure(ServerError(code: 500)), .failure(ServerError(code: 502)), pageResponse(0, last: true, latency: .zero))
        let retry = RetryPolicy(maximumAttempts: 3, initialBackoff: .seconds(1), multiplier: 2)
        let sequence = source.items(configuration: configuration(retry: retry), clock: clock)
        let reading = Task { await readAll(sequence) }
        #expect(await clock.waitForSleepers(1))
        #expect(clock.nextDeadline == TestClock.Instant(offset: .seconds(1)))
        clock.advance(by: .seconds(1))
        #expect(await source.waitForRequests(2))
        #expect(await clock.waitForSleepers(1))
        #expect(clock.nextDeadline == TestClock.Instant(offset: .seconds(3))) // 1 s, then 2 s
        clock.advance(by: .seconds(2))
        let (items, failure) = await reading.value
        #expect(items.count == 15)
        #expect(failure == nil)
        #expect(source.requests.map(\.attempt) == [1, 2, 3])
    }

    @Test("the last try's error ends the iteration, typed, with its side and attempt")
    func retriesRunOut() async {
        let source = PostSource()
        source.enqueue(pageResponse(0, latency: .zero), .failure(ServerError(code: 500)), .failure(ServerError(code: 503)))
        let retry = RetryPolicy(maximumAttempts: 2, initialBackoff: .seconds(1))
        var iterator = source.items(configuration: configuration(retry: retry), clock: clock).makeAsyncIterator()
        let reading = Task {
            var ids: [Int] = []
            do {
                while let item = try await iterator.next() { ids.append(item.id) }
                return (ids, FeedFailure?.none, false)
            } catch {
                let after = try? await iterator.next()
                return (ids, error as? FeedFailure, after == nil)
            }
        }
        #expect(await clock.waitForSleepers(1))
        clock.advance(by: .seconds(1))
        let (ids, failure, endedAfter) = await reading.value
        #expect(ids == Array(0..<15))
        #expect(failure == FeedFailure(error: ServerError(code: 503), side: .loadMore, attempt: 2))
        #expect(endedAfter)
    }

    @Test("a first page that fails surfaces as that failure, on the refresh side")
    func firstPageFails() async {
        let source = PostSource()
        source.enqueue(.failure(GoneError()))
        let retry = RetryPolicy(maximumAttempts: 5)
        let (items, failure) = await readAll(source.items(configuration: configuration(retry: retry), clock: clock))
        #expect(items.isEmpty)
        #expect(failure == FeedFailure(error: GoneError(), side: .refresh, attempt: 1)) // not retryable: no retry
        #expect(source.requests.count == 1)
    }

    @Test("Retry-After lengthens the backoff, up to the policy's maximum")
    func retryAfter() async {
        let source = PostSource()
        source.enqueue(.failure(BusyError(retryAfter: .seconds(10))), .failure(BusyError(retryAfter: .seconds(500))),
                       pageResponse(0, last: true, latency: .zero))
        let retry = RetryPolicy(maximumAttempts: 3, initialBackoff: .seconds(1), maximumBackoff: .seconds(30))
        let reading = Task { [clock] in await readAll(source.pages(configuration: configuration(retry: retry), clock: clock)) }
        #expect(await clock.waitForSleepers(1))
        #expect(clock.nextDeadline == TestClock.Instant(offset: .seconds(10)))
        clock.advance(by: .seconds(10))
        #expect(await source.waitForRequests(2))
        #expect(await clock.waitForSleepers(1))
        #expect(clock.nextDeadline == TestClock.Instant(offset: .seconds(40))) // capped at 30 s
        clock.advance(by: .seconds(30))
        let (pages, failure) = await reading.value
        #expect(pages.count == 1)
        #expect(failure == nil)
    }

    @Test("a fetch that outlasts the timeout is cancelled and fails with timedOut, which is retried")
    func timeout() async {
        let source = PostSource()
        source.enqueue(.hang, pageResponse(0, last: true, latency: .zero))
        let retry = RetryPolicy(maximumAttempts: 2, initialBackoff: .seconds(1))
        let sequence = source.items(configuration: configuration(retry: retry, timeout: .seconds(5)), clock: clock)
        let reading = Task { await readAll(sequence) }
        #expect(await clock.waitForSleepers(2)) // the hanging source and the timeout
        clock.advance(by: .seconds(5))
        #expect(await source.waitForCompletions(1)) // the hanging fetch was cancelled
        #expect(await clock.waitForSleepers(1)) // the backoff
        clock.advance(by: .seconds(1))
        let (items, failure) = await reading.value
        #expect(items.count == 15)
        #expect(failure == nil)
        #expect(source.requests.map(\.attempt) == [1, 2])
    }

    @Test("without retries a timeout ends the iteration with FeedError.timedOut")
    func timeoutFails() async {
        let source = PostSource()
        source.enqueue(pageResponse(0, latency: .zero), .hang)
        let sequence = source.items(configuration: configuration(timeout: .seconds(5)), clock: clock)
        let reading = Task { await readAll(sequence) }
        #expect(await source.waitForRequests(2))
        #expect(await clock.waitForSleepers(2))
        clock.advance(by: .seconds(5))
        let (items, failure) = await reading.value
        #expect(items.count == 15)
        #expect(failure == FeedFailure(error: FeedError.timedOut(after: .seconds(5)), side: .loadMore, attempt: 1))
    }

    @Test("a clock that throws from sleep ends the iteration with clockFailed, not a wait for ever")
    func failingClock() async {
        let source = PostSource()
        source.enqueue(.failure(ServerError(code: 500)))
        let retry = RetryPolicy(maximumAttempts: 3)
        let (_, failure) = await readAll(source.items(configuration: configuration(retry: retry), clock: FailingClock()))
        #expect(failure == FeedFailure(error: FeedError.clockFailed("the clock is broken"), side: .refresh, attempt: 1))
    }

    @Test("a page whose next cursor was already fetched is returned, then the iteration throws repeatedCursor")
    func repeatedCursor() async {
        let source = PostSource()
        source.enqueue(.page(posts(0..<2), next: 1), .page(posts(2..<4), next: 2), .page(posts(4..<6), next: 1))
        let (pages, failure) = await readAll(source.pages(configuration: configuration(pageSize: 2), clock: clock))
        #expect(pages.map { $0.items.map(\.id) } == [[0, 1], [2, 3], [4, 5]])
        #expect(failure == FeedFailure(error: FeedError.repeatedCursor("1"), side: .loadMore, attempt: 1))
        #expect(source.requests.count == 3)
    }

    @Test("a loop after 3,000 pages: of up to 8 pages caught at its first repeat, a longer one less than a loop later",
          arguments: [1, 17, 64, 65, 129, 1_537, 2_992, 2_993, 2_999, 3_000])
    func repeatedCursorAfterManyPages(repeated: Int) async {
        let numbers = ScriptedPageSource<Int, Int>(responder: { request in
            let cursor = request.cursor ?? 0
            return .page([cursor], next: cursor < 3_000 ? cursor + 1 : repeated)
        })
        let (items, failure) = await readAll(numbers.items(clock: clock))
        let loop = 3_001 - repeated // cursors repeated...3_000, again and again
        #expect(Array(items.prefix(3_001)) == Array(0...3_000))
        // Past the first repeat, the pages fetched again are the loop's, in order, fewer than a loop.
        let again = Array(items.dropFirst(3_001))
        #expect(again == (0..<again.count).map { repeated + $0 % loop })
        #expect(loop > 8 ? again.count < loop : again.isEmpty, "\(again.count) items again, loop of \(loop)")
        // The error names the cursor that the last page returned names, one fetched before.
        let named = items.last.map { $0 < 3_000 ? $0 + 1 : repeated } ?? -1
        #expect(failure == FeedFailure(error: FeedError.repeatedCursor("\(named)"), side: .loadMore, attempt: 1))
    }

    @Test("loops of 1 and 2 pages, and of 2 pages after 100,000, stop at their first repeat")
    func shortLoops() async {
        // The first page (cursor nil) holds 0 and names 1; page c names c + 1 up to
        // `tail + loop`, whose page names `tail + 1`.
        for (tail, loop) in [(0, 1), (5, 1), (0, 2), (5, 2), (100_000, 2)] {
            let numbers = ScriptedPageSource<Int, Int>(responder: { request in
                let cursor = request.cursor ?? 0
                return .page([cursor], next: cursor < tail + loop ? cursor + 1 : tail + 1)
            })
            let (items, failure) = await readAll(numbers.items(clock: clock))
            #expect(items == Array(0...(tail + loop)), "tail \(tail), loop \(loop)")
            #expect(failure?.error as? FeedError == .repeatedCursor("\(tail + 1)"))
        }
    }

    @Test("a long loop without ids: its items come again, fewer than a loop, then repeatedCursor")
    func longLoopRepeatsItems() async {
        // Pages 0...99, then page 99 names page 10 (a loop of 90 pages).
        let numbers = ScriptedPageSource<Int, Int>(responder: { request in
            let cursor = request.cursor ?? 0
            return .page([cursor * 2, cursor * 2 + 1], next: cursor < 99 ? cursor + 1 : 10)
        })
        let (pages, failure) = await readAll(numbers.pages(clock: clock))
        #expect(pages.prefix(100).map(\.items) == (0..<100).map { [$0 * 2, $0 * 2 + 1] })
        let again = pages.dropFirst(100).map { $0.items[0] / 2 }
        #expect(!again.isEmpty && again.count < 90)
        #expect(again == Array(10..<(10 + again.count)))
        #expect(failure?.error as? FeedError == .repeatedCursor("\(again.last.map { $0 + 1 } ?? -1)"))
        #expect(numbers.requests.count == 100 + again.count)
    }

    @Test("a long loop with ids: nothing is returned twice (pages of duplicates are skipped), then repeatedCursor")
    func longLoopWithIDs() async {
        let source = PostSource(responder: { request in
            let cursor = request.cursor ?? 0
            return .page(posts((cursor * 2)..<(cursor * 2 + 2)), next: cursor < 99 ? cursor + 1 : 10)
        })
        let (items, failure) = await readAll(source.items(configuration: configuration(pageSize: 2), clock: clock))
        #expect(items.map(\.id) == Array(0..<200))
        #expect(failure?.error as? FeedError == FeedError.repeatedCursor("\((source.requests.last?.cursor ?? -1) + 1)"))
        #expect(source.requests.count > 100 && source.requests.count < 190)
    }

    @Test("a cursor fetched again far back, then new cursors, is no loop: followed (a feed stops there)")
    func farRepeatFollowed() async {
        // Pages 0...1_000 (page 1_000 names page 5 again); page 5 the second time names 1_001, the last.
        let numbers = ScriptedPageSource<Int, Int>()
        numbers.enqueue(.page([0], next: 1))
        for cursor in 1..<1_000 { numbers.enqueue(.page([cursor], next: cursor + 1)) }
        numbers.enqueue(.page([1_000], next: 5), .page([5], next: 1_001), .page([1_001], next: nil))
        let (items, failure) = await readAll(numbers.items(clock: clock))
        #expect(items == Array(0...1_000) + [5, 1_001])
        #expect(failure == nil)
        #expect(numbers.requests.map(\.cursor).suffix(3) == [1_000, 5, 1_001])
    }

    @Test("a first page whose next is the cursor it was fetched with stops at once")
    func firstPageRepeatsItself() async {
        let source = PostSource()
        source.enqueue(.page(posts(0..<2), next: 7))
        let (pages, failure) = await readAll(source.pages(from: 7, configuration: configuration(pageSize: 2), clock: clock))
        #expect(pages.count == 1)
        #expect(failure == FeedFailure(error: FeedError.repeatedCursor("7"), side: .refresh, attempt: 1))
    }

    @Test("empty pages that claim more are followed up to the limit and never returned")
    func emptyPagesFollowed() async {
        let source = PostSource()
        source.enqueue(.page([], next: 1), .page([], next: 2), pageResponse(3, size: 2, last: true, latency: .zero))
        let sequence = source.pages(configuration: configuration(pageSize: 2, maximumEmptyPagesFollowed: 2), clock: clock)
        let (pages, failure) = await readAll(sequence)
        #expect(pages.map { $0.items.map(\.id) } == [[6, 7]])
        #expect(failure == nil)
        #expect(source.requests.map(\.cursor) == [nil, 1, 2])
    }

    @Test("one empty page too many throws emptyPageClaimsMore")
    func emptyPagesOverLimit() async {
        let source = PostSource()
        source.enqueue(pageResponse(0, size: 2, latency: .zero), .page([], next: 2), .page([], next: 3), .page([], next: 4))
        let sequence = source.items(configuration: configuration(pageSize: 2, maximumEmptyPagesFollowed: 1), clock: clock)
        let (items, failure) = await readAll(sequence)
        #expect(items.map(\.id) == [0, 1])
        #expect(failure == FeedFailure(error: FeedError.emptyPageClaimsMore, side: .loadMore, attempt: 1))
        #expect(source.requests.count == 3)
    }

    @Test("an empty page whose next repeats a cursor throws repeatedCursor, not a loop")
    func emptyPageLoops() async {
        let source = PostSource()
        source.enqueue(pageResponse(0, size: 2, latency: .zero), .page([], next: 1))
        let (_, failure) = await readAll(source.items(configuration: configuration(pageSize: 2), clock: clock))
        #expect(failure == FeedFailure(error: FeedError.repeatedCursor("1"), side: .loadMore, attempt: 1))
    }

    @Test("an empty last page ends the data")
    func emptyLastPage() async {
        let source = PostSource()
        source.enqueue(pageResponse(0, size: 2, latency: .zero), .page([], next: nil))
        let (pages, failure) = await readAll(source.pages(configuration: configuration(pageSize: 2), clock: clock))
        #expect(pages.count == 1)
        #expect(failure == nil)
    }

    @Test("Identifiable items: duplicates by id are dropped, across pages and within one")
    func duplicatesDropped() async {
        let source = PostSource()
        source.enqueue(.page(posts(0..<3), next: 1), .page(posts(2..<5) + posts(4..<5), next: 2),
                       .page(posts(0..<3), next: 3), .page(posts(5..<6), next: nil))
        let (pages, _) = await readAll(source.pages(configuration: configuration(pageSize: 3), clock: clock))
        // The third page held only duplicates: it is not returned, and the iteration goes on.
        #expect(pages.map { $0.items.map(\.id) } == [[0, 1, 2], [3, 4], [5]])
    }

    @Test("DuplicatePolicy.keep keeps every item, and so does a sequence made without ids")
    func duplicatesKept() async {
        let source = PostSource()
        source.enqueue(.page(posts(0..<3), next: 1), .page(posts(2..<4), next: nil))
        let (kept, _) = await readAll(source.items(configuration: configuration(pageSize: 3, duplicates: .keep), clock: clock))
        #expect(kept.map(\.id) == [0, 1, 2, 2, 3])
        let numbers = ScriptedPageSource<Int, Int>()
        numbers.enqueue(.page([1, 2], next: 1), .page([2, 3], next: nil))
        let (all, _) = await readAll(numbers.items(clock: clock))
        #expect(all == [1, 2, 2, 3])
    }

    @Test("ids from a closure or a key path drop duplicates")
    func duplicatesByClosure() async {
        let numbers = ScriptedPageSource<Int, Int>()
        numbers.enqueue(.page([1, 2, 11], next: 1), .page([12, 3], next: nil))
        let (byTens, _) = await readAll(numbers.items(clock: clock, id: { $0 % 10 }))
        #expect(byTens == [1, 2, 3])
        let source = PostSource()
        source.enqueue(.page(posts(0..<2), next: 1), .page(posts(1..<3), next: nil))
        let (byKeyPath, _) = await readAll(source.items(configuration: configuration(pageSize: 2), clock: clock, id: \.title))
        #expect(byKeyPath.map(\.id) == [0, 1, 2])
    }

    @Test("cancelling the iterating task cancels the fetch, and the call throws a cancellation")
    func cancellationCancelsTheFetch() async {
        let source = PostSource()
        source.enqueue(pageResponse(0, latency: .zero), .hang)
        let sequence = source.items(clock: clock)
        let reading = Task { await readAll(sequence) }
        #expect(await source.waitForRequests(2))
        #expect(await clock.waitForSleepers(1)) // the source hangs on the clock
        reading.cancel()
        let (items, failure) = await reading.value
        #expect(items.count == 15)
        #expect(failure?.error is CancellationError)
        #expect(failure?.side == .loadMore)
        #expect(source.completedCount == 2) // the hanging fetch ended: it was cancelled
        #expect(clock.sleeperCount == 0)
    }

    @Test("with a timeout, cancelling returns at once even from a source that ignores cancellation")
    func cancellationWithTimeout() async {
        let source = PostSource()
        source.enqueue(.page(posts(0..<1), next: nil, latency: .seconds(100), ignoresCancellation: true))
        let sequence = source.items(configuration: configuration(timeout: .seconds(1_000)), clock: clock)
        let reading = Task { await readAll(sequence) }
        #expect(await clock.waitForSleepers(2)) // the source's latency and the timeout
        reading.cancel()
        let (items, failure) = await reading.value
        #expect(items.isEmpty)
        #expect(failure?.error is CancellationError)
        #expect(failure?.side == .refresh)
        #expect(clock.sleeperCount == 1) // the timeout is gone; the source sleeps on, its page dropped
        clock.advance(by: .seconds(100))
        #expect(await source.waitForCompletions(1))
    }

    @Test("cancelling during a backoff ends the wait at once")
    func cancellationDuringBackoff() async {
        let source = PostSource()
        source.enqueue(.failure(ServerError(code: 500)))
        let retry = RetryPolicy(maximumAttempts: 3, initialBackoff: .seconds(60), maximumBackoff: .seconds(60))
        let sequence = source.pages(configuration: configuration(retry: retry), clock: clock)
        let reading = Task { await readAll(sequence) }
        #expect(await clock.waitForSleepers(1))
        reading.cancel()
        let (_, failure) = await reading.value
        #expect(failure?.error is CancellationError)
        #expect(source.requests.count == 1)
        #expect(clock.sleeperCount == 0)
    }

    @Test("a task cancelled before it iterates fetches nothing")
    func cancelledBeforeIterating() async {
        let source = PostSource()
        source.enqueue(pageResponse(0, latency: .zero))
        let sequence = source.items(clock: clock)
        let reading = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await readAll(sequence)
        }
        let (items, failure) = await reading.value
        #expect(items.isEmpty)
        #expect(failure?.error is CancellationError)
        #expect(source.requests.isEmpty)
    }

    @Test("each iteration starts over from the first page")
    func iteratingTwice() async {
        let source = PostSource()
        source.enqueue(pageResponse(0, last: true, latency: .zero), pageResponse(0, last: true, latency: .zero))
        let sequence = source.items(clock: clock)
        let first = await readAll(sequence)
        let second = await readAll(sequence)
        #expect(first.elements.map(\.id) == second.elements.map(\.id))
        #expect(source.requests.map(\.cursor) == [nil, nil])
    }
}
