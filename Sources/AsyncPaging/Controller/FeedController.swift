/// The paging engine of one feed: it owns the pages, runs the loads and publishes the list.
///
/// A controller fetches pages from a ``PageSource``. A refresh (the header) fetches the first
/// page and replaces the list; a load-more (the footer) fetches the next page and appends it.
/// Starting one cancels the other, and a result that arrives for a cancelled load is dropped,
/// even from a source that ignores cancellation. The rules are listed in the README and live
/// in one place, `FeedStateMachine`; this actor only carries them out.
///
/// ```swift
/// let feed = FeedController<Post, Int>(clock: ContinuousClock()) { request in
///     let page = try await api.posts(after: request.cursor, limit: request.pageSize)
///     return Page(items: page.posts, next: page.nextCursor)
/// }
/// for await snapshot in feed.snapshots { render(snapshot) }
/// ```
///
/// Outputs are `nonisolated` and each access is a new, independent subscription:
/// ``snapshots`` (the list), ``events`` (begin and end of every load) and ``statuses``.
///
/// Every timer (the timeout, the retry backoff) runs on the injected clock, and sources get
/// the same clock in ``PageRequest/clock``: with a test clock a test decides when time passes.
// Performance note for maintainers: the operations and everything they call are `@inlinable`
// (state `@usableFromInline` rather than `private`; treat it as private all the same), and the
// actor is `final`, so that the app's module compiles them specialized for its `Item` and
// `Cursor`. Unspecialized, a page spent about a third of its time looking up generic metadata;
// without `final`, calls went through the class's method table and were not specialized at
// all. Benchmarks/README.md has the measurements.
public final actor FeedController<Item: Sendable, Cursor: Hashable & Sendable> {
    @usableFromInline typealias Machine = FeedStateMachine<Cursor>
    @usableFromInline typealias LoadID = Machine.LoadID
    @usableFromInline typealias FetchAnswer = Result<Page<Item, Cursor>, any Error>

    /// The configuration the controller runs with.
    public nonisolated let configuration: FeedConfiguration
    /// The clock every timer of this controller runs on.
    public nonisolated let clock: any Clock<Duration>

    @usableFromInline let source: any PageSource<Item, Cursor>
    /// The ids of the listed items, when duplicates are dropped by id.
    @usableFromInline let identities: _IdentityFilter<Item>?
    @usableFromInline let broadcaster: FeedBroadcaster<Item>
    @usableFromInline let tasks = LoadTasks<FetchAnswer>()
    @usableFromInline let mailbox = Locked<Mailbox>(Mailbox())
    /// How this controller's tasks reach it without keeping it alive; set once, in `init`.
    @usableFromInline let selfReference = WeakReference<FeedController>()

    @usableFromInline var machine: Machine
    @usableFromInline var store = ItemStore<Item>()
    @usableFromInline var latest: FeedSnapshot<Item> = .initial
    /// The page a fetch just returned, while the machine decides what to do with it.
    @usableFromInline var arrivedPage: Page<Item, Cursor>?
    /// What the last applied page did, for the outcome of its callers.
    @usableFromInline var lastApplied: (id: LoadID, applied: Int, dropped: Int)?
    @usableFromInline var waiters: [Waiter] = []
    /// The action list the machine writes into, reused so that a page allocates no array.
    @usableFromInline var actionBuffer: [Machine.Action] = []
    @usableFromInline var random = SystemRandomNumberGenerator()

    @usableFromInline struct Waiter {
        @usableFromInline let id: LoadID
        @usableFromInline let side: FeedSide?
        @usableFromInline let joined: Bool
        @usableFromInline let continuation: UnsafeContinuation<LoadResult, Never>

        @inlinable init(id: LoadID, side: FeedSide?, joined: Bool, continuation: UnsafeContinuation<LoadResult, Never>) {
            self.id = id
            self.side = side
            self.joined = joined
            self.continuation = continuation
        }
    }

    /// A fetch's answer with what identifies the fetch: handed over in place when the source
    /// answered before its launch returned (see ``LoadTasks``), or delivered by its task.
    @usableFromInline struct ArrivedAnswer {
        @usableFromInline let id: LoadID
        @usableFromInline let side: FeedSide
        @usableFromInline let attempt: Int
        @usableFromInline let step: Int
        @usableFromInline let answer: FetchAnswer

        @inlinable init(id: LoadID, side: FeedSide, attempt: Int, step: Int, answer: FetchAnswer) {
            self.id = id
            self.side = side
            self.attempt = attempt
            self.step = step
            self.answer = answer
        }
    }

    @usableFromInline struct Mailbox {
        @usableFromInline var requests: [FeedRequest] = []
        @usableFromInline var isDraining = false
    }

    // MARK: Creating a controller

    /// Creates a controller that keeps every item, duplicates included, unless `Item` is
    /// `Identifiable` (then the `Identifiable` initializer is chosen and duplicates are dropped
    /// by id), and starts the initial load unless the configuration turns it off.
    /// - Parameters:
    ///   - source: Where pages come from.
    ///   - clock: The clock of every timer, and of ``PageRequest/clock``.
    ///   - configuration: Page size, initial load, overlap policies, retry, timeout, duplicates.
    public init(
        source: some PageSource<Item, Cursor>,
        clock: any Clock<Duration> = ContinuousClock(),
        configuration: FeedConfiguration = .default
    ) {
        self.init(source: source, clock: clock, configuration: configuration, identities: nil)
    }

    /// Creates a controller that identifies items by `id`, so that items already in the list
    /// are handled by ``FeedConfiguration/duplicates``.
    @inlinable public init<ID: Hashable & Sendable>(
        source: some PageSource<Item, Cursor>,
        clock: any Clock<Duration> = ContinuousClock(),
        configuration: FeedConfiguration = .default,
        id: @escaping @Sendable (Item) -> ID
    ) {
        // Made here, where `ID` is known, so that ids are hashed as their own type.
        self.init(
            source: source, clock: clock, configuration: configuration,
            identities: configuration.duplicates == .drop ? _IdentityFilter(id: id) : nil)
    }

    /// Creates a controller whose source is a closure.
    public init(
        clock: any Clock<Duration> = ContinuousClock(),
        configuration: FeedConfiguration = .default,
        fetch: @escaping @Sendable (PageRequest<Cursor>) async throws -> Page<Item, Cursor>
    ) {
        self.init(source: ClosurePageSource(fetch), clock: clock, configuration: configuration, identities: nil)
    }

    @inlinable init(
        source: some PageSource<Item, Cursor>,
        clock: any Clock<Duration>,
        configuration: FeedConfiguration,
        identities: _IdentityFilter<Item>?
    ) {
        self.source = source
        self.clock = clock
        self.configuration = configuration
        self.identities = identities
        var machine = Machine(configuration: configuration)
        var initialActions: [Machine.Action] = []
        if configuration.loadsInitialPage {
            _ = machine.refreshRequested(into: &initialActions)
        }
        self.machine = machine
        self.broadcaster = FeedBroadcaster(
            snapshot: .initial, status: machine.status, loadingSides: machine.active.map { [$0.side] } ?? [])
        selfReference.set(self)
        // The initial load's `began` is replayed to every subscriber by the broadcaster; what
        // is left to do is to start its fetch.
        for case let .startFetch(id, side, cursor, attempt, step) in initialActions {
            // Not isolated yet, so no hand-over in place: the fetch task delivers its answer.
            _ = launchFetch(id, side: side, cursor: cursor, attempt: attempt, step: step, handsOverInPlace: false)
        }
    }

    deinit {
        tasks.cancelAll()
        if let active = machine.active {
            broadcaster.publish(.ended(active.side, .cancelled(.closed)))
        }
        broadcaster.finish(finalStatus: .closed)
    }

    // MARK: Outputs

    /// The list: a new subscription that first gets the current list, then every change.
    ///
    /// A slow subscriber skips to the newest snapshot; a gap in ``FeedSnapshot/version`` tells
    /// it so and ``FeedSnapshot/change(since:)`` tells what changed. Finishes on ``close()``.
    @inlinable public nonisolated var snapshots: AsyncStream<FeedSnapshot<Item>> { broadcaster.subscribeToSnapshots() }

    /// Begin and end of every load, lossless and in order; a new subscription each access.
    ///
    /// A subscriber that joins while a side is loading first gets that side's `began`. The
    /// stream buffers every event until it is read. Finishes on ``close()``.
    @inlinable public nonisolated var events: AsyncStream<FeedEvent> { broadcaster.subscribeToEvents() }

    /// The status: a new subscription that first gets the current status, then every change,
    /// keeping only the newest. Ends with ``FeedStatus/closed`` on ``close()``.
    @inlinable public nonisolated var statuses: AsyncStream<FeedStatus> { broadcaster.subscribeToStatuses() }

    /// What the engine did on its own — stale results dropped, duplicates dropped, retries
    /// scheduled, timeouts — for logs and metrics; lossless, a new subscription each access.
    /// Finishes on ``close()``.
    @inlinable public nonisolated var diagnostics: AsyncStream<FeedDiagnostic> { broadcaster.subscribeToDiagnostics() }

    /// The newest published list.
    @inlinable public nonisolated var currentSnapshot: FeedSnapshot<Item> { broadcaster.latestSnapshot }

    /// The newest published status.
    @inlinable public nonisolated var currentStatus: FeedStatus { broadcaster.latestStatus }

    /// The number of live subscriptions, per output. A subscription goes away when its
    /// iterating task ends or is cancelled, or when its stream is released.
    @inlinable public nonisolated var subscriberCounts: (snapshots: Int, statuses: Int, events: Int) {
        broadcaster.subscriberCounts
    }

    // MARK: Operations

    /// Fetches the first page and, on success, replaces the list and clears end of data.
    ///
    /// A load-more in flight is cancelled (its data is never applied). A refresh in flight is
    /// replaced by this one (``RefreshDuringRefreshPolicy/restart``) or joined
    /// (``RefreshDuringRefreshPolicy/join``).
    /// - Returns: What happened to this call, once the load has ended. Cancelling the calling
    ///   task does not cancel the load; other callers may be waiting on it.
    @discardableResult
    @inlinable public func refresh() async -> LoadResult {
        await call(side: .refresh) { $0.refreshRequested(into: &$1) }
    }

    /// Fetches the next page and appends it.
    ///
    /// At the end of the data it fetches nothing and answers ``LoadOutcome/endOfData``. A
    /// load-more in flight is joined (``LoadMoreDuringLoadMorePolicy/join``); a refresh in
    /// flight is cancelled, or wins (``LoadMoreDuringRefreshPolicy``).
    @discardableResult
    @inlinable public func loadMore() async -> LoadResult {
        await call(side: .loadMore) { $0.loadMoreRequested(into: &$1) }
    }

    /// Runs the failed load again: a refresh from the top, a load-more from the current
    /// list's cursor. While an automatic retry waits for its backoff, it runs it at once;
    /// while a load is in flight, the call joins it.
    @discardableResult
    @inlinable public func retry() async -> LoadResult {
        await call(side: machine.active?.side ?? machine.lastFailure?.side) { $0.retryRequested(into: &$1) }
    }

    /// Waits until the feed has a first page, and tells how that went; for services, where a
    /// request may reach a new session while its first page is still loading.
    ///
    /// - If a first page has been applied, it answers at once with
    ///   ``LoadOutcome/completed(_:)`` and the current list's count as ``LoadSummary/itemsApplied``.
    /// - If the first page is loading (a refresh before any page), it joins that load.
    /// - If the first page failed, it answers that failure (``LoadOutcome/failed(_:)``); call
    ///   ``retry()`` to run it again.
    /// - If no load ran yet (``FeedConfiguration/loadsInitialPage`` is off), it starts the refresh.
    @discardableResult
    @inlinable public func waitForFirstPage() async -> LoadResult {
        if machine.isClosed { return LoadResult(side: .refresh, outcome: .ignored(.closed)) }
        if machine.hasLoadedFirstPage {
            let summary = LoadSummary(itemsApplied: store.count, reachedEnd: machine.reachedEnd)
            return LoadResult(side: .refresh, outcome: .completed(summary))
        }
        if let active = machine.active, active.side == .refresh {
            return await call(side: .refresh) { _, _ in .joined(active.id) }
        }
        if let failure = machine.lastFailure, failure.side == .refresh {
            return LoadResult(side: .refresh, outcome: .failed(failure))
        }
        return await call(side: .refresh) { $0.refreshRequested(into: &$1) }
    }

    /// The cursors at both ends of the current list: what to hand a client that pages on later.
    public var cursors: FeedCursors<Cursor> {
        FeedCursors(previous: nil, next: machine.nextCursor, reachedEnd: machine.reachedEnd)
    }

    /// Cancels the load in flight (it ends as cancelled by close), finishes every output
    /// stream, and makes every later call answer ``IgnoreReason/closed``. Releasing the last
    /// reference to a controller does the same.
    @inlinable public func close() {
        run { $0.closeRequested(into: &$1) }
    }

    /// Sends a request without waiting for its outcome, from any context: for UI code that
    /// fires and forgets. Requests sent from one thread are carried out in the order sent.
    @inlinable public nonisolated func send(_ request: FeedRequest) {
        let startsDrain = mailbox.withLock { mailbox -> Bool in
            mailbox.requests.append(request)
            defer { mailbox.isDraining = true }
            return !mailbox.isDraining
        }
        if startsDrain {
            Task { await self.drainMailbox() }
        }
    }

    @inlinable func drainMailbox() {
        while let request = mailbox.withLock({ mailbox -> FeedRequest? in
            if mailbox.requests.isEmpty {
                mailbox.isDraining = false
                return nil
            }
            return mailbox.requests.removeFirst()
        }) {
            switch request {
            case .refresh: run { _ = $0.refreshRequested(into: &$1) }
            case .loadMore: run { _ = $0.loadMoreRequested(into: &$1) }
            case .retry: run { _ = $0.retryRequested(into: &$1) }
            case .close: run { $0.closeRequested(into: &$1) }
            }
        }
    }

    // MARK: Carrying out the machine's actions

    /// Feeds the machine a caller's request and, when the request started or joined a load,
    /// registers the caller on it *before* carrying out the actions: an answer that arrives
    /// while they run (a source that answers at once) finds the caller already waiting.
    @inlinable func call(
        side: FeedSide?, _ request: (inout Machine, inout [Machine.Action]) -> Machine.Decision
    ) async -> LoadResult {
        var actions = takeActionBuffer()
        let decision = request(&machine, &actions)
        switch decision {
        case .answered(let outcome):
            carryOut(&actions)
            return LoadResult(side: side, outcome: outcome)
        case .started(let id), .joined(let id):
            let joined = if case .joined = decision { true } else { false }
            // Unsafe continuation: every waiter is removed from `waiters` when it is resumed, so
            // it is resumed exactly once (see `answerCallers`); the load always ends (close ends
            // it too). The body runs on the actor, before the call suspends.
            return await withUnsafeContinuation { continuation in
                waiters.append(Waiter(id: id, side: side, joined: joined, continuation: continuation))
                carryOut(&actions)
            }
        }
    }

    /// Lets `step` feed the machine an input, then carries out the actions it wrote.
    @discardableResult
    @inlinable func run<Result>(_ step: (inout Machine, inout [Machine.Action]) -> Result) -> Result {
        var actions = takeActionBuffer()
        let result = step(&machine, &actions)
        carryOut(&actions)
        return result
    }

    /// The reused action list, empty; `carryOut` gives it back.
    @inlinable func takeActionBuffer() -> [Machine.Action] {
        let actions = actionBuffer
        actionBuffer = [] // the returned list is now the buffer's only owner: appending does not copy it
        return actions
    }

    /// Carries out `actions`, gives the list back for reuse, then hands over the answers that
    /// the fetches they launched gave at once — after the actions, as a fetch task would, and in
    /// a loop rather than by recursion (a source that answers at once with empty pages leads
    /// from one fetch to the next).
    @inlinable func carryOut(_ actions: inout [Machine.Action]) {
        var arrived = perform(actions)
        actions.removeAll(keepingCapacity: true)
        // Back into the buffer (empty since it was taken), leaving `actions` without storage, so
        // that the next call finds the buffer unique even while this caller is suspended.
        swap(&actions, &actionBuffer)
        while let answer = arrived {
            arrived = accept(answer)
        }
    }

    /// Carries out `actions` in order, publishes the new status, and only then answers the
    /// callers whose loads ended, so that a caller sees outputs that already tell its outcome.
    /// - Returns: The answer of a fetch it launched, when the source gave it at once.
    @inlinable func perform(_ actions: [Machine.Action]) -> ArrivedAnswer? {
        guard !actions.isEmpty else { return nil }
        var arrived: ArrivedAnswer?
        for action in actions {
            switch action {
            case .startFetch(let id, let side, let cursor, let attempt, let step):
                if let answer = launchFetch(
                    id, side: side, cursor: cursor, attempt: attempt, step: step, handsOverInPlace: true) {
                    arrived = ArrivedAnswer(id: id, side: side, attempt: attempt, step: step, answer: answer)
                }
            case .cancelLoad(let id):
                tasks.cancel(id.rawValue)
            case .scheduleRetry(let id, let retryNumber, let failure):
                let retry = configuration.retry
                let unit = retry.jitter > 0 ? Double.random(in: 0..<1, using: &random) : 0
                let delay = retry.delay(beforeRetry: retryNumber, after: failure.error, randomUnit: unit)
                broadcaster.publish(.retryScheduled(
                    side: failure.side, retryNumber: retryNumber, delay: delay, failure: failure))
                launchTimer(id, attempt: failure.attempt, step: 0, after: delay, isTimeout: false)
            case .applyPage(let id, let replacing):
                apply(id, replacing: replacing)
            case .emit(let event):
                broadcaster.publish(event)
            case .resolveCallers:
                break // after the status, below
            case .finishOutputs:
                tasks.cancelAll()
                broadcaster.finish(finalStatus: .closed)
            }
        }
        broadcaster.publish(machine.status)
        for case let .resolveCallers(id, outcome) in actions { answerCallers(of: id, outcome) }
        return arrived
    }

    /// Answers and removes the callers waiting on `id`.
    @inlinable func answerCallers(of id: LoadID, _ outcome: LoadOutcome) {
        var outcome = outcome
        if case .completed(var summary) = outcome, let lastApplied, lastApplied.id == id {
            summary.itemsApplied = lastApplied.applied
            summary.droppedDuplicates = lastApplied.dropped
            outcome = .completed(summary)
        }
        waiters.removeAll { waiter in
            guard waiter.id == id else { return false }
            waiter.continuation.resume(returning: LoadResult(
                side: waiter.side, outcome: outcome, joinedInFlightLoad: waiter.joined))
            return true
        }
    }

    @inlinable func apply(_ id: LoadID, replacing: Bool) {
        guard let page = arrivedPage else { return }
        arrivedPage = nil
        if replacing {
            store = ItemStore()
            identities?.removeAll()
        }
        let before = store.count
        let (kept, dropped) = withoutDuplicates(page.items)
        store.append(contentsOf: kept)
        if dropped > 0 {
            broadcaster.publish(.duplicatesDropped(side: replacing ? .refresh : .loadMore, count: dropped))
        }
        lastApplied = (id, replacing ? store.count : store.count - before, dropped)
        guard replacing || store.count > before else { return }
        latest = FeedSnapshot(
            version: latest.version + 1,
            generation: replacing ? latest.generation + 1 : latest.generation,
            change: replacing ? .replaced : .appended(before..<store.count),
            contents: store.contents)
        broadcaster.publish(latest)
    }

    /// The items whose id is not yet in the list, and how many were dropped.
    @inlinable func withoutDuplicates(_ items: [Item]) -> (kept: [Item], dropped: Int) {
        guard let identities else { return (items, 0) }
        return identities.recordNew(items)
    }

    /// A fetch task's answer, delivered through a hop onto the actor.
    @inlinable func fetchDelivered(_ id: LoadID, side: FeedSide, attempt: Int, step: Int, _ answer: FetchAnswer) {
        var arrived = accept(ArrivedAnswer(id: id, side: side, attempt: attempt, step: step, answer: answer))
        while let answer = arrived {
            arrived = accept(answer)
        }
    }

    /// Feeds a fetch's answer to the machine and carries out what it says (or reports the answer
    /// as stale). Returns the answer of a fetch this launched, when its source gave it at once.
    @inlinable func accept(_ arrived: ArrivedAnswer) -> ArrivedAnswer? {
        var actions = takeActionBuffer()
        let accepted: Bool
        switch arrived.answer {
        case .success(let page):
            arrivedPage = page
            accepted = machine.fetchSucceeded(
                arrived.id, attempt: arrived.attempt, step: arrived.step, itemCount: page.items.count,
                next: page.next, into: &actions)
        case .failure(let error):
            accepted = machine.fetchFailed(
                arrived.id, attempt: arrived.attempt, step: arrived.step, error: error, into: &actions)
        }
        let next = perform(actions)
        arrivedPage = nil
        actions.removeAll(keepingCapacity: true)
        actionBuffer = consume actions // moved back, so the next call finds it unique
        if !accepted {
            if case .failure(let error) = arrived.answer, error is CancellationError {
                broadcaster.publish(.fetchCancelled(side: arrived.side, attempt: arrived.attempt))
            } else {
                broadcaster.publish(.staleResultDiscarded(
                    side: arrived.side, attempt: arrived.attempt, succeeded: arrived.answer.isSuccess))
            }
        }
        return next
    }

    @inlinable func timerFired(_ id: LoadID, attempt: Int, step: Int, isTimeout: Bool) {
        guard isTimeout else {
            run { $0.backoffElapsed(id, attempt: attempt, into: &$1) }
            return
        }
        let side = machine.active?.side
        if run({ $0.timeoutElapsed(id, attempt: attempt, step: step, into: &$1) }), let side {
            broadcaster.publish(.timedOut(side: side, attempt: attempt))
        }
    }

    /// A timer's clock threw without the timer being cancelled: the load ends as failed.
    @inlinable func timerFailed(_ id: LoadID, attempt: Int, error: any Error) {
        run { $0.clockFailed(id, attempt: attempt, error: error, into: &$1) }
    }

    // MARK: Tasks (nonisolated: they touch only `let` properties, so the initializer can start one)

    /// Starts the fetch of `attempt` of load `id`.
    ///
    /// With `handsOverInPlace`, the fetch starts with `Task.immediate`: it runs on this thread
    /// until it first suspends, and a source that answers without suspending has its answer
    /// returned here, for the caller to hand over, rather than through a hop back onto the
    /// actor and a thread wake-up (``LoadTasks`` explains the hand-over). Otherwise, and where
    /// `Task.immediate` is unavailable, the fetch is an ordinary task that delivers its answer.
    /// - Returns: The answer, when the source gave it before the launch ended.
    @inlinable nonisolated func launchFetch(
        _ id: LoadID, side: FeedSide, cursor: Cursor?, attempt: Int, step: Int, handsOverInPlace: Bool
    ) -> FetchAnswer? {
        let request = PageRequest(
            cursor: cursor, side: side, pageSize: configuration.pageSize, attempt: attempt, clock: clock)
        let source = self.source
        let tasks = self.tasks
        let controller = selfReference
        // The two task bodies are closure literals, not one shared closure value: converting a
        // closure value into a task's operation costs three more allocations per fetch.
        if handsOverInPlace, #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            tasks.beginLaunch(loadID: id.rawValue, attempt: attempt)
            let fetch = Task.immediate {
                let answer = await Self.fetchAnswer(from: source, for: request)
                if tasks.answerInPlace(answer, loadID: id.rawValue, attempt: attempt) { return }
                await controller.target?.fetchDelivered(id, side: side, attempt: attempt, step: step, answer)
            }
            if let answer = tasks.endLaunch(fetch, loadID: id.rawValue) {
                return answer // the load has no fetch left to time out
            }
        } else {
            let fetch = Task {
                let answer = await Self.fetchAnswer(from: source, for: request)
                await controller.target?.fetchDelivered(id, side: side, attempt: attempt, step: step, answer)
            }
            tasks.setFetch(fetch, for: id.rawValue)
        }
        if let timeout = configuration.timeout {
            launchTimer(id, attempt: attempt, step: step, after: timeout, isTimeout: true)
        }
        return nil
    }

    /// What `source` answers to `request`: its page, or the error it threw.
    @inlinable static func fetchAnswer(
        from source: any PageSource<Item, Cursor>, for request: PageRequest<Cursor>
    ) async -> FetchAnswer {
        do {
            return .success(try await source.page(for: request))
        } catch {
            return .failure(error)
        }
    }

    /// Starts the timeout of fetch `step` of try `attempt`, or the backoff after try `attempt`.
    /// A clock that throws from `sleep` without being cancelled ends the load as failed
    /// (``FeedError/clockFailed(_:)``): the timer could never fire, and the load must end.
    @inlinable nonisolated func launchTimer(_ id: LoadID, attempt: Int, step: Int, after delay: Duration, isTimeout: Bool) {
        let clock = self.clock
        let controller = selfReference
        let timer = Task {
            do {
                try await clock.sleep(for: delay.boundedForTimers)
            } catch {
                if Task.isCancelled { return } // the load ended or moved on
                await controller.target?.timerFailed(id, attempt: attempt, error: error)
                return
            }
            await controller.target?.timerFired(id, attempt: attempt, step: step, isTimeout: isTimeout)
        }
        tasks.setTimer(timer, for: id.rawValue)
    }
}

extension FeedController where Item: Identifiable, Item.ID: Sendable {
    /// Creates a controller for `Identifiable` items: items whose `id` is already in the list
    /// are handled by ``FeedConfiguration/duplicates`` (dropped and counted by default).
    @inlinable public init(
        source: some PageSource<Item, Cursor>,
        clock: any Clock<Duration> = ContinuousClock(),
        configuration: FeedConfiguration = .default
    ) {
        self.init(
            source: source, clock: clock, configuration: configuration,
            identities: configuration.duplicates == .drop ? _IdentityFilter() : nil)
    }

    /// Creates a controller for `Identifiable` items whose source is a closure.
    @inlinable public init(
        clock: any Clock<Duration> = ContinuousClock(),
        configuration: FeedConfiguration = .default,
        fetch: @escaping @Sendable (PageRequest<Cursor>) async throws -> Page<Item, Cursor>
    ) {
        self.init(
            source: ClosurePageSource(fetch), clock: clock, configuration: configuration,
            identities: configuration.duplicates == .drop ? _IdentityFilter() : nil)
    }
}

extension Result {
    @inlinable var isSuccess: Bool {
        if case .success = self { true } else { false }
    }
}
