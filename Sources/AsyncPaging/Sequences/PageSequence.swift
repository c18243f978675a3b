/// The pages of a ``PageSource``, from its first page (or a cursor) to the end of its data, as an
/// `AsyncSequence`: for command-line tools, exports and services that need every item of an
/// upstream, with the same guards as a ``FeedController``.
///
/// ```swift
/// for try await page in source.pages(configuration: configuration) {
///     print(page.items.count)
/// }
/// ```
///
/// Made by `source.pages(configuration:)`, ``PageSource/pages(from:configuration:clock:id:)`` and
/// their siblings. Each iteration fetches the pages one at a time, on demand, from the iterating
/// task:
///
/// - **Retry, backoff, `Retry-After`, timeout**: as ``FeedConfiguration/retry`` and
///   ``FeedConfiguration/timeout`` say, on the sequence's clock: a failed try is retried after
///   ``RetryPolicy/delay(beforeRetry:after:randomUnit:)`` while attempts are left and the
///   ``RetryCondition`` accepts the error; a fetch that outlasts the timeout is cancelled and
///   fails with ``FeedError/timedOut(after:)``.
/// - **Repeated cursor**: a source that loops ends with ``FeedError/repeatedCursor(_:)`` instead
///   of looping. A page whose `next` is one of the last 8 cursors followed (a page naming
///   itself, or a loop of up to 8 pages) is returned, then the following call throws. A longer
///   loop of `n` pages is caught at most `n - 1` pages after its first repeat (whatever the
///   number of pages before it): those pages are fetched and returned again, their items left
///   out when duplicates are dropped by id (a page left with none is not returned). A cursor
///   followed again far back that then leads to new cursors is no loop and is followed.
///   (A ``FeedController`` holds its pages and checks every cursor it fetched: it stops at the
///   first repeat of any.)
/// - **Empty pages**: an empty page that claims more is followed without being returned, up to
///   ``FeedConfiguration/maximumEmptyPagesFollowed`` in a row; one more throws
///   ``FeedError/emptyPageClaimsMore``. A page with no items (left) is never returned.
/// - **Duplicates**: with ids (an `Identifiable` item or an `id` closure) and
///   ``DuplicatePolicy/drop``, items whose id was already returned are left out of their page.
///
/// The other settings of the configuration (overlap policies, refresh mode, the bound
/// ``FeedConfiguration/maximumItems``) are a feed's and do not apply.
///
/// The sequence is generic over the source's type, so that the compiler can call (and inline)
/// its `page(for:)` directly. For a source held as `any PageSource<Item, Cursor>`, make the
/// sequence from a ``ClosurePageSource`` that asks it:
/// `ClosurePageSource { try await source.page(for: $0) }.items()`.
///
/// **Errors** are typed: a ``FeedFailure`` whose ``FeedFailure/error`` is what the source threw
/// or a ``FeedError``, whose side is ``FeedSide/refresh`` for the first page and
/// ``FeedSide/loadMore`` for the others, and whose attempt is the try that failed. After an
/// error the iteration ends (the next call returns `nil`); iterate again to start over.
///
/// **Cancellation**: cancelling the iterating task cancels the fetch (the source's task, and the
/// backoff or timeout on the clock) at once and the call throws a ``FeedFailure`` whose error is
/// `CancellationError`. Without a ``FeedConfiguration/timeout`` the source runs in the iterating
/// task itself (no task is made per page): a source that ignores cancellation then holds the
/// call until it answers; with a timeout it runs in a task of its own and the call returns at
/// once.
///
/// **Memory**: the iteration keeps the current page, not the pages or items already returned,
/// and for the repeated-cursor guard the last 8 cursors followed and `log2` of the pages read
/// more (14 after 10,000 pages, 20 after a million): it does not grow with the data. Dropping
/// duplicates keeps every id returned (one per distinct item): pass
/// ``DuplicatePolicy/keep`` (or make the sequence without ids) when the data is too large for
/// its ids to fit in memory.
public struct PageSequence<Source: PageSource>: AsyncSequence, Sendable {
    /// The type of the source's items.
    public typealias Item = Source.Item
    /// The type of the source's cursors.
    public typealias Cursor = Source.Cursor
    /// A page of items.
    public typealias Element = Page<Item, Cursor>
    /// The error an iteration throws.
    public typealias Failure = FeedFailure

    @usableFromInline let source: Source
    @usableFromInline let startCursor: Cursor?
    @usableFromInline let configuration: FeedConfiguration
    @usableFromInline let clock: any Clock<Duration>
    /// Makes an iteration's id set, when duplicates are dropped.
    @usableFromInline let makeSeenIDs: (@Sendable () -> _SeenIDs<Item>)?

    @inlinable init(
        source: Source, startCursor: Cursor?, configuration: FeedConfiguration,
        clock: any Clock<Duration>, makeSeenIDs: (@Sendable () -> _SeenIDs<Item>)?
    ) {
        self.source = source
        self.startCursor = startCursor
        self.configuration = configuration
        self.clock = clock
        self.makeSeenIDs = configuration.duplicates == .drop ? makeSeenIDs : nil
    }

    /// Starts an iteration from the first page (or the cursor the sequence was made with).
    @inlinable public func makeAsyncIterator() -> Iterator {
        Iterator(self)
    }

    /// An iteration over the pages; see ``PageSequence``.
    public struct Iterator: AsyncIteratorProtocol {
        /// A page of items.
        public typealias Element = Page<Item, Cursor>
        /// The error an iteration throws.
        public typealias Failure = FeedFailure

        @usableFromInline let sequence: PageSequence
        /// The cursor of the next page to fetch.
        @usableFromInline var cursor: Cursor?
        /// Whether the next fetch is the first one (a ``FeedSide/refresh``).
        @usableFromInline var isFirst = true
        /// Whether the iteration has ended (end of data, or an error thrown).
        @usableFromInline var isFinished = false
        /// A guard failure to throw on the next call, after the page that caused it.
        @usableFromInline var pendingFailure: FeedFailure?
        /// The repeated-cursor guard: the last cursors followed and `log2` of the earlier ones.
        @usableFromInline var followed = _CursorLoopDetector<Cursor>()
        @usableFromInline let seenIDs: _SeenIDs<Item>?

        @inlinable init(_ sequence: PageSequence) {
            self.sequence = sequence
            self.cursor = sequence.startCursor
            self.seenIDs = sequence.makeSeenIDs?()
        }

        /// The next page with items, or `nil` at the end of the data (and after an error).
        @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(FeedFailure) -> Page<Item, Cursor>? {
            try await nextPage()
        }

        /// The next page with items, or `nil` at the end of the data (and after an error).
        @inlinable public mutating func next() async throws(FeedFailure) -> Page<Item, Cursor>? {
            try await nextPage()
        }

        @inlinable nonisolated(nonsending) mutating func nextPage() async throws(FeedFailure) -> Page<Item, Cursor>? {
            if isFinished { return nil }
            if let failure = pendingFailure.take() {
                isFinished = true
                throw failure
            }
            var emptyPagesFollowed = 0
            while true {
                let side: FeedSide = isFirst ? .refresh : .loadMore
                if isFirst, let cursor { _ = followed.insertIfNew(cursor) }
                let (fetched, attempt) = try await fetchWithRetries(side: side)
                isFirst = false
                // Every cursor followed goes into the set once, when it is followed: a `next`
                // already there would fetch a page fetched before (one lookup per page).
                if fetched.items.isEmpty, let onward = fetched.next {
                    // An empty page that claims more: followed, up to the limit, unless it loops.
                    if emptyPagesFollowed < sequence.configuration.maximumEmptyPagesFollowed {
                        guard followed.insertIfNew(onward) else {
                            throw guardFailure(FeedError.repeatedCursor("\(onward)"), side: side, attempt: attempt)
                        }
                        emptyPagesFollowed += 1
                        cursor = onward
                        continue
                    }
                    let error = followed.contains(onward) ? FeedError.repeatedCursor("\(onward)") : FeedError.emptyPageClaimsMore
                    throw guardFailure(error, side: side, attempt: attempt)
                }
                var page = fetched
                if let seenIDs { seenIDs.dropSeen(&page.items) }
                if let onward = page.next {
                    if followed.insertIfNew(onward) {
                        cursor = onward
                    } else {
                        pendingFailure = FeedFailure(
                            error: FeedError.repeatedCursor("\(onward)"), side: side, attempt: attempt)
                    }
                } else {
                    isFinished = true
                }
                if !page.items.isEmpty { return page }
                // Every item was a duplicate (or the last page is empty): nothing to return.
                if let failure = pendingFailure.take() {
                    isFinished = true
                    throw failure
                }
                if isFinished { return nil }
                emptyPagesFollowed = 0
            }
        }

        /// Ends the iteration with a guard's failure.
        @inlinable mutating func guardFailure(_ error: FeedError, side: FeedSide, attempt: Int) -> FeedFailure {
            isFinished = true
            return FeedFailure(error: error, side: side, attempt: attempt)
        }

        /// Fetches the page at ``cursor``, retrying as the policy says.
        /// - Returns: The page and the try that brought it.
        @inlinable @inline(__always) nonisolated(nonsending) mutating func fetchWithRetries(side: FeedSide) async throws(FeedFailure) -> (Page<Item, Cursor>, Int) {
            let configuration = sequence.configuration
            let retry = configuration.retry
            let clock = sequence.clock
            var attempt = 1
            while true {
                if Task.isCancelled { throw cancelled(side: side, attempt: attempt) }
                let request = PageRequest(
                    cursor: cursor, side: side, pageSize: configuration.pageSize, attempt: attempt, clock: clock)
                let error: any Error
                if let timeout = configuration.timeout {
                    let source = sequence.source
                    switch await _TimedFetch.run(timeout: timeout, clock: clock, { try await source.page(for: request) }) {
                    case .success(let page): return (page, attempt)
                    case .failure(let failure): error = failure
                    }
                } else {
                    do {
                        return (try await sequence.source.page(for: request), attempt)
                    } catch let failure {
                        error = failure
                    }
                }
                if Task.isCancelled { throw cancelled(side: side, attempt: attempt) }
                guard attempt < retry.maximumAttempts, retry.condition.shouldRetry(error) else {
                    isFinished = true
                    throw FeedFailure(error: error, side: side, attempt: attempt)
                }
                let unit = retry.jitter > 0 ? Double.random(in: 0..<1) : 0
                let delay = retry.delay(beforeRetry: attempt, after: error, randomUnit: unit)
                do {
                    try await clock.sleep(for: delay.boundedForTimers)
                } catch let clockError {
                    if Task.isCancelled { throw cancelled(side: side, attempt: attempt) }
                    isFinished = true
                    throw FeedFailure(error: FeedError.clockFailed("\(clockError)"), side: side, attempt: attempt)
                }
                attempt += 1
            }
        }

        /// Ends the iteration as cancelled.
        @inlinable mutating func cancelled(side: FeedSide, attempt: Int) -> FeedFailure {
            isFinished = true
            return FeedFailure(error: CancellationError(), side: side, attempt: attempt)
        }
    }
}
