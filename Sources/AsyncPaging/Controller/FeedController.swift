/// The paging engine of one feed: it owns the pages, runs the loads and publishes the list.
///
/// A controller fetches pages from a ``PageSource``. A refresh (the header) fetches the first
/// page — or the page at a cursor, ``refresh(from:)`` — and replaces the list; a load-more (the
/// footer) fetches the page after the last one and appends it; a load-previous fetches the page
/// before the first one and prepends it. A refresh cancels the loads at both ends, a load at
/// an end cancels a refresh (by default), and the two ends load at once. A result that arrives
/// for a cancelled load is dropped, even from a source that ignores cancellation. The rules are
/// listed in <doc:BehaviourReference> and live in one place, a pure state machine; this actor
/// only carries out its actions and runs the tasks.
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
/// ``snapshots`` (the list), ``events`` (begin and end of every load), ``loadStates`` (what
/// each side is doing) and ``statuses`` (a one-value summary).
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
    @usableFromInline typealias Machine = FeedStateMachine<Item, Cursor>
    @usableFromInline typealias LoadID = Machine.LoadID
    @usableFromInline typealias FetchAnswer = Result<Page<Item, Cursor>, any Error>

    /// The configuration the controller runs with.
    public nonisolated let configuration: FeedConfiguration
    /// The clock every timer of this controller runs on.
    public nonisolated let clock: any Clock<Duration>
    /// The scroll anchor of the state this controller was restored from
    /// (``FeedState/anchorIndex``), as an index of its first snapshot: where the UI scrolls to
    /// before showing the list. `nil` when not restored, or restored without an anchor.
    public nonisolated let restoredAnchorIndex: Int?

    @usableFromInline let source: any PageSource<Item, Cursor>
    /// The ids of the listed items, when duplicates are dropped by id.
    @usableFromInline let identities: _IdentityFilter<Item>?
    @usableFromInline let broadcaster: FeedBroadcaster<Item>
    @usableFromInline let tasks = ControllerTasks<FetchAnswer, FeedController>()

    // The actor's mutable state. Its accesses are checked for exclusivity at run time in debug
    // builds (the test suite) and not in release builds: each dynamic check costs ~70
    // instructions, ~22 a page (2,800 of a page's 34,500, measured with callgrind). Unchecked is
    // safe: every access runs on the actor (isolation), so no two threads ever overlap, and the
    // code makes no overlapping access within one turn (no inout access to a property while a
    // closure or call it passes reaches the same property), which the checked debug builds
    // enforce on every test.
    //
    // - `published`: the version, generation and counts of the last published snapshot, all the
    //   controller reads of it (the snapshot itself is the broadcaster's; holding it here too
    //   cost 136 bytes a controller and a retain of its tables per page).
    // - `overlay`: the edits laid over the list since the last refresh, if any.
    // - `resolutions`: the callers to answer once an action list has been carried out and the
    //   status published.
    // - `deferredAnswers`: answers given at once beyond the first of one action list, accepted
    //   after it.
    // - `actionBuffer`: the action list the machine writes into, reused so that a page allocates
    //   no array.
    // - `_listObservers`: the test kit's observers of every published list, if any (see
    //   `_PublishedListObservers`).
    // - `_sessionJournal`: what changed since a session registry last saved the list (nil unless
    //   a registry with a store attached one; FeedController+SessionJournal.swift).
    // - `_reloads`: the reload policy and the anchor of a reload in flight, if either was ever
    //   set (FeedController+Reload.swift).
    #if DEBUG
    @usableFromInline var machine: Machine
    @usableFromInline var store = ItemStore<Item>()
    @usableFromInline var published = _PublishedList()
    @usableFromInline var overlay: _EditOverlay<Item>?
    @usableFromInline var waiters: [Waiter] = []
    @usableFromInline var resolutions: [(LoadID, LoadOutcome)] = []
    @usableFromInline var deferredAnswers: [ArrivedAnswer] = []
    @usableFromInline var actionBuffer: [Machine.Action] = []
    @usableFromInline var random = SystemRandomNumberGenerator()
    @usableFromInline package var _listObservers: _PublishedListObservers<Item>?
    @usableFromInline var _sessionJournal: _FeedSessionJournal<Item, Cursor>?
    @usableFromInline var _reloads: _ReloadState<Item, Cursor>?
    #else
    @exclusivity(unchecked) @usableFromInline var machine: Machine
    @exclusivity(unchecked) @usableFromInline var store = ItemStore<Item>()
    @exclusivity(unchecked) @usableFromInline var published = _PublishedList()
    @exclusivity(unchecked) @usableFromInline var overlay: _EditOverlay<Item>?
    @exclusivity(unchecked) @usableFromInline var waiters: [Waiter] = []
    @exclusivity(unchecked) @usableFromInline var resolutions: [(LoadID, LoadOutcome)] = []
    @exclusivity(unchecked) @usableFromInline var deferredAnswers: [ArrivedAnswer] = []
    @exclusivity(unchecked) @usableFromInline var actionBuffer: [Machine.Action] = []
    @exclusivity(unchecked) @usableFromInline var random = SystemRandomNumberGenerator()
    @exclusivity(unchecked) @usableFromInline package var _listObservers: _PublishedListObservers<Item>?
    @exclusivity(unchecked) @usableFromInline var _sessionJournal: _FeedSessionJournal<Item, Cursor>?
    @exclusivity(unchecked) @usableFromInline var _reloads: _ReloadState<Item, Cursor>?
    #endif

    @usableFromInline struct Waiter {
        @usableFromInline let id: LoadID
        @usableFromInline let side: FeedSide
        @usableFromInline let joined: Bool
        @usableFromInline let continuation: UnsafeContinuation<LoadResult, Never>

        @inlinable init(id: LoadID, side: FeedSide, joined: Bool, continuation: UnsafeContinuation<LoadResult, Never>) {
            self.id = id
            self.side = side
            self.joined = joined
            self.continuation = continuation
        }
    }

    /// A fetch's answer with what identifies the fetch: handed over in place when the source
    /// answered before its launch returned (see ``ControllerTasks``), or delivered by its task.
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

    // MARK: Creating a controller

    /// Creates a controller that keeps every item, duplicates included, unless `Item` is
    /// `Identifiable` (then the `Identifiable` initializer is chosen and duplicates are dropped
    /// by id), and starts the initial load unless the configuration turns it off.
    /// - Parameters:
    ///   - source: Where pages come from.
    ///   - clock: The clock of every timer, and of ``PageRequest/clock``.
    ///   - configuration: Page size, initial load, overlap policies, retry, timeout, duplicates.
    ///   - initialCursor: Where the initial load starts: `nil` (the default) for the first page,
    ///     or the cursor of the page to open at (a deep link), after which both ends can load.
    ///   - restoring: A saved list (``FeedController/exportState(anchorIndex:savedBy:)``) to show at
    ///     once instead of running the initial load: the first snapshot (version 1) has its
    ///     items and generation, with change ``FeedChange/replaced``; both ends load on from
    ///     its cursors; ``FeedConfiguration/maximumItems`` applies from the next load.
    ///   - restorePolicy: Whether a restored controller then refreshes:
    ///     ``RestorePolicy/always`` by default. Ignored without `restoring:`.
    ///   - refreshStart: Where a restored controller refreshes from, for the policy's refresh
    ///     and every later ``refresh()``: by default the restored list's own first page
    ///     (``RestoredRefreshStart/savedFirstPage``), or `initialCursor`
    ///     (``RestoredRefreshStart/initialCursor``). Ignored without `restoring:`.
    public init(
        source: some PageSource<Item, Cursor>,
        clock: any Clock<Duration> = ContinuousClock(),
        configuration: FeedConfiguration = .default,
        initialCursor: Cursor? = nil,
        restoring: FeedState<Item, Cursor>? = nil,
        restorePolicy: RestorePolicy = .always,
        refreshStart: RestoredRefreshStart = .savedFirstPage
    ) {
        self.init(
            source: source, clock: clock, configuration: configuration, initialCursor: initialCursor, identities: nil,
            restoring: restoring, restorePolicy: restorePolicy, refreshStart: refreshStart)
    }

    /// Creates a controller that identifies items by `id` (a key path, `id: \.key`, or a
    /// closure), so that items already in the list are handled by
    /// ``FeedConfiguration/duplicates``, and the edits (`update(_:)`, `update(id:_:)`,
    /// `remove(ids:)`, `insertAtTop(_:)`) find items by it when duplicates are dropped;
    /// `restoring:` (a saved ``FeedState`` to show at once), `restorePolicy:` and
    /// `refreshStart:` as on the initializer with a source and no `id`.
    @inlinable public init<ID: Hashable & Sendable>(
        source: some PageSource<Item, Cursor>,
        clock: any Clock<Duration> = ContinuousClock(),
        configuration: FeedConfiguration = .default,
        initialCursor: Cursor? = nil,
        restoring: FeedState<Item, Cursor>? = nil,
        restorePolicy: RestorePolicy = .always,
        refreshStart: RestoredRefreshStart = .savedFirstPage,
        id: @escaping @Sendable (Item) -> ID
    ) {
        // Made here, where `ID` is known, so that ids are hashed as their own type.
        self.init(
            source: source, clock: clock, configuration: configuration, initialCursor: initialCursor,
            identities: configuration.duplicates == .drop ? _IdentityFilter(id: id) : nil,
            restoring: restoring, restorePolicy: restorePolicy, refreshStart: refreshStart)
    }

    /// Creates a controller whose source is a closure; `restoring:` (a saved ``FeedState`` to show
    /// at once), `restorePolicy:` and `refreshStart:` as on the initializer with a source and no
    /// `id`.
    public init(
        clock: any Clock<Duration> = ContinuousClock(),
        configuration: FeedConfiguration = .default,
        initialCursor: Cursor? = nil,
        restoring: FeedState<Item, Cursor>? = nil,
        restorePolicy: RestorePolicy = .always,
        refreshStart: RestoredRefreshStart = .savedFirstPage,
        fetch: @escaping @Sendable (PageRequest<Cursor>) async throws -> Page<Item, Cursor>
    ) {
        self.init(
            source: ClosurePageSource(fetch), clock: clock, configuration: configuration, initialCursor: initialCursor,
            identities: nil, restoring: restoring, restorePolicy: restorePolicy, refreshStart: refreshStart)
    }

    @inlinable init(
        source: some PageSource<Item, Cursor>,
        clock: any Clock<Duration>,
        configuration: FeedConfiguration,
        initialCursor: Cursor?,
        identities: _IdentityFilter<Item>?,
        restoring state: FeedState<Item, Cursor>? = nil,
        restorePolicy: RestorePolicy = .always,
        refreshStart: RestoredRefreshStart = .savedFirstPage
    ) {
        self.source = source
        self.clock = clock
        self.configuration = configuration
        self.identities = identities
        var machine = Machine(configuration: configuration, identifiesItems: identities != nil)
        var initialActions: [Machine.Action] = []
        var firstSnapshot = FeedSnapshot<Item>.initial
        if let state {
            // Shown at once (FeedController+Restore.swift); the policy decides on a refresh.
            var restored = ItemStore<Item>()
            restoredAnchorIndex = Self._restore(state, into: &machine, store: &restored, identities: identities)
            firstSnapshot = FeedSnapshot(
                version: 1, generation: state.generation, change: .replaced, contents: restored.contents)
            self.store = restored
            self.published = _PublishedList(firstSnapshot)
            let savedFirstPage = refreshStart == .savedFirstPage
            // A first page with no `previous` is the first of the data: refreshed from `nil`, as
            // the initial load fetched it (and a head-merging refresh merges there).
            let atStart = state.pages.first?.previous == nil
            let refreshCursor = savedFirstPage && !atStart ? state.fetchedCursor(ofPageAt: 0) : nil
            machine.refreshStartCursor = refreshCursor
            if restorePolicy.refreshes(savedAt: state.savedAt) {
                _ = machine.refreshRequested(from: savedFirstPage ? refreshCursor : initialCursor, into: &initialActions)
            }
        } else {
            restoredAnchorIndex = nil
            if configuration.loadsInitialPage {
                _ = machine.refreshRequested(from: initialCursor, into: &initialActions)
            }
        }
        self.broadcaster = FeedBroadcaster(
            snapshot: firstSnapshot, status: machine.status, loadStates: machine.loadStates,
            loadingSides: machine.refreshLoad == nil ? [] : [.refresh])
        // Moved in after its last use: stored first and then read, the machine was copied
        // (through its value witnesses) for every read.
        self.machine = consume machine
        // The initial load's `began` is replayed to every subscriber by the broadcaster; what
        // is left to do is to start its fetch.
        for case let .startFetch(id, side, cursor, attempt, step) in initialActions {
            // Not isolated yet, so no hand-over in place: the fetch task delivers its answer.
            _ = launchFetch(id, side: side, cursor: cursor, attempt: attempt, step: step, handsOverInPlace: false)
        }
    }

    deinit {
        // Closed before (`close()`): its tasks were cancelled, its loads ended, its outputs
        // finished, and nothing starts after a close; what follows would only find that so. (A
        // generic class's deinit is never specialized: here that costs ~25,000 instructions,
        // mostly generic metadata look-ups, which a session registry saves by closing the
        // controllers it evicts in its own, specialized code.)
        if machine.isClosed { return }
        tasks.cancelAll()
        // Close as `close()` would: the machine ends the loads in flight; their end events and
        // the last states go out before the streams finish.
        let broadcaster = self.broadcaster
        machine.closeOnRelease { broadcaster.publish($0) }
        broadcaster.publish(machine.status, machine.loadStates)
        broadcaster.finish(finalStatus: .closed)
    }

    // MARK: Outputs

    /// The list: a new subscription that first gets the current list, then every change.
    ///
    /// A slow subscriber skips to the newest snapshot; a gap in ``FeedSnapshot/version`` tells
    /// it so and ``FeedSnapshot/change(since:)`` tells what changed. Finishes on ``close()``.
    ///
    /// Each access makes a subscription of its own: iterate it from one task. (Two tasks
    /// iterating one subscription share its reader: each gets some of the lists, and cancelling
    /// one task may end the other's wait too. Take a subscription per task instead.)
    @inlinable public nonisolated var snapshots: AsyncStream<FeedSnapshot<Item>> { broadcaster.subscribeToSnapshots() }

    /// Begin and end of every load, lossless and in order; a new subscription each access.
    ///
    /// A subscriber that joins while a side is loading first gets that side's `began`. The
    /// stream buffers every event until it is read. Finishes on ``close()``.
    @inlinable public nonisolated var events: AsyncStream<FeedEvent> { broadcaster.subscribeToEvents() }

    /// What each side is doing — refresh, load-previous, load-more: idle, loading, failed or
    /// reached the end — as a new subscription that first gets the current states, then every
    /// change, keeping only the newest. Finishes on ``close()``.
    @inlinable public nonisolated var loadStates: AsyncStream<FeedLoadStates> { broadcaster.subscribeToLoadStates() }

    /// The status, a one-value summary of ``loadStates`` for a feed that loads at its end: a new
    /// subscription that first gets the current status, then every change, keeping only the
    /// newest. Ends with ``FeedStatus/closed`` on ``close()``.
    @inlinable public nonisolated var statuses: AsyncStream<FeedStatus> { broadcaster.subscribeToStatuses() }

    /// What the engine did on its own — stale results dropped, duplicates dropped, retries
    /// scheduled, timeouts — for logs and metrics; lossless, a new subscription each access.
    /// Finishes on ``close()``.
    @inlinable public nonisolated var diagnostics: AsyncStream<FeedDiagnostic> { broadcaster.subscribeToDiagnostics() }

    /// The list, the status and the state of each side together, keeping only the newest: each
    /// iteration first gets the current ``FeedUpdate``, then the newest one each time it asks,
    /// at most one per turn of the controller; it ends after ``close()``, with the last update.
    /// One wake-up per change for a reader of all three, and no hop to the global executor when
    /// an update is ready: the output for a screen's model. See ``FeedUpdates``.
    @inlinable public nonisolated var updates: FeedUpdates<Item> { FeedUpdates(broadcaster) }

    /// The newest published list.
    @inlinable public nonisolated var currentSnapshot: FeedSnapshot<Item> { broadcaster.latestSnapshot }

    /// The list as published (the store with the edits laid over it), read on the actor: the
    /// same items as the last snapshot, without taking the broadcaster's lock. Its `change` is
    /// not the published one.
    @inlinable var shownList: FeedSnapshot<Item> {
        FeedSnapshot(
            version: published.version, generation: published.generation, change: .replaced,
            contents: store.contents, overlay: overlay)
    }

    /// The newest published status.
    @inlinable public nonisolated var currentStatus: FeedStatus { broadcaster.latestStatus }

    /// The newest published state of each side.
    @inlinable public nonisolated var currentLoadStates: FeedLoadStates { broadcaster.latestLoadStates }

    /// The number of live subscriptions, per output. A subscription goes away when its
    /// iterating task ends or is cancelled, or when its stream is released.
    @inlinable public nonisolated var subscriberCounts: (snapshots: Int, statuses: Int, events: Int) {
        broadcaster.subscriberCounts
    }

    // MARK: Operations

    /// Fetches the first page and, on success, replaces the list and clears end of data.
    ///
    /// The first page is the first of the data (cursor `nil`), except for a controller restored
    /// from a ``FeedState`` (``RestoredRefreshStart/savedFirstPage``, the default): there, the
    /// restored list's own first page, fetched again from the cursor it was fetched with.
    ///
    /// Loads in flight at either end are cancelled (their data is never applied). A refresh in
    /// flight is replaced by this one (``RefreshDuringRefreshPolicy/restart``) or joined
    /// (``RefreshDuringRefreshPolicy/join``).
    /// - Returns: What happened to this call, once the load has ended. Cancelling the calling
    ///   task does not cancel the load; other callers may be waiting on it.
    ///
    /// In ``RefreshMode/refetchLoaded``, it fetches every loaded page again instead, and
    /// replaces the list once they have all come.
    @discardableResult
    @inlinable public func refresh() async -> LoadResult {
        await call(side: .refresh) { machine, actions in
            let start = machine.refreshStartCursor
            return machine.refreshOrRefetchRequested(from: start, into: &actions)
        }
    }

    /// Fetches the page at `cursor` and, on success, replaces the list with it: opens the feed
    /// in the middle of its data (a deep link, a chat opened at a message, a restored position).
    ///
    /// The page's `previous` and `next` cursors then let ``loadPrevious()`` and ``loadMore()``
    /// grow the list both ways. Otherwise the same as ``refresh()``; a refresh in flight from
    /// another cursor is always replaced, whatever ``RefreshDuringRefreshPolicy``, and `retry()`
    /// after a failure fetches `cursor` again.
    @discardableResult
    @inlinable public func refresh(from cursor: Cursor) async -> LoadResult {
        await call(side: .refresh) { $0.refreshRequested(from: cursor, into: &$1) }
    }

    /// Fetches the page after the last page (the last page's `next`) and appends it.
    ///
    /// At the end of the data it fetches nothing and answers ``LoadOutcome/endOfData``. A
    /// load-more in flight is joined (``LoadMoreDuringLoadMorePolicy/join``); a refresh in
    /// flight is cancelled, or wins (``LoadMoreDuringRefreshPolicy``); a load-previous in
    /// flight runs on (``BothEndsPolicy``).
    @discardableResult
    @inlinable public func loadMore() async -> LoadResult {
        await call(side: .loadMore) { $0.edgeLoadRequested(.loadMore, into: &$1) }
    }

    /// Fetches the page before the first page (the first page's `previous`) and prepends it:
    /// older messages above a chat, newer posts above a timeline opened in the middle.
    ///
    /// At the start of the data (the first page has no `previous`, which is always so for a
    /// source that only pages forward) it fetches nothing and answers ``LoadOutcome/endOfData``.
    /// A load-previous in flight is joined or restarted (``LoadMoreDuringLoadMorePolicy``, which
    /// rules both ends); a refresh in flight is cancelled, or wins
    /// (``LoadPreviousDuringRefreshPolicy``); a load-more in flight runs on (``BothEndsPolicy``).
    /// The snapshot's change is ``FeedChange/prepended(_:)``: every older index moves up by
    /// the prepended count.
    @discardableResult
    @inlinable public func loadPrevious() async -> LoadResult {
        await call(side: .loadPrevious) { $0.edgeLoadRequested(.loadPrevious, into: &$1) }
    }

    /// Runs a failed load again: a refresh from where it started, a load at an end from that
    /// end's cursor. While an automatic retry waits for its backoff, it runs it at once; while
    /// a load is in flight, the call joins it.
    ///
    /// - Parameter side: The side to retry. `nil` (the default) picks a load waiting for its
    ///   backoff, else a load in flight (refresh, then the end, then the start), else the side
    ///   that failed last.
    @discardableResult
    @inlinable public func retry(_ side: FeedSide? = nil) async -> LoadResult {
        // The side of an answer given at once: the one asked for, else the side that failed last.
        await call(side: side ?? sideOfLastFailure()) { $0.retryRequested(side, into: &$1) }
    }

    /// Waits until the feed has a first page, and tells how that went; for services, where a
    /// request may reach a new session while its first page is still loading.
    ///
    /// - If a first page has been applied, it answers at once with
    ///   ``LoadOutcome/completed(_:)`` and the current list's count as ``LoadSummary/itemsApplied``.
    /// - If the first page is loading (a refresh before any page), it joins that load.
    /// - If the first page failed, it answers that failure (``LoadOutcome/failed(_:)``); call
    ///   ``retry(_:)`` to run it again.
    /// - If no load ran yet (``FeedConfiguration/loadsInitialPage`` is off), it starts the refresh.
    @discardableResult
    @inlinable public func waitForFirstPage() async -> LoadResult {
        if machine.isClosed { return LoadResult(side: .refresh, outcome: .ignored(.closed)) }
        if machine.hasLoadedFirstPage {
            let summary = LoadSummary(itemsApplied: store.count, reachedEnd: machine.end.reachedEnd)
            return LoadResult(side: .refresh, outcome: .completed(summary))
        }
        if let refresh = machine.refreshLoad {
            return await call(side: .refresh) { _, _ in .joined(refresh.id) }
        }
        if let failure = inMachine({ $0.failure(of: .refresh) }) {
            return LoadResult(side: .refresh, outcome: .failed(failure))
        }
        return await call(side: .refresh) { $0.refreshRequested(into: &$1) }
    }

    /// The cursors at both ends of the current list: what to hand a client that pages on later.
    public var cursors: FeedCursors<Cursor> {
        FeedCursors(
            previous: machine.start.cursor, next: machine.end.cursor, reachedEnd: machine.end.reachedEnd,
            reachedStart: machine.start.reachedEnd)
    }

    /// Cancels the loads in flight (they end as cancelled by close), finishes every output
    /// stream, and makes every later call answer ``IgnoreReason/closed``. Releasing the last
    /// reference to a controller does the same.
    @inlinable public func close() {
        run { $0.closeRequested(into: &$1) }
    }

    /// Sends a request without waiting for its outcome, from any context: for UI code that
    /// fires and forgets. Requests sent from one thread are carried out in the order sent.
    @inlinable public nonisolated func send(_ request: FeedRequest) {
        if tasks.post(request) {
            Task { await self.carryOutSentRequests() }
        }
    }

    @inlinable func carryOutSentRequests() {
        while let request = tasks.nextRequest() {
            switch request {
            case .refresh: run { _ = $0.refreshOrRefetchRequested(from: nil, into: &$1) }
            case .loadMore: run { _ = $0.edgeLoadRequested(.loadMore, into: &$1) }
            case .loadPrevious: run { _ = $0.edgeLoadRequested(.loadPrevious, into: &$1) }
            case .retry: run { _ = $0.retryRequested(into: &$1) }
            case .close: run { $0.closeRequested(into: &$1) }
            }
        }
    }
}
