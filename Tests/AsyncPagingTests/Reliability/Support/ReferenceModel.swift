import AsyncPaging

/// The reference model of a ``FeedController`` on a test clock: what the list, the status, the
/// events, the diagnostics, the source's requests, the callers' outcomes and the clock's
/// sleepers must be after each operation.
///
/// It is written from the documented rules (README, doc comments of the controller, the
/// policies, ``FeedError`` and ``LoadOutcome``), as plain synchronous code, and it models the
/// source and the clock too: a fetch that answers at once is delivered at once, a slow one
/// sleeps until the clock reaches its deadline, a cancelled one that honours cancellation
/// leaves the clock and comes back as a stale failure, one that ignores cancellation keeps
/// sleeping and comes back as a stale result.
struct ReferenceModel {
    enum Phase { case fetching, waitingToRetry }

    struct Load {
        let id: Int
        let side: FeedSide
        var cursor: Int?
        var attempt: Int
        let firstAttempt: Int
        var phase: Phase
        /// Empty pages followed so far by this load (FeedConfiguration.maximumEmptyPagesFollowed).
        var step = 0
        /// retry() after a repeated cursor: asks for the last page again, applies nothing.
        var isRecheck = false
        var retryNumber: Int { attempt - firstAttempt + 1 }
    }

    /// Why load-more stopped by itself (FeedError.repeatedCursor / emptyPageClaimsMore docs).
    enum Halt { case repeatedCursor, emptyPages }

    struct Caller {
        let call: Int
        let load: Int
        let side: FeedSide
        let joined: Bool
    }

    /// A request the source must have received.
    struct Request: Equatable, CustomStringConvertible {
        let side: FeedSide
        let cursor: Int?
        let attempt: Int
        var description: String { "\(side)(cursor: \(cursor.map(String.init) ?? "nil"), attempt: \(attempt))" }
    }

    enum SleeperKind {
        case fetch(
            request: Int, load: Int, side: FeedSide, attempt: Int, step: Int, response: ResponsePlan.Response,
            cancelled: Bool)
        case timeout(load: Int, attempt: Int, step: Int)
        case backoff(load: Int, attempt: Int)
    }

    /// A task sleeping on the test clock.
    struct Sleeper {
        var id = 0
        let deadline: Duration
        var kind: SleeperKind

        var isHang: Bool {
            if case .fetch(_, _, _, _, _, let response, _) = kind { response.result == .hang } else { false }
        }
    }

    let configuration: FeedConfiguration
    let plan: ResponsePlan
    private(set) var now: Duration = .zero
    private(set) var isClosed = false
    private(set) var list: [Int] = []
    private var listIDs: Set<Int> = []
    /// The list of every published version, by version.
    private(set) var lists: [[Int]] = [[]]
    private(set) var nextCursor: Int?
    private(set) var hasLoadedFirstPage = false
    private(set) var reachedEnd = false
    private(set) var lastFailure: FeedFailure?
    private var followedCursors: Set<Int> = []
    private var halt: Halt?
    private var lastPageCursor: Int?
    private(set) var active: Load?
    private var lastLoadID = 0
    private(set) var callers: [Caller] = []
    private(set) var outcomes: [Int: LoadResult] = [:]
    private(set) var events: [FeedEvent] = []
    private(set) var diagnostics: [FeedDiagnostic] = []
    private(set) var requests: [Request] = []
    private(set) var sleepers: [Sleeper] = [] {
        didSet {
            for index in sleepers.indices where sleepers[index].id == 0 {
                lastSleeperID += 1
                sleepers[index].id = lastSleeperID
                createdDeadlines.append(sleepers[index].deadline)
            }
        }
    }
    private var lastSleeperID = 0
    /// The deadlines of the sleepers created since ``beginOperation()``, even those gone again.
    private(set) var createdDeadlines: [Duration] = []
    /// Broken invariants of the model itself: a fetch starting while another is in flight.
    private(set) var violations: [String] = []
    /// Stale failures of fetches cancelled during the current operation; they reach the
    /// controller after the operation, so they are reported only if it is still open then.
    private var cancelledArrivals: [FeedDiagnostic] = []

    init(configuration: FeedConfiguration, plan: ResponsePlan) {
        self.configuration = configuration
        self.plan = plan
        if configuration.loadsInitialPage {
            start(.refresh, cursor: nil, attempt: 1, announce: true, caller: nil)
        }
        flushCancelledArrivals()
    }

    var version: UInt64 { UInt64(lists.count - 1) }

    var status: FeedStatus {
        if isClosed { return .closed }
        if let active { return active.side == .refresh ? .refreshing : .loadingMore }
        if let lastFailure { return .failed(lastFailure) }
        return reachedEnd ? .endOfData : .idle
    }

    /// The sides a new event subscriber is told are loading.
    var loadingSides: [FeedSide] {
        FeedSide.allCases.filter { side in
            events.count { $0 == .began(side) } > events.count { if case .ended(side, _) = $0 { true } else { false } }
        }
    }

    /// The earliest deadline that is not a hang's.
    var nextDeadline: Duration? {
        sleepers.filter { !$0.isHang }.map(\.deadline).min()
    }

    // MARK: Operations

    /// Marks the start of an operation, for ``createdDeadlines``.
    mutating func beginOperation() {
        createdDeadlines = []
    }

    mutating func call(_ call: ModelCall, id: Int) {
        switch call {
        case .refresh: refresh(id)
        case .loadMore: loadMore(id)
        case .retry: retry(id)
        }
        flushCancelledArrivals()
    }

    mutating func close() {
        guard !isClosed else { return }
        if let active { end(active, .cancelled(.closed)) }
        isClosed = true
        cancelledArrivals = []
    }

    /// Moves the clock to `deadline` and delivers whatever falls due, stale results first (they
    /// change nothing but the diagnostics, so their order against the one live sleeper does not
    /// matter; the engine processes them in any order).
    mutating func advance(to deadline: Duration) {
        let due = sleepers.filter { $0.deadline <= deadline }
        sleepers.removeAll { $0.deadline <= deadline }
        now = max(now, deadline)
        let ordered = due.filter { !isLive($0) } + due.filter { isLive($0) }
        if due.count(where: isLive) > 1 {
            violations.append("two live sleepers fell due together at \(deadline): their order would race")
        }
        for sleeper in ordered { fire(sleeper) }
        flushCancelledArrivals()
    }

    // MARK: Requests

    private mutating func refresh(_ call: Int) {
        if isClosed { return answer(call, side: .refresh, .ignored(.closed)) }
        if let current = active {
            if current.side == .refresh {
                if configuration.refreshDuringRefresh == .join { return join(call, current) }
                // Restart: the older caller is superseded, the header stays refreshing.
                cancelTasks(of: current)
                active = nil
                resolve(current.id, .cancelled(.supersededByNewerRequest))
                return start(.refresh, cursor: nil, attempt: 1, announce: false, caller: call)
            }
            end(current, .cancelled(.preemptedByRefresh))
        }
        lastFailure = nil
        start(.refresh, cursor: nil, attempt: 1, announce: true, caller: call)
    }

    private mutating func loadMore(_ call: Int) {
        if isClosed { return answer(call, side: .loadMore, .ignored(.closed)) }
        if reachedEnd { return answer(call, side: .loadMore, .endOfData) }
        if let current = active {
            if current.side == .loadMore {
                if configuration.loadMoreDuringLoadMore == .join { return join(call, current) }
                cancelTasks(of: current)
                active = nil
                resolve(current.id, .cancelled(.supersededByNewerRequest))
                return start(
                    .loadMore, cursor: current.isRecheck ? current.cursor : nextCursor, attempt: 1, announce: false,
                    caller: call, isRecheck: current.isRecheck)
            }
            if !hasLoadedFirstPage { return answer(call, side: .loadMore, .ignored(.firstPageLoading)) }
            if halt != nil { return answer(call, side: .loadMore, .ignored(.stoppedByGuard)) }
            if configuration.loadMoreDuringRefresh == .ignoreLoadMore {
                return answer(call, side: .loadMore, .ignored(.refreshInFlight))
            }
            end(current, .cancelled(.preemptedByLoadMore))
        } else {
            if !hasLoadedFirstPage { return answer(call, side: .loadMore, .ignored(.noFirstPage)) }
            if halt != nil { return answer(call, side: .loadMore, .ignored(.stoppedByGuard)) }
        }
        lastFailure = nil
        start(.loadMore, cursor: nextCursor, attempt: 1, announce: true, caller: call)
    }

    private mutating func retry(_ call: Int) {
        let side = active?.side ?? lastFailure?.side
        if isClosed { return answer(call, side: side, .ignored(.closed)) }
        if var current = active {
            join(call, current)
            guard current.phase == .waitingToRetry else { return }
            // Runs the waiting retry at once.
            cancelTasks(of: current)
            current.attempt += 1
            current.phase = .fetching
            active = current
            return startFetch(current)
        }
        guard let failure = lastFailure else { return answer(call, side: nil, .ignored(.nothingToRetry)) }
        lastFailure = nil
        if failure.side == .refresh {
            return start(.refresh, cursor: nil, attempt: failure.attempt + 1, announce: true, caller: call)
        }
        let recheck = halt == .repeatedCursor
        halt = nil
        start(
            .loadMore, cursor: recheck ? lastPageCursor : nextCursor, attempt: failure.attempt + 1,
            announce: true, caller: call, isRecheck: recheck)
    }

    // MARK: Results

    private func isLive(_ sleeper: Sleeper) -> Bool {
        guard let active else { return false }
        switch sleeper.kind {
        case .fetch(_, let load, _, let attempt, let step, _, _), .timeout(let load, let attempt, let step):
            return load == active.id && attempt == active.attempt && step == active.step && active.phase == .fetching
        case .backoff(let load, let attempt):
            return load == active.id && attempt == active.attempt && active.phase == .waitingToRetry
        }
    }

    private mutating func fire(_ sleeper: Sleeper) {
        let live = isLive(sleeper)
        switch sleeper.kind {
        case .fetch(_, let load, let side, let attempt, let step, let response, _):
            deliver(load: load, side: side, attempt: attempt, step: step, response.result)
        case .timeout(_, let attempt, _):
            guard live, let current = active, let timeout = configuration.timeout else { return }
            diagnostics.append(.timedOut(side: current.side, attempt: attempt))
            failed(current, FeedError.timedOut(after: timeout))
        case .backoff:
            guard live, var current = active else { return }
            current.attempt += 1
            current.phase = .fetching
            active = current
            startFetch(current)
        }
    }

    private mutating func deliver(
        load: Int, side: FeedSide, attempt: Int, step: Int, _ result: ResponsePlan.Response.Result
    ) {
        guard let current = active, current.id == load, current.attempt == attempt, current.step == step,
              current.phase == .fetching else {
            if !isClosed {
                let succeeded = if case .page = result { true } else { false }
                diagnostics.append(.staleResultDiscarded(side: side, attempt: attempt, succeeded: succeeded))
            }
            return
        }
        switch result {
        case .page(let ids, let next): succeeded(current, ids: ids, next: next)
        case .failure(let error): failed(current, error)
        case .hang: preconditionFailure("a hang never answers")
        }
    }

    private mutating func succeeded(_ current: Load, ids: [Int], next: Int?) {
        cancelTasks(of: current)
        if current.isRecheck {
            // The last page again, for its `next` only: nothing is applied.
            if let next, followedCursors.contains(next) {
                halt = .repeatedCursor
                return fail(current, FeedError.repeatedCursor("\(next)"))
            }
            nextCursor = next
            reachedEnd = next == nil
            lastFailure = nil
            return end(current, reachedEnd ? .endOfData : .completed, summary: LoadSummary(itemsApplied: 0, reachedEnd: reachedEnd))
        }
        let isRefresh = current.side == .refresh
        if ids.isEmpty, let next, current.step < configuration.maximumEmptyPagesFollowed,
           isRefresh || !followedCursors.contains(next) {
            // Followed within the same load, applying nothing.
            if !isRefresh, let cursor = current.cursor { followedCursors.insert(cursor) }
            var following = current
            following.cursor = next
            following.step += 1
            active = following
            return startFetch(following)
        }
        let (applied, dropped) = apply(ids, side: current.side)
        if isRefresh {
            followedCursors = []
            hasLoadedFirstPage = true
            halt = nil
        }
        if let cursor = current.cursor { followedCursors.insert(cursor) }
        lastPageCursor = current.cursor
        if let next, followedCursors.contains(next) {
            // The page is applied, the cursor is not followed; load-more stops until retry().
            reachedEnd = false
            nextCursor = next
            halt = .repeatedCursor
            return fail(current, FeedError.repeatedCursor("\(next)"))
        }
        nextCursor = next
        reachedEnd = next == nil
        if ids.isEmpty && next != nil {
            halt = .emptyPages
            return fail(current, FeedError.emptyPageClaimsMore)
        }
        lastFailure = nil
        let summary = LoadSummary(itemsApplied: applied, droppedDuplicates: dropped, reachedEnd: reachedEnd)
        end(current, reachedEnd ? .endOfData : .completed, summary: summary)
    }

    /// A try failed (thrown or timed out): retry after a backoff, or fail the load.
    private mutating func failed(_ current: Load, _ error: any Error) {
        cancelTasks(of: current)
        if current.retryNumber < configuration.retry.maximumAttempts {
            var waiting = current
            waiting.phase = .waitingToRetry
            active = waiting
            let delay = configuration.retry.backoff(beforeRetry: current.retryNumber)
            let failure = FeedFailure(error: error, side: current.side, attempt: current.attempt)
            diagnostics.append(.retryScheduled(
                side: current.side, retryNumber: current.retryNumber, delay: delay, failure: failure))
            sleepers.append(Sleeper(deadline: now + delay, kind: .backoff(load: current.id, attempt: current.attempt)))
            return
        }
        fail(current, error)
    }

    private mutating func apply(_ ids: [Int], side: FeedSide) -> (applied: Int, dropped: Int) {
        let replacing = side == .refresh
        if replacing {
            list = []
            listIDs = []
        }
        let before = list.count
        var dropped = 0
        for id in ids {
            if configuration.duplicates == .drop && !listIDs.insert(id).inserted {
                dropped += 1
            } else {
                list.append(id)
            }
        }
        if dropped > 0 { diagnostics.append(.duplicatesDropped(side: side, count: dropped)) }
        if replacing || list.count > before { lists.append(list) }
        return (replacing ? list.count : list.count - before, dropped)
    }

    // MARK: Helpers

    private mutating func start(
        _ side: FeedSide, cursor: Int?, attempt: Int, announce: Bool, caller: Int?, isRecheck: Bool = false
    ) {
        lastLoadID += 1
        var load = Load(id: lastLoadID, side: side, cursor: cursor, attempt: attempt, firstAttempt: attempt, phase: .fetching)
        load.isRecheck = isRecheck
        active = load
        if announce { events.append(.began(side)) }
        if let caller { callers.append(Caller(call: caller, load: load.id, side: side, joined: false)) }
        startFetch(load)
    }

    private mutating func startFetch(_ load: Load) {
        let inFlight = sleepers.filter {
            if case .fetch(_, _, _, _, _, _, let cancelled) = $0.kind { !cancelled } else { false }
        }
        if !inFlight.isEmpty {
            violations.append("a \(load.side) fetch started while another fetch was in flight and not cancelled")
        }
        let index = requests.count
        requests.append(Request(side: load.side, cursor: load.cursor, attempt: load.attempt))
        let response = plan.response(forRequest: index, cursor: load.cursor)
        if let timeout = configuration.timeout {
            sleepers.append(Sleeper(
                deadline: now + timeout, kind: .timeout(load: load.id, attempt: load.attempt, step: load.step)))
        }
        if let deadline = response.deadline(startingAt: now) {
            sleepers.append(Sleeper(deadline: deadline, kind: .fetch(
                request: index, load: load.id, side: load.side, attempt: load.attempt, step: load.step,
                response: response, cancelled: false)))
        } else {
            deliver(load: load.id, side: load.side, attempt: load.attempt, step: load.step, response.result)
        }
    }

    /// Cancels the fetch and timers of `load`. A fetch that honours cancellation leaves the
    /// clock and comes back as a stale failure; one that ignores it sleeps on.
    private mutating func cancelTasks(of load: Load) {
        var kept: [Sleeper] = []
        for var sleeper in sleepers {
            switch sleeper.kind {
            case .timeout(let id, _, _), .backoff(let id, _):
                if id != load.id { kept.append(sleeper) }
            case .fetch(let request, let id, let side, let attempt, let step, let response, _):
                if id != load.id {
                    kept.append(sleeper)
                } else if response.ignoresCancellation && response.result != .hang {
                    sleeper.kind = .fetch(
                        request: request, load: id, side: side, attempt: attempt, step: step, response: response,
                        cancelled: true)
                    kept.append(sleeper)
                } else {
                    // A well-behaved fetch stops with CancellationError (FeedDiagnostic.fetchCancelled).
                    cancelledArrivals.append(.fetchCancelled(side: side, attempt: attempt))
                }
            }
        }
        sleepers = kept
    }

    private mutating func flushCancelledArrivals() {
        if !isClosed { diagnostics += cancelledArrivals }
        cancelledArrivals = []
    }

    /// Ends `load`: no load is active, its event is published and its callers are answered.
    private mutating func end(_ load: Load, _ reason: FeedEndReason, summary: LoadSummary? = nil) {
        cancelTasks(of: load)
        active = nil
        events.append(.ended(load.side, reason))
        let outcome: LoadOutcome = switch reason {
        case .completed, .endOfData: .completed(summary!)
        case .cancelled(let cause): .cancelled(cause)
        case .failed(let failure): .failed(failure)
        }
        resolve(load.id, outcome)
    }

    private mutating func fail(_ load: Load, _ error: any Error) {
        let failure = FeedFailure(error: error, side: load.side, attempt: load.attempt)
        lastFailure = failure
        end(load, .failed(failure))
    }

    private mutating func join(_ call: Int, _ load: Load) {
        callers.append(Caller(call: call, load: load.id, side: load.side, joined: true))
    }

    private mutating func answer(_ call: Int, side: FeedSide?, _ outcome: LoadOutcome) {
        outcomes[call] = LoadResult(side: side, outcome: outcome)
    }

    private mutating func resolve(_ load: Int, _ outcome: LoadOutcome) {
        for caller in callers where caller.load == load {
            outcomes[caller.call] = LoadResult(side: caller.side, outcome: outcome, joinedInFlightLoad: caller.joined)
        }
        callers.removeAll { $0.load == load }
    }
}
