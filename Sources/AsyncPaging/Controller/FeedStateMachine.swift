/// Every paging rule of ``FeedController``, as a pure value: requests and fetch results go in,
/// ``Action``s come out. No tasks, no clock, no locks: it is tested synchronously, and the
/// controller only carries out what it returns.
///
/// At most one load is active at a time: starting a refresh cancels a load-more and (under the
/// default policy) starting a load-more cancels a refresh. Every load has a ``LoadID``; a
/// result that arrives for any other id is stale and is dropped here, which is what keeps a
/// late page from a source that ignores cancellation out of the list.
@usableFromInline struct FeedStateMachine<Cursor: Hashable & Sendable>: Sendable {
    /// Identifies one load, across its automatic retries.
    @usableFromInline struct LoadID: Hashable, Sendable, CustomStringConvertible {
        @usableFromInline let rawValue: UInt64

        @inlinable init(rawValue: UInt64) {
            self.rawValue = rawValue
        }
        @inlinable var description: String { "#\(rawValue)" }
    }

    /// The load in flight.
    @usableFromInline struct ActiveLoad: Sendable {
        @usableFromInline enum Phase: Equatable, Sendable { case fetching, waitingToRetry }
        @usableFromInline let id: LoadID
        @usableFromInline let side: FeedSide
        /// The cursor being fetched; moves on when the load follows an empty page.
        @usableFromInline var cursor: Cursor?
        /// The try in flight (or the one that failed, while waiting to retry).
        @usableFromInline var attempt: Int
        /// The attempt this load started with (above 1 for a manual retry).
        @usableFromInline let firstAttempt: Int
        @usableFromInline var phase: Phase
        /// How many empty pages that claimed more this load has followed; also tells apart the
        /// fetches of one attempt, so that a late timer of an earlier fetch cannot match.
        @usableFromInline var step: Int = 0
        /// A retry after a repeated cursor: fetch the last applied page again only to get a
        /// fresh `next`; its items are already in the list and are not applied again.
        @usableFromInline var isRecheck = false

        @inlinable init(id: LoadID, side: FeedSide, cursor: Cursor?, attempt: Int, firstAttempt: Int, phase: Phase) {
            self.id = id
            self.side = side
            self.cursor = cursor
            self.attempt = attempt
            self.firstAttempt = firstAttempt
            self.phase = phase
        }

        /// Whether a result or timer of `attempt`, `step` belongs to this load's fetch in flight.
        @inlinable func isFetching(_ id: LoadID, attempt: Int, step: Int) -> Bool {
            self.id == id && self.attempt == attempt && self.step == step && phase == .fetching
        }

        /// 1 for the first automatic retry of this load, 2 for the second, …
        @inlinable var retryNumber: Int { attempt - firstAttempt + 1 }
    }

    /// Why the end side stopped loading by itself after a guard failure, until `retry()` or a
    /// refresh.
    @usableFromInline enum Halt: Equatable, Sendable {
        /// The source repeated a cursor: following it would loop.
        case repeatedCursor
        /// The source sent more empty pages that claim more than a load follows.
        case emptyPages
    }

    /// What the controller must do, in order.
    @usableFromInline enum Action: Sendable {
        /// Start fetching for `id` (and its timeout timer, if any).
        case startFetch(LoadID, side: FeedSide, cursor: Cursor?, attempt: Int, step: Int)
        /// Cancel the fetch task and the timers of `id`; any result it still sends is stale.
        case cancelLoad(LoadID)
        /// Start the backoff timer before retry number `retryNumber` of `id`, after `failure`.
        case scheduleRetry(LoadID, retryNumber: Int, failure: FeedFailure)
        /// Apply the page that `id` fetched: replace the list or append to it.
        case applyPage(LoadID, replacing: Bool)
        /// Publish an event.
        case emit(FeedEvent)
        /// Answer every caller waiting on `id`.
        case resolveCallers(LoadID, LoadOutcome)
        /// Finish every output stream.
        case finishOutputs
    }

    /// How a request was taken.
    @usableFromInline enum Decision: Equatable, Sendable {
        /// A new load started; the caller waits for it.
        case started(LoadID)
        /// The caller joins the load in flight.
        case joined(LoadID)
        /// Nothing to wait for: the answer is here.
        case answered(LoadOutcome)
    }

    @usableFromInline let configuration: FeedConfiguration
    @usableFromInline var active: ActiveLoad?
    /// The cursor of the page after the current list; `nil` before the first page, or at the end.
    @usableFromInline var nextCursor: Cursor?
    @usableFromInline var hasLoadedFirstPage = false
    @usableFromInline var reachedEnd = false
    /// The last load's failure, cleared by the next success or a new request. `retry()` runs
    /// its side again: a refresh from the top, a load-more from ``nextCursor``.
    @usableFromInline var lastFailure: FeedFailure?
    @usableFromInline var isClosed = false
    /// Set by a guard failure (repeated cursor, too many empty pages): `loadMore()` fetches
    /// nothing until `retry()` or a refresh.
    @usableFromInline var halt: Halt?
    /// The cursor of the last page applied, for the recheck that `retry()` runs after a
    /// repeated cursor.
    @usableFromInline var lastPageCursor: Cursor?
    /// Cursors followed since the last refresh: a page pointing back to one of them would loop.
    @usableFromInline var followedCursors: Set<Cursor> = []
    @usableFromInline var lastLoadID: UInt64 = 0

    @inlinable init(configuration: FeedConfiguration) {
        self.configuration = configuration
    }

    /// The status the outputs show.
    @inlinable var status: FeedStatus {
        if isClosed { return .closed }
        if let active { return active.side == .refresh ? .refreshing : .loadingMore }
        if let lastFailure { return .failed(lastFailure) }
        return reachedEnd ? .endOfData : .idle
    }

    // MARK: Requests

    @inlinable mutating func refreshRequested(into actions: inout [Action]) -> Decision {
        if isClosed { return .answered(.ignored(.closed)) }
        if let current = active {
            switch (current.side, configuration.refreshDuringRefresh) {
            case (.refresh, .join):
                return .joined(current.id)
            case (.refresh, .restart):
                actions.append(.cancelLoad(current.id))
                actions.append(.resolveCallers(current.id, .cancelled(.supersededByNewerRequest)))
                active = nil
                let id = start(.refresh, cursor: nil, attempt: 1, announce: false, into: &actions)
                return .started(id)
            case (.loadMore, _):
                end(current, .cancelled(.preemptedByRefresh), into: &actions)
            }
        }
        lastFailure = nil
        let id = start(.refresh, cursor: nil, attempt: 1, announce: true, into: &actions)
        return .started(id)
    }

    @inlinable mutating func loadMoreRequested(into actions: inout [Action]) -> Decision {
        if isClosed { return .answered(.ignored(.closed)) }
        if reachedEnd { return .answered(.endOfData) }
        if let current = active {
            switch current.side {
            case .loadMore:
                if configuration.loadMoreDuringLoadMore == .join { return .joined(current.id) }
                actions.append(.cancelLoad(current.id))
                actions.append(.resolveCallers(current.id, .cancelled(.supersededByNewerRequest)))
                active = nil
                // A recheck restarts as a recheck: `nextCursor` would fetch an applied page again.
                let id = start(
                    .loadMore, cursor: current.isRecheck ? current.cursor : nextCursor, attempt: 1, announce: false,
                    isRecheck: current.isRecheck, into: &actions)
                return .started(id)
            case .refresh:
                if !hasLoadedFirstPage { return .answered(.ignored(.firstPageLoading)) }
                if halt != nil { return .answered(.ignored(.stoppedByGuard)) }
                if configuration.loadMoreDuringRefresh == .ignoreLoadMore {
                    return .answered(.ignored(.refreshInFlight))
                }
                end(current, .cancelled(.preemptedByLoadMore), into: &actions)
            }
        } else {
            // Nothing to append to: after a failed first page, `retry()` runs the refresh again.
            if !hasLoadedFirstPage { return .answered(.ignored(.noFirstPage)) }
            if halt != nil { return .answered(.ignored(.stoppedByGuard)) }
        }
        lastFailure = nil
        let id = start(.loadMore, cursor: nextCursor, attempt: 1, announce: true, into: &actions)
        return .started(id)
    }

    @inlinable mutating func retryRequested(into actions: inout [Action]) -> Decision {
        if isClosed { return .answered(.ignored(.closed)) }
        if var current = active {
            guard current.phase == .waitingToRetry else { return .joined(current.id) }
            current.attempt += 1
            current.phase = .fetching
            active = current
            actions.append(.cancelLoad(current.id))
            actions.append(.startFetch(
                current.id, side: current.side, cursor: current.cursor, attempt: current.attempt, step: current.step))
            return .joined(current.id)
        }
        guard let failure = lastFailure else { return .answered(.ignored(.nothingToRetry)) }
        lastFailure = nil
        if failure.side == .refresh {
            return .started(start(.refresh, cursor: nil, attempt: failure.attempt + 1, announce: true, into: &actions))
        }
        let recheck = halt == .repeatedCursor
        halt = nil
        let cursor = recheck ? lastPageCursor : nextCursor
        let id = start(
            .loadMore, cursor: cursor, attempt: failure.attempt + 1, announce: true, isRecheck: recheck, into: &actions)
        return .started(id)
    }

    @inlinable mutating func closeRequested(into actions: inout [Action]) {
        if isClosed { return }
        if let current = active { end(current, .cancelled(.closed), into: &actions) }
        isClosed = true
        actions.append(.finishOutputs)
    }

    // MARK: Results

    /// Try `attempt` (fetch `step`) of load `id` returned a page of `itemCount` items pointing
    /// at `next`. Returns `false` (and adds no action) when the result is stale.
    @discardableResult
    @inlinable mutating func fetchSucceeded(
        _ id: LoadID, attempt: Int, step: Int = 0, itemCount: Int, next: Cursor?, into actions: inout [Action]
    ) -> Bool {
        guard var current = active, current.isFetching(id, attempt: attempt, step: step) else { return false }
        actions.append(.cancelLoad(id))
        if current.isRecheck {
            recheckAnswered(current, next: next, into: &actions)
            return true
        }
        let isRefresh = current.side == .refresh
        if itemCount == 0, let next, current.step < configuration.maximumEmptyPagesFollowed,
           isRefresh || !followedCursors.contains(next) {
            // An empty page that claims more: follow it within this load, applying nothing.
            if !isRefresh, let cursor = current.cursor { followedCursors.insert(cursor) }
            current.cursor = next
            current.step += 1
            active = current
            actions.append(.startFetch(id, side: current.side, cursor: next, attempt: current.attempt, step: current.step))
            return true
        }
        actions.append(.applyPage(id, replacing: isRefresh))
        if isRefresh {
            followedCursors = []
            hasLoadedFirstPage = true
            halt = nil
        }
        if let cursor = current.cursor { followedCursors.insert(cursor) }
        lastPageCursor = current.cursor
        if let next, followedCursors.contains(next) {
            // Following `next` would fetch a page already fetched: stop here with a typed error.
            reachedEnd = false
            nextCursor = next
            halt = .repeatedCursor
            fail(current, FeedError.repeatedCursor("\(next)"), into: &actions)
            return true
        }
        nextCursor = next
        reachedEnd = next == nil
        if itemCount == 0 && next != nil {
            halt = .emptyPages
            fail(current, FeedError.emptyPageClaimsMore, into: &actions)
            return true
        }
        lastFailure = nil
        end(current, reachedEnd ? .endOfData : .completed, into: &actions)
        return true
    }

    /// The recheck after a repeated cursor answered: nothing is applied; a fresh `next` is
    /// followed from now on, a repeated one stops the end side again.
    @inlinable mutating func recheckAnswered(_ current: ActiveLoad, next: Cursor?, into actions: inout [Action]) {
        if let next, followedCursors.contains(next) {
            halt = .repeatedCursor
            fail(current, FeedError.repeatedCursor("\(next)"), into: &actions)
            return
        }
        nextCursor = next
        reachedEnd = next == nil
        lastFailure = nil
        end(current, reachedEnd ? .endOfData : .completed, into: &actions)
    }

    /// Try `attempt` (fetch `step`) of load `id` threw `error`. Returns no action when the result
    /// is stale. The load retries after a backoff while attempts are left and the policy's
    /// ``RetryCondition`` accepts the error; otherwise it fails.
    @discardableResult
    @inlinable mutating func fetchFailed(
        _ id: LoadID, attempt: Int, step: Int = 0, error: any Error, into actions: inout [Action]
    ) -> Bool {
        guard var current = active, current.isFetching(id, attempt: attempt, step: step) else { return false }
        actions.append(.cancelLoad(id))
        let retry = configuration.retry
        if current.retryNumber < retry.maximumAttempts && retry.condition.shouldRetry(error) {
            current.phase = .waitingToRetry
            active = current
            let failure = FeedFailure(error: error, side: current.side, attempt: current.attempt)
            actions.append(.scheduleRetry(id, retryNumber: current.retryNumber, failure: failure))
            return true
        }
        fail(current, error, into: &actions)
        return true
    }

    /// The timeout of try `attempt` (fetch `step`) of load `id` elapsed on the clock.
    @discardableResult
    @inlinable mutating func timeoutElapsed(_ id: LoadID, attempt: Int, step: Int = 0, into actions: inout [Action]) -> Bool {
        guard let timeout = configuration.timeout else { return false }
        return fetchFailed(id, attempt: attempt, step: step, error: FeedError.timedOut(after: timeout), into: &actions)
    }

    /// The backoff after failed try `attempt` of load `id` elapsed on the clock.
    @discardableResult
    @inlinable mutating func backoffElapsed(_ id: LoadID, attempt: Int, into actions: inout [Action]) -> Bool {
        guard var current = active, current.id == id, current.attempt == attempt, current.phase == .waitingToRetry
        else { return false }
        current.attempt += 1
        current.phase = .fetching
        active = current
        actions.append(.startFetch(id, side: current.side, cursor: current.cursor, attempt: current.attempt, step: current.step))
        return true
    }

    /// The clock threw from `sleep` without the timer being cancelled, so the timeout or the
    /// backoff of try `attempt` of load `id` can never elapse: the load fails at once with
    /// ``FeedError/clockFailed(_:)`` rather than wait for ever.
    @discardableResult
    @inlinable mutating func clockFailed(_ id: LoadID, attempt: Int, error: any Error, into actions: inout [Action]) -> Bool {
        guard let current = active, current.id == id, current.attempt == attempt else { return false }
        actions.append(.cancelLoad(id))
        fail(current, FeedError.clockFailed("\(error)"), into: &actions)
        return true
    }

    // MARK: Helpers

    @inlinable mutating func start(
        _ side: FeedSide, cursor: Cursor?, attempt: Int, announce: Bool, isRecheck: Bool = false,
        into actions: inout [Action]
    ) -> LoadID {
        lastLoadID += 1
        let id = LoadID(rawValue: lastLoadID)
        var load = ActiveLoad(id: id, side: side, cursor: cursor, attempt: attempt, firstAttempt: attempt, phase: .fetching)
        load.isRecheck = isRecheck
        active = load
        if announce { actions.append(.emit(.began(side))) }
        actions.append(.startFetch(id, side: side, cursor: cursor, attempt: attempt, step: 0))
        return id
    }

    /// Ends `load` for `reason`: cancels its work, tells its callers, emits the end event.
    @inlinable mutating func end(_ load: ActiveLoad, _ reason: FeedEndReason, into actions: inout [Action]) {
        active = nil
        let outcome: LoadOutcome
        switch reason {
        case .completed, .endOfData:
            outcome = .completed(LoadSummary(itemsApplied: 0, reachedEnd: reason == .endOfData))
        case .cancelled(let cause):
            actions.append(.cancelLoad(load.id))
            outcome = .cancelled(cause)
        case .failed(let failure):
            outcome = .failed(failure)
        }
        actions.append(.emit(.ended(load.side, reason)))
        actions.append(.resolveCallers(load.id, outcome))
    }

    @inlinable mutating func fail(_ load: ActiveLoad, _ error: any Error, into actions: inout [Action]) {
        let failure = FeedFailure(error: error, side: load.side, attempt: load.attempt)
        lastFailure = failure
        end(load, .failed(failure), into: &actions)
    }
}
