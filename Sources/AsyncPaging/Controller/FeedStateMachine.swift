/// Every paging rule of ``FeedController``, as a pure value: requests and fetch results go in,
/// ``Action``s come out, carrying everything the controller needs to carry them out. No tasks,
/// no clock, no locks: it is tested synchronously, action list by action list.
///
/// The machine has one slot per side: a refresh (replaces the list), a load at the start
/// (prepends the page before the first page) and a load at the end (appends the page after the
/// last page). Starting a refresh cancels both ends; the two ends run at once unless the
/// configuration says otherwise. Every load has a ``LoadID``; a result that arrives for an id
/// no slot holds is stale and is dropped here, which is what keeps a late page from a source
/// that ignores cancellation out of the list.
///
/// A page goes out in ``Action/applyPage(_:_:_:)``; the controller applies it and feeds the
/// counts back with ``pageApplied(_:applied:dropped:into:)``, which ends the load.
@usableFromInline struct FeedStateMachine<Item: Sendable, Cursor: Hashable & Sendable>: Sendable {
    /// Identifies one load, across its automatic retries.
    @usableFromInline struct LoadID: Hashable, Sendable, CustomStringConvertible {
        @usableFromInline let rawValue: UInt64

        @inlinable init(rawValue: UInt64) {
            self.rawValue = rawValue
        }
        @inlinable var description: String { "#\(rawValue)" }
    }

    /// A load in flight.
    @usableFromInline struct Load: Equatable, Sendable {
        @usableFromInline enum Phase: Equatable, Sendable {
            case fetching
            case waitingToRetry
            /// Its page went out to be applied; ``FeedStateMachine/pageApplied(_:applied:dropped:into:)``
            /// ends the load as decided.
            case applying(AfterApply)
        }

        /// How a load ends once its page is applied.
        @usableFromInline enum AfterApply: Equatable, Sendable {
            /// It completes; `reachedEnd` when the page was the last in the load's direction.
            case complete(reachedEnd: Bool)
            /// It fails after its page is applied: the page pointed back at a fetched cursor.
            case failRepeatedCursor(Cursor)
            /// It fails after its (empty) page is applied: one empty page too many.
            case failEmptyPage
            /// A head-merging refresh: the controller merges or replaces, then reports with
            /// ``FeedStateMachine/headMergeApplied(_:merged:applied:dropped:into:)``.
            case mergeAtHead(previous: Cursor?, next: Cursor?, isEmpty: Bool)
        }

        // The order of the stored properties is the layout (Swift does not reorder them): the
        // words first, then each optional cursor followed by one-byte fields that fill its
        // padding. In declaration order a load was 106 bytes with `Int` cursors, now 91 (the
        // head-merge payload of `phase` is most of the rest); a machine holds three slots.
        @usableFromInline let id: LoadID
        /// The try in flight (or the one that failed, while waiting to retry).
        @usableFromInline var attempt: Int
        /// The attempt this load started with (above 1 for a manual retry).
        @usableFromInline let firstAttempt: Int
        /// Tells apart the fetches of one attempt (each followed empty page, each page of a
        /// refetch, a restart), so that a late answer or timer of an earlier fetch cannot match.
        @usableFromInline var step: Int = 0
        /// The cursor the load started from (a refresh's `from`, an end's edge cursor).
        @usableFromInline let origin: Cursor?
        @usableFromInline let side: FeedSide
        /// A retry after a repeated cursor: fetch the edge page again only to get a fresh cursor
        /// onward; its items are already in the list and are not applied again.
        @usableFromInline let isRecheck: Bool
        /// A refresh in ``RefreshMode/mergeAtHead`` that may keep the list: it neither cancels a
        /// load at the end nor is cancelled by one.
        @usableFromInline var mergesAtHead = false
        /// A refresh that reloads the list where the user is (an invalidation or a jump,
        /// ``FeedStateMachine/reloadRequested(from:coalesces:into:)``): a load at an end does not
        /// cancel it, and it never merges at the head.
        @usableFromInline var isReload = false
        /// An invalidation came while this refresh was fetching: its answer may predate the
        /// change, so it is dropped and the load fetches again from its origin.
        @usableFromInline var restartsWhenAnswered = false
        /// The empty pages that claimed more this fetch of the load followed (`step` counts
        /// every fetch: a refetch's pages and a restart's fetch too). At most
        /// ``FeedConfiguration/emptyPagesFollowedLimit``, so two bytes, in the padding.
        @usableFromInline var emptyPagesFollowed: UInt16 = 0
        /// The cursor being fetched; moves on when the load follows an empty page.
        @usableFromInline var cursor: Cursor?
        @usableFromInline var phase: Phase = .fetching

        @inlinable init(id: LoadID, side: FeedSide, cursor: Cursor?, attempt: Int, isRecheck: Bool) {
            self.id = id
            self.side = side
            self.origin = cursor
            self.cursor = cursor
            self.attempt = attempt
            self.firstAttempt = attempt
            self.isRecheck = isRecheck
        }

        /// Whether a result or timer of `attempt`, `step` belongs to this load's fetch in flight.
        @inlinable func isFetching(_ id: LoadID, attempt: Int, step: Int) -> Bool {
            // Pattern matching, not `==`: the derived equality of a generic enum runs through
            // metadata look-ups and value witnesses (about a thousand instructions per page).
            guard case .fetching = phase else { return false }
            return self.id == id && self.attempt == attempt && self.step == step
        }

        @inlinable var isWaitingToRetry: Bool {
            if case .waitingToRetry = phase { true } else { false }
        }

        @inlinable var isApplying: Bool {
            if case .applying = phase { true } else { false }
        }

        /// 1 for the first automatic retry of this load, 2 for the second, …
        @inlinable var retryNumber: Int { attempt - firstAttempt + 1 }
    }

    /// Why an end stopped loading by itself after a guard failure, until `retry()` or a refresh.
    @usableFromInline enum Halt: Equatable, Sendable {
        /// The source repeated a cursor: following it would loop.
        case repeatedCursor
        /// The source sent more empty pages that claim more than a load follows.
        case emptyPages
    }

    /// One end of the list: where it loads from next, and whether it can.
    @usableFromInline struct Edge: Equatable, Sendable {
        /// The cursor of the page beyond this end; `nil` before the first page or at the end.
        @usableFromInline var cursor: Cursor?
        @usableFromInline var reachedEnd = false
        /// Set by a guard failure: this end fetches nothing until `retry()` or a refresh.
        @usableFromInline var halt: Halt?
        /// The cursor of the page at this end, for the recheck that `retry()` runs after a
        /// repeated cursor.
        @usableFromInline var edgePageCursor: Cursor?

        @inlinable init() {}
    }

    /// What the controller must do, in order.
    @usableFromInline enum Action: Sendable {
        /// Start fetching for `id` (and its timeout timer, if any).
        case startFetch(LoadID, side: FeedSide, cursor: Cursor?, attempt: Int, step: Int)
        /// Cancel the fetch task and the timers of `id`; any result it still sends is stale.
        case cancelLoad(LoadID)
        /// Start the backoff timer before retry number `retryNumber` of `id`, after `failure`.
        case scheduleRetry(LoadID, retryNumber: Int, failure: FeedFailure)
        /// Apply the page that `id` fetched at `side` (``takeLandedPage()``) — replace the list
        /// (refresh), prepend it (load-previous) or append it (load-more) — then report the
        /// counts to ``pageApplied``.
        case applyPage(LoadID, FeedSide)
        /// Merge the first page that head-merging refresh `id` fetched (``takeLandedPage()``)
        /// into the list's head if it shares an id with the list, else replace the list with
        /// it; then report to ``headMergeApplied(_:merged:applied:dropped:into:)``.
        case mergePageAtHead(LoadID)
        /// Replace the list with the pages that refetch `id` gathered (``refetched``), the first
        /// as a refresh and the others appended in order, then report the counts to
        /// ``refetchApplied(_:applied:dropped:into:)``.
        case applyRefetchedPages(LoadID)
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

    // The order of the stored properties is the layout: words first, the one-byte flags in the
    // padding after the cursor set. What only a machine that loaded uses — the load slots, the
    // edges, the failures, the page records — is out of line, in ``working``
    // (FeedStateMachine+Working.swift): 593 -> 521 bytes with `Int` cursors by the loads' own
    // layout, 96 with the working state out of line.
    @usableFromInline let configuration: FeedConfiguration
    @usableFromInline var lastLoadID: UInt64 = 0
    /// Cursors fetched since the last refresh, at either end: a page pointing back to one of
    /// them would loop.
    @usableFromInline var followedCursors = _FollowedCursors<Cursor>()
    @usableFromInline var isClosed = false
    @usableFromInline var hasLoadedFirstPage = false
    /// Whether the machine keeps ``pages`` (and the cursors of the empty pages each followed):
    /// with ``FeedConfiguration/maximumItems`` only.
    @usableFromInline let keepsPages: Bool
    /// Whether the controller identifies items (so a refresh can merge at the head).
    @usableFromInline let identifiesItems: Bool
    /// The load slots (``refreshLoad``, ``startLoad``, ``endLoad``), the edges (``start``,
    /// ``end``), the failures, the page records and the rest of what loads use, out of line:
    /// made on the first write and kept (FeedStateMachine+Working.swift).
    @usableFromInline var working: Working?

    @inlinable init(configuration: FeedConfiguration, identifiesItems: Bool = false) {
        self.configuration = configuration
        self.identifiesItems = identifiesItems
        self.keepsPages = configuration.maximumItems != nil || configuration.refreshMode == .refetchLoaded
            || configuration.keepsPageCursors
    }

    // MARK: Reading the state

    /// The load in flight at `side`.
    @inlinable subscript(load side: FeedSide) -> Load? {
        get {
            switch side {
            case .refresh: refreshLoad
            case .loadPrevious: startLoad
            case .loadMore: endLoad
            }
        }
        // `_modify`, not `set`: a change writes the slot in place instead of copying the load
        // out and back (a load is about a hundred bytes; the copies showed in the profile).
        // The working state's fields themselves, not the machine's accessors: a coroutine that
        // yields another coroutine's value allocates a frame for it (an allocation per access).
        _modify {
            let working = writableWorking()
            switch side {
            case .refresh: yield &working.refreshLoad
            case .loadPrevious: yield &working.startLoad
            case .loadMore: yield &working.endLoad
            }
        }
    }

    /// The end of the list that `side` grows (`side` is not `.refresh`).
    @inlinable subscript(edge side: FeedSide) -> Edge {
        get { side == .loadPrevious ? start : end }
        _modify {
            let working = writableWorking()
            if side == .loadPrevious { yield &working.start } else { yield &working.end }
        }
    }

    /// The side whose slot holds load `id`, if any.
    @inlinable func side(of id: LoadID) -> FeedSide? {
        if endLoad?.id == id { return .loadMore }
        if startLoad?.id == id { return .loadPrevious }
        if refreshLoad?.id == id { return .refresh }
        return nil
    }

    /// The standing failure of `side`, if any.
    @inlinable func failure(of side: FeedSide) -> FeedFailure? {
        failures.last { $0.side == side }
    }

    /// The summary status the outputs show.
    @inlinable var status: FeedStatus {
        if isClosed { return .closed }
        if refreshLoad != nil { return .refreshing }
        if endLoad != nil { return .loadingMore }
        if startLoad != nil { return .loadingPrevious }
        if let failure = failures.last { return .failed(failure) }
        return end.reachedEnd ? .endOfData : .idle
    }

    /// What each side is doing.
    @inlinable var loadStates: FeedLoadStates {
        FeedLoadStates(refresh: loadState(of: .refresh), loadPrevious: loadState(of: .loadPrevious), loadMore: loadState(of: .loadMore))
    }

    @inlinable func loadState(of side: FeedSide) -> FeedLoadState {
        if self[load: side] != nil { return .loading }
        if let failure = failure(of: side) { return .failed(failure) }
        if side != .refresh && self[edge: side].reachedEnd { return .reachedEnd }
        return .idle
    }

    // MARK: Requests

    /// A refresh from the first page (`cursor == nil`) or from the page at `cursor`.
    @inlinable mutating func refreshRequested(from cursor: Cursor? = nil, into actions: inout [Action]) -> Decision {
        if isClosed { return .answered(.ignored(.closed)) }
        if let current = refreshLoad {
            if configuration.refreshDuringRefresh == .join && current.origin == cursor && !current.isRecheck {
                return .joined(current.id)
            }
            actions.append(.cancelLoad(current.id))
            actions.append(.resolveCallers(current.id, .cancelled(.supersededByNewerRequest)))
            refreshLoad = nil
            failures = []
            if !mergesAtHead(from: cursor), let load = endLoad { // ran beside a head-merging refresh
                end(load, .cancelled(.preemptedByRefresh), into: &actions)
            }
            return .started(begin(.refresh, cursor: cursor, attempt: 1, announce: false, into: &actions))
        }
        if !mergesAtHead(from: cursor), let current = endLoad {
            end(current, .cancelled(.preemptedByRefresh), into: &actions)
        }
        if let current = startLoad { end(current, .cancelled(.preemptedByRefresh), into: &actions) }
        failures = []
        return .started(begin(.refresh, cursor: cursor, attempt: 1, announce: true, into: &actions))
    }

    /// The data changed (`coalesces`: an invalidation) or the user jumped far past the loaded
    /// pages (a jump): the list reloads from `cursor`, the page around the anchor.
    ///
    /// - A refresh in flight: an invalidation joins it and, while it is fetching, marks its fetch
    ///   stale (its answer is dropped and it fetches again from its origin, once however many
    ///   invalidations came); a jump joins a reload from `cursor` and replaces any other refresh.
    /// - Otherwise loads at both ends are cancelled (``CancellationReason/preemptedByRefresh``:
    ///   their pages belong to the old list) and a reload starts: a refresh that never merges at
    ///   the head, and that a load at an end does not cancel (that load is ignored,
    ///   ``IgnoreReason/refreshInFlight``).
    @inlinable mutating func reloadRequested(from cursor: Cursor?, coalesces: Bool, into actions: inout [Action]) -> Decision {
        if isClosed { return .answered(.ignored(.closed)) }
        var announce = true
        if var current = refreshLoad {
            if coalesces {
                if case .fetching = current.phase {
                    current.restartsWhenAnswered = true
                    refreshLoad = current
                }
                return .joined(current.id)
            }
            if current.isReload && current.origin == cursor && !current.restartsWhenAnswered { return .joined(current.id) }
            actions.append(.cancelLoad(current.id))
            actions.append(.resolveCallers(current.id, .cancelled(.supersededByNewerRequest)))
            refreshLoad = nil
            announce = false
        }
        if let current = endLoad { end(current, .cancelled(.preemptedByRefresh), into: &actions) }
        if let current = startLoad { end(current, .cancelled(.preemptedByRefresh), into: &actions) }
        failures = []
        return .started(begin(.refresh, cursor: cursor, attempt: 1, announce: announce, isReload: true, into: &actions))
    }

    /// `refresh()`: in ``RefreshMode/refetchLoaded``, with pages loaded, a refetch of every
    /// loaded page — from the cursor the first page was fetched with, then each from the `next`
    /// of the page fetched before it, as many pages as are loaded (fewer when a page names no
    /// `next`, or a `next` fetched already in this refetch); the list is replaced once, when the
    /// last page has come. Otherwise a refresh from `cursor` (``refreshRequested(from:into:)``).
    @inlinable mutating func refreshOrRefetchRequested(from cursor: Cursor?, into actions: inout [Action]) -> Decision {
        guard configuration.refreshMode == .refetchLoaded, keepsPages, hasLoadedFirstPage, !pages.isEmpty else {
            return refreshRequested(from: cursor, into: &actions)
        }
        let pageCount = pages.count
        let decision = refreshRequested(from: pages[0].fetchedWith, into: &actions)
        if case .started = decision { refetchPageCount = pageCount }
        return decision
    }

    /// The controller applied the pages of refetch `id` (``Action/applyRefetchedPages(_:)``):
    /// `applied[i]` items of page `i` went into the list, `dropped` duplicates in all were left
    /// out. Records the pages and the list's edges as loading them one by one would, and ends
    /// the load as its last page says (a repeated cursor or an empty page that claims more
    /// fails it, as for a refresh).
    /// - Returns: The pages to drop for the bound when the refetched list holds more.
    @discardableResult
    @inlinable mutating func refetchApplied(
        _ id: LoadID, applied: [Int], dropped: Int, into actions: inout [Action]
    ) -> Trim {
        guard let current = refreshLoad, current.id == id, current.isApplying, !refetched.isEmpty else { return Trim() }
        var afterApply = Load.AfterApply.complete(reachedEnd: false)
        var total = 0
        for (index, fetched) in refetched.enumerated() {
            let landing = Load(
                id: id, side: index == 0 ? .refresh : .loadMore, cursor: fetched.fetchedWith, attempt: current.attempt,
                isRecheck: false)
            end.halt = nil // a page before the last leaves no halt: the refetch went on past it
            let decided = recordLanding(
                of: landing, previous: fetched.page.previous, next: fetched.page.next, isEmpty: fetched.page.items.isEmpty)
            let count = index < applied.count ? applied[index] : 0
            if keepsPages { pages[pages.endIndex - 1].itemCount = count }
            total += count
            // The last page decides, as the edge page of the list; the first page's own failure
            // (its `previous` points back at a page fetched) stands before it.
            if index == refetched.count - 1 {
                if case .complete = afterApply { afterApply = decided }
            } else if index == 0, case .failRepeatedCursor(let cursor) = decided, cursor == fetched.page.previous {
                afterApply = decided
            }
        }
        refetched = []
        refetchPageCount = 0
        let trim = trimToBound(grownAt: .loadMore, into: &actions)
        finish(current, afterApply, applied: total, dropped: dropped, into: &actions)
        return trim
    }

    /// A load at the end (`.loadMore`) or the start (`.loadPrevious`) of the list.
    @inlinable mutating func edgeLoadRequested(_ side: FeedSide, into actions: inout [Action]) -> Decision {
        if isClosed { return .answered(.ignored(.closed)) }
        let edge = self[edge: side]
        if edge.reachedEnd { return .answered(.endOfData) }
        if let current = self[load: side] {
            if configuration.loadMoreDuringLoadMore == .join { return .joined(current.id) }
            actions.append(.cancelLoad(current.id))
            actions.append(.resolveCallers(current.id, .cancelled(.supersededByNewerRequest)))
            self[load: side] = nil
            // A recheck restarts as a recheck: the edge cursor would fetch an applied page again.
            let id = begin(
                side, cursor: current.isRecheck ? current.origin : edge.cursor, attempt: 1, announce: false,
                isRecheck: current.isRecheck, into: &actions)
            return .started(id)
        }
        // Only a load at the end runs beside a head-merging refresh: the merge keeps the list's
        // end and resets its start, where a load-previous would land on the old list.
        if let refresh = refreshLoad, !(refresh.mergesAtHead && side == .loadMore) {
            if !hasLoadedFirstPage { return .answered(.ignored(.firstPageLoading)) }
            if edge.halt != nil { return .answered(.ignored(.stoppedByGuard)) }
            // A reload (an invalidation, a jump) wins: the list it replaces is out of date.
            if refresh.isReload { return .answered(.ignored(.refreshInFlight)) }
            let refreshWins = side == .loadMore
                ? configuration.loadMoreDuringRefresh == .ignoreLoadMore
                : configuration.loadPreviousDuringRefresh == .ignoreLoadPrevious
            if refreshWins { return .answered(.ignored(.refreshInFlight)) }
            end(refresh, .cancelled(side == .loadMore ? .preemptedByLoadMore : .preemptedByLoadPrevious), into: &actions)
        } else {
            // Nothing to add to: after a failed first page, `retry()` runs the refresh again.
            if !hasLoadedFirstPage { return .answered(.ignored(.noFirstPage)) }
            if edge.halt != nil { return .answered(.ignored(.stoppedByGuard)) }
        }
        cancelOtherEndIfAsked(for: side, into: &actions)
        clearFailures(for: side)
        return .started(begin(side, cursor: edge.cursor, attempt: 1, announce: true, into: &actions))
    }

    /// `retry()` (no side) or `retry(side)`.
    ///
    /// With no side: a load waiting for its backoff runs at once; else the call joins a load in
    /// flight; else the newest failure's side runs again. With a side: the same, for that side.
    @inlinable mutating func retryRequested(_ requested: FeedSide? = nil, into actions: inout [Action]) -> Decision {
        if isClosed { return .answered(.ignored(.closed)) }
        let candidates: [FeedSide] = requested.map { [$0] } ?? [.refresh, .loadMore, .loadPrevious]
        if let side = candidates.first(where: { self[load: $0]?.isWaitingToRetry == true }), var current = self[load: side] {
            current.attempt += 1
            current.phase = .fetching
            self[load: side] = current
            actions.append(.cancelLoad(current.id))
            actions.append(.startFetch(
                current.id, side: side, cursor: current.cursor, attempt: current.attempt, step: current.step))
            return .joined(current.id)
        }
        if let side = candidates.first(where: { self[load: $0] != nil }), let current = self[load: side] {
            return .joined(current.id)
        }
        let failure = requested.map { self.failure(of: $0) } ?? failures.last
        guard let failure else { return .answered(.ignored(.nothingToRetry)) }
        if failure.side == .refresh {
            failures = []
            let pageCount = pages.count
            let id = begin(.refresh, cursor: refreshOrigin, attempt: failure.attempt + 1, announce: true, into: &actions)
            // A failed refetch left the list as it was: run it again, page by page.
            if configuration.refreshMode == .refetchLoaded && hasLoadedFirstPage { refetchPageCount = pageCount }
            return .started(id)
        }
        let side = failure.side
        var edge = self[edge: side]
        let recheck = edge.halt == .repeatedCursor
        edge.halt = nil
        self[edge: side] = edge
        cancelOtherEndIfAsked(for: side, into: &actions)
        clearFailures(for: side)
        let id = begin(
            side, cursor: recheck ? edge.edgePageCursor : edge.cursor, attempt: failure.attempt + 1, announce: true,
            isRecheck: recheck, into: &actions)
        return .started(id)
    }

    @inlinable mutating func closeRequested(into actions: inout [Action]) {
        if isClosed { return }
        // Refresh first, then the end, then the start (no array: close runs in deinit too).
        if let load = refreshLoad { end(load, .cancelled(.closed), into: &actions) }
        if let load = endLoad { end(load, .cancelled(.closed), into: &actions) }
        if let load = startLoad { end(load, .cancelled(.closed), into: &actions) }
        isClosed = true
        actions.append(.finishOutputs)
    }

    /// Closes as the controller goes away: ends the loads in flight as ``closeRequested(into:)``
    /// does, telling `emit` each end event. No caller can be waiting (a waiting caller keeps the
    /// controller alive), and it needs no action list, so releasing a controller allocates nothing.
    @inlinable mutating func closeOnRelease(_ emit: (FeedEvent) -> Void) {
        if isClosed { return }
        if refreshLoad != nil { emit(.ended(.refresh, .cancelled(.closed))) }
        if endLoad != nil { emit(.ended(.loadMore, .cancelled(.closed))) }
        if startLoad != nil { emit(.ended(.loadPrevious, .cancelled(.closed))) }
        refreshLoad = nil
        endLoad = nil
        startLoad = nil
        isClosed = true
    }

    // MARK: Results

    /// Try `attempt` (fetch `step`) of load `id` returned `page`. Returns `false` when the result
    /// is stale: it adds no action for a load that ended or moved on, and for a refresh that an
    /// invalidation marked (``Load/restartsWhenAnswered``) it drops the page and fetches again.
    @discardableResult
    @inlinable mutating func fetchSucceeded(
        _ id: LoadID, attempt: Int, step: Int = 0, page: Page<Item, Cursor>, into actions: inout [Action]
    ) -> Bool {
        guard let side = side(of: id), var current = self[load: side], current.isFetching(id, attempt: attempt, step: step)
        else { return false }
        actions.append(.cancelLoad(id))
        if current.restartsWhenAnswered {
            restartFetch(current, into: &actions)
            return false
        }
        // The cursor onward: toward older pages for the start, toward newer ones otherwise.
        let onward = side == .loadPrevious ? page.previous : page.next
        if current.isRecheck {
            recheckAnswered(current, onward: onward, into: &actions)
            return true
        }
        let isRefresh = side == .refresh
        if page.items.isEmpty, let onward, Int(current.emptyPagesFollowed) < configuration.maximumEmptyPagesFollowed,
           isRefresh || !followedCursors.contains(onward) {
            // An empty page that claims more: follow it within this load, applying nothing.
            if !isRefresh, let cursor = current.cursor {
                if !configuration.allowsCursorReuse { followedCursors.insert(cursor) }
                if keepsPages {
                    if side == .loadPrevious { startFollowedEmpty.append(cursor) } else { endFollowedEmpty.append(cursor) }
                }
            }
            current.cursor = onward
            current.step += 1
            current.emptyPagesFollowed += 1
            self[load: side] = current
            actions.append(.startFetch(id, side: side, cursor: onward, attempt: current.attempt, step: current.step))
            return true
        }
        if isRefresh && refetchPageCount > 0 {
            // A refetch (``RefreshMode/refetchLoaded``): gather the page; fetch the next from its
            // `next` while pages are left to refetch and it names one not fetched yet.
            refetched.append(_RefetchedPage(fetchedWith: current.cursor, page: page))
            if refetched.count < refetchPageCount, let next = page.next, !refetched.contains(where: { $0.fetchedWith == next }) {
                current.cursor = next
                current.step += 1
                current.emptyPagesFollowed = 0
                self[load: side] = current
                actions.append(.startFetch(id, side: side, cursor: next, attempt: current.attempt, step: current.step))
                return true
            }
            current.phase = .applying(.complete(reachedEnd: false)) // decided in `refetchApplied`
            self[load: side] = current
            actions.append(.applyRefetchedPages(id))
            return true
        }
        if current.mergesAtHead {
            // The controller finds out whether the page overlaps the list, and says.
            current.phase = .applying(.mergeAtHead(previous: page.previous, next: page.next, isEmpty: page.items.isEmpty))
            self[load: side] = current
            landedPage = page
            actions.append(.mergePageAtHead(id))
            return true
        }
        current.phase = .applying(recordLanding(of: current, previous: page.previous, next: page.next, isEmpty: page.items.isEmpty))
        self[load: side] = current
        landedPage = page
        actions.append(.applyPage(id, side))
        return true
    }

    /// Hands over the page that the last ``Action/applyPage(_:_:)`` or
    /// ``Action/mergePageAtHead(_:)`` names (each action is carried out before the machine
    /// takes another answer, so there is at most one).
    @inlinable mutating func takeLandedPage() -> Page<Item, Cursor>? {
        landedPage.take()
    }

    /// Records a page that lands (its cursors; for a refresh, the new list's edges) and decides
    /// how its load ends once the page is applied.
    @inlinable mutating func recordLanding(of current: Load, previous: Cursor?, next: Cursor?, isEmpty: Bool) -> Load.AfterApply {
        let side = current.side
        let isRefresh = side == .refresh
        let onward = side == .loadPrevious ? previous : next
        if isRefresh {
            followedCursors.removeAll()
            emptyPagesBefore = [:]
            pages.removeAll()
            hasLoadedFirstPage = true
            failures = []
            start = Edge()
            end = Edge()
            start.edgePageCursor = current.cursor
            start.cursor = previous
            start.reachedEnd = previous == nil
        }
        // With cursor reuse allowed the guard holds nothing, so no cursor is ever "repeated".
        if let cursor = current.cursor, !configuration.allowsCursorReuse { followedCursors.insert(cursor) }
        if keepsPages {
            // Counted when applied (``pageApplied``).
            let record = _PageRecord(itemCount: 0, previous: previous, next: next, fetchedWith: current.cursor)
            if side == .loadPrevious { pages.prepend(record) } else { pages.append(record) }
        }
        if keepsPages && !isRefresh {
            let followed = side == .loadPrevious ? startFollowedEmpty : endFollowedEmpty
            if !followed.isEmpty, let cursor = current.cursor {
                emptyPagesBefore[cursor] = followed
                if side == .loadPrevious { startFollowedEmpty = [] } else { endFollowedEmpty = [] }
            }
        }
        let edgeSide: FeedSide = side == .loadPrevious ? .loadPrevious : .loadMore
        var edge = self[edge: edgeSide]
        edge.edgePageCursor = current.cursor
        edge.cursor = onward
        edge.reachedEnd = onward == nil
        var afterApply = Load.AfterApply.complete(reachedEnd: onward == nil)
        if let onward, followedCursors.contains(onward) {
            // Following it would fetch a page already fetched: this end stops with a typed error.
            edge.halt = .repeatedCursor
            afterApply = .failRepeatedCursor(onward)
        } else if isEmpty && onward != nil {
            edge.halt = .emptyPages
            afterApply = .failEmptyPage
        }
        self[edge: edgeSide] = edge
        if isRefresh, case .complete = afterApply, let previous, followedCursors.contains(previous) {
            start.halt = .repeatedCursor // a first page whose `previous` points back at itself
            afterApply = .failRepeatedCursor(previous)
        }
        return afterApply
    }

    /// The controller merged the first page of a head-merging refresh `id` into the list
    /// (`merged`: the page shared an id with the list; `applied` new items went on top) or,
    /// sharing none, replaced the list with it (`applied`: the new count). Ends the load; a
    /// replacement also cancels a load at the end, whose page belonged to the old list.
    /// - Returns: The pages to drop at the end for the bound, after a merge.
    @discardableResult
    @inlinable mutating func headMergeApplied(
        _ id: LoadID, merged: Bool, applied: Int, dropped: Int, keeping protected: Range<Int>? = nil,
        into actions: inout [Action]
    ) -> Trim {
        guard let current = refreshLoad, current.id == id,
              case .applying(.mergeAtHead(let previous, let next, let isEmpty)) = current.phase
        else { return Trim() }
        if merged {
            // The list's head grew; the rest of the list, its end and its cursors stay.
            failures.removeAll { $0.side == .refresh }
            start = Edge()
            start.cursor = previous
            start.reachedEnd = previous == nil
            if keepsPages {
                // The merged items join the first page, as items inserted at the top by an edit
                // do: the head of the data stays one page fetched from the top, whose `next`
                // still leads to the second page. (A page of their own, with no `previous`, kept
                // the bound from ever dropping the first pages, and broke export when the merged
                // page named no `next`.)
                if pages.isEmpty {
                    pages.prepend(_PageRecord(itemCount: applied, previous: previous, next: next, fetchedWith: nil))
                } else {
                    pages[0].itemCount += applied
                    pages[0].previous = previous
                }
            }
            let trim = trimToBound(grownAt: .loadPrevious, keeping: protected, into: &actions)
            let summary = LoadSummary(itemsApplied: applied, droppedDuplicates: dropped, reachedEnd: end.reachedEnd)
            end(current, .completed, summary: summary, into: &actions)
            return trim
        }
        if let load = endLoad { end(load, .cancelled(.preemptedByRefresh), into: &actions) }
        let afterApply = recordLanding(of: current, previous: previous, next: next, isEmpty: isEmpty)
        if keepsPages { pages[pages.endIndex - 1].itemCount = applied }
        finish(current, afterApply, applied: applied, dropped: dropped, into: &actions)
        return Trim()
    }

    /// The controller applied the page of load `id`: `applied` items went into the list (for a
    /// refresh, the new list's count) and `dropped` duplicates were left out. Ends the load as
    /// decided when its page arrived.
    /// - Returns: The pages to drop at the other end for the bound
    ///   (``FeedConfiguration/maximumItems``); the controller drops their items.
    @discardableResult
    @inlinable mutating func pageApplied(
        _ id: LoadID, applied: Int, dropped: Int, keeping protected: Range<Int>? = nil, into actions: inout [Action]
    ) -> Trim {
        guard let side = side(of: id), let current = self[load: side], case .applying(let afterApply) = current.phase
        else { return Trim() }
        var trim = Trim()
        if keepsPages {
            // Its record went in when it landed (``recordLanding``); now it has a count.
            if side == .loadPrevious {
                pages[0].itemCount = applied
            } else {
                pages[pages.endIndex - 1].itemCount = applied
            }
            if side != .refresh { trim = trimToBound(grownAt: side, keeping: protected, into: &actions) }
        }
        finish(current, afterApply, applied: applied, dropped: dropped, into: &actions)
        return trim
    }

    /// Items were put before the first item by an edit (`insertAtTop(_:)`):
    /// they belong to the first page from now on.
    @inlinable mutating func itemsInsertedAtTop(_ count: Int) {
        guard !pages.isEmpty else { return }
        pages[0].itemCount += count
    }

    /// What the bound drops after a page lands: `pages` whole pages holding `items` items, at
    /// the start (`atStart`) or the end; with rows on screen reported, also `otherPages` pages
    /// holding `otherItems` items at the other end. `keptOverBound`: the list is over the bound
    /// but the page that would become the edge names no cursor back toward the pages to drop,
    /// so they are kept.
    @usableFromInline struct Trim: Equatable, Sendable {
        @usableFromInline var atStart = false
        @usableFromInline var pages = 0
        @usableFromInline var items = 0
        @usableFromInline var otherPages = 0
        @usableFromInline var otherItems = 0
        @usableFromInline var keptOverBound = false

        @inlinable init() {}
    }

    /// Drops whole pages while the list holds more than ``FeedConfiguration/maximumItems``
    /// items and more than one page.
    ///
    /// Without `protected` (no rows on screen reported), pages go at the end far from `side`
    /// (which just grew) only. With `protected` — the store indices of the rows on screen and
    /// the prefetch distance around them (``FeedController/reportVisibleRows(_:prefetchDistance:)``)
    /// — no page holding one of those indices is dropped, and pages go first at the end farther
    /// from them, then at the other end: a page that a prefetch near the rows loaded is never
    /// dropped by the next load at the other end, so two ends loading at the bound always make
    /// progress (the list stays over the bound while the pages near the rows hold more).
    ///
    /// A page is dropped only if the page that then becomes the edge names the cursor back to
    /// it (`previous` at the start, `next` at the end), so that the dropped pages can be loaded
    /// again: that end becomes loadable from that cursor. The fetched cursors of dropped pages
    /// leave the repeated-cursor guard (a cursor fetched twice — an empty page followed, then
    /// fetched again with items — leaves with the first of its pages to go: the guard then
    /// misses that one cursor, never reports a false loop), a load in flight at that end is
    /// cancelled (``CancellationReason/pagesDropped``: its page would follow a dropped one), and
    /// that end's failure and halt are cleared.
    @inlinable mutating func trimToBound(
        grownAt side: FeedSide, keeping protected: Range<Int>? = nil, into actions: inout [Action]
    ) -> Trim {
        var trim = Trim()
        guard let maximum = configuration.maximumItems, pages.itemCount > maximum else { return trim }
        guard let protected else {
            trim.atStart = side != .loadPrevious
            (trim.pages, trim.items) = dropPages(
                atStart: trim.atStart, maximum: maximum, protected: nil, keptOverBound: &trim.keptOverBound, into: &actions)
            return trim
        }
        // The end farther from the rows first; on a tie, the end far from the side that grew.
        let toStart = protected.lowerBound
        let toEnd = pages.itemCount - protected.upperBound
        trim.atStart = toStart == toEnd ? side != .loadPrevious : toStart > toEnd
        (trim.pages, trim.items) = dropPages(
            atStart: trim.atStart, maximum: maximum, protected: protected, keptOverBound: &trim.keptOverBound,
            into: &actions)
        if pages.itemCount > maximum {
            // Store indices moved down by the items dropped at the start.
            let shift = trim.atStart ? trim.items : 0
            let shifted = (protected.lowerBound &- shift)..<(protected.upperBound &- shift)
            (trim.otherPages, trim.otherItems) = dropPages(
                atStart: !trim.atStart, maximum: maximum, protected: shifted, keptOverBound: &trim.keptOverBound,
                into: &actions)
        }
        return trim
    }

    /// Drops whole pages at one end for the bound (see ``trimToBound(grownAt:keeping:into:)``),
    /// none that holds a store index of `protected`; sets that end's edge from the new edge
    /// page. Sets `keptOverBound` when the new edge would name no cursor back.
    /// - Returns: The pages and items dropped.
    @inlinable mutating func dropPages(
        atStart: Bool, maximum: Int, protected: Range<Int>?, keptOverBound: inout Bool, into actions: inout [Action]
    ) -> (pages: Int, items: Int) {
        var dropped = (pages: 0, items: 0)
        while pages.itemCount > maximum && pages.count > 1 {
            let edgeRecord = atStart ? pages[0] : pages[pages.endIndex - 1]
            if let protected {
                // The edge page's store indices (those at the start moved down as pages went).
                let range = atStart
                    ? dropped.items..<(dropped.items + edgeRecord.itemCount)
                    : (pages.itemCount - edgeRecord.itemCount)..<pages.itemCount
                if range.overlaps(protected) { break }
            }
            let newEdge = atStart ? pages[1] : pages[pages.endIndex - 2]
            guard (atStart ? newEdge.previous : newEdge.next) != nil else {
                keptOverBound = true
                break
            }
            let record = atStart ? pages.removeFirst() : pages.removeLast()
            if let cursor = record.fetchedWith {
                followedCursors.remove(cursor)
                if !emptyPagesBefore.isEmpty, let followed = emptyPagesBefore.removeValue(forKey: cursor) {
                    for cursor in followed { followedCursors.remove(cursor) }
                }
            }
            dropped.pages += 1
            dropped.items += record.itemCount
        }
        guard dropped.pages > 0 else { return dropped }
        let edgeSide: FeedSide = atStart ? .loadPrevious : .loadMore
        let edgeRecord = atStart ? pages[0] : pages[pages.endIndex - 1]
        var edge = Edge()
        edge.cursor = atStart ? edgeRecord.previous : edgeRecord.next
        edge.edgePageCursor = edgeRecord.fetchedWith
        self[edge: edgeSide] = edge
        if !failures.isEmpty { failures.removeAll { $0.side == edgeSide } }
        // A load in flight at that end is cancelled; the load whose page just landed there (and
        // went again, far from the rows on screen) ends as its page decided.
        if let load = self[load: edgeSide], !load.isApplying { end(load, .cancelled(.pagesDropped), into: &actions) }
        return dropped
    }

    /// Ends `current`, whose page was applied, as `afterApply` decided.
    @inlinable mutating func finish(
        _ current: Load, _ afterApply: Load.AfterApply, applied: Int, dropped: Int, into actions: inout [Action]
    ) {
        let side = current.side
        switch afterApply {
        case .mergeAtHead:
            return // ended by `headMergeApplied`
        case .complete(let reachedEnd):
            if side != .refresh { clearFailures(for: side) }
            let summary = LoadSummary(itemsApplied: applied, droppedDuplicates: dropped, reachedEnd: reachedEnd)
            end(current, reachedEnd ? .endOfData : .completed, summary: summary, into: &actions)
        case .failRepeatedCursor(let cursor):
            fail(current, FeedError.repeatedCursor("\(cursor)"), into: &actions)
        case .failEmptyPage:
            fail(current, FeedError.emptyPageClaimsMore, into: &actions)
        }
    }

    /// The recheck after a repeated cursor answered: nothing is applied; a fresh cursor onward
    /// is followed from now on, a repeated one stops that end again.
    @inlinable mutating func recheckAnswered(_ current: Load, onward: Cursor?, into actions: inout [Action]) {
        var edge = self[edge: current.side]
        if let onward, followedCursors.contains(onward) {
            edge.halt = .repeatedCursor
            self[edge: current.side] = edge
            fail(current, FeedError.repeatedCursor("\(onward)"), into: &actions)
            return
        }
        edge.cursor = onward
        edge.reachedEnd = onward == nil
        self[edge: current.side] = edge
        if !pages.isEmpty {
            // The edge page's record leads on from the fresh cursor too.
            if current.side == .loadPrevious { pages[0].previous = onward } else { pages[pages.endIndex - 1].next = onward }
        }
        clearFailures(for: current.side)
        end(current, edge.reachedEnd ? .endOfData : .completed, summary: LoadSummary(itemsApplied: 0, reachedEnd: edge.reachedEnd), into: &actions)
    }

    /// Try `attempt` (fetch `step`) of load `id` threw `error`. Returns no action when the result
    /// is stale. The load retries after a backoff while attempts are left and the policy's
    /// ``RetryCondition`` accepts the error; otherwise it fails.
    @discardableResult
    @inlinable mutating func fetchFailed(
        _ id: LoadID, attempt: Int, step: Int = 0, error: any Error, into actions: inout [Action]
    ) -> Bool {
        guard let side = side(of: id), var current = self[load: side], current.isFetching(id, attempt: attempt, step: step)
        else { return false }
        actions.append(.cancelLoad(id))
        if current.restartsWhenAnswered {
            // Failed or not, the fetch predates an invalidation: fetch again, no try spent.
            restartFetch(current, into: &actions)
            return false
        }
        let retry = configuration.retry
        if current.retryNumber < retry.maximumAttempts && retry.condition.shouldRetry(error) {
            current.phase = .waitingToRetry
            self[load: side] = current
            let failure = FeedFailure(error: error, side: side, attempt: current.attempt)
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
        guard let side = side(of: id), var current = self[load: side], current.attempt == attempt,
              current.isWaitingToRetry
        else { return false }
        current.attempt += 1
        current.phase = .fetching
        self[load: side] = current
        actions.append(.startFetch(id, side: side, cursor: current.cursor, attempt: current.attempt, step: current.step))
        return true
    }

    /// The clock threw from `sleep` without the timer being cancelled, so the timeout or the
    /// backoff of try `attempt` of load `id` can never elapse: the load fails at once with
    /// ``FeedError/clockFailed(_:)`` rather than wait for ever.
    @discardableResult
    @inlinable mutating func clockFailed(_ id: LoadID, attempt: Int, error: any Error, into actions: inout [Action]) -> Bool {
        guard let side = side(of: id), let current = self[load: side], current.attempt == attempt,
              !current.isApplying
        else { return false }
        actions.append(.cancelLoad(id))
        fail(current, FeedError.clockFailed("\(error)"), into: &actions)
        return true
    }

    // MARK: Helpers

    /// Fetches again from its origin a refresh whose fetch an invalidation made stale
    /// (``Load/restartsWhenAnswered``): the answer in hand is dropped, as are the pages a
    /// refetch gathered; the same load goes on (its callers wait on), with no try spent.
    @inlinable mutating func restartFetch(_ load: Load, into actions: inout [Action]) {
        var current = load
        current.restartsWhenAnswered = false
        current.cursor = current.origin
        current.step += 1
        current.emptyPagesFollowed = 0
        current.phase = .fetching
        self[load: current.side] = current
        if !refetched.isEmpty { refetched = [] }
        actions.append(.startFetch(current.id, side: current.side, cursor: current.origin, attempt: current.attempt, step: current.step))
    }

    /// Under ``BothEndsPolicy/cancelOther``, ends the load at the other end before a new load
    /// at `side` starts (a request or a retry alike).
    @inlinable mutating func cancelOtherEndIfAsked(for side: FeedSide, into actions: inout [Action]) {
        let other: FeedSide = side == .loadMore ? .loadPrevious : .loadMore
        guard configuration.bothEnds == .cancelOther, let current = self[load: other] else { return }
        end(current, .cancelled(side == .loadMore ? .preemptedByLoadMore : .preemptedByLoadPrevious), into: &actions)
    }

    /// Whether a refresh from `cursor` would merge at the head: ``RefreshMode/mergeAtHead``,
    /// items with ids, a refresh from the top, and a list that starts at the start of the data.
    @inlinable func mergesAtHead(from cursor: Cursor?) -> Bool {
        configuration.refreshMode == .mergeAtHead && identifiesItems && cursor == nil && hasLoadedFirstPage
            && start.reachedEnd
    }

    @inlinable mutating func clearFailures(for side: FeedSide) {
        guard !failures.isEmpty else { return }
        failures.removeAll { $0.side == side || $0.side == .refresh }
    }

    @inlinable mutating func begin(
        _ side: FeedSide, cursor: Cursor?, attempt: Int, announce: Bool, isRecheck: Bool = false, isReload: Bool = false,
        into actions: inout [Action]
    ) -> LoadID {
        lastLoadID += 1
        let id = LoadID(rawValue: lastLoadID)
        var load = Load(id: id, side: side, cursor: cursor, attempt: attempt, isRecheck: isRecheck)
        if side == .refresh {
            refreshOrigin = cursor
            load.isReload = isReload
            load.mergesAtHead = !isReload && mergesAtHead(from: cursor)
            if !refetched.isEmpty { refetched = [] }
            refetchPageCount = 0
        }
        self[load: side] = load
        if side == .loadPrevious, !startFollowedEmpty.isEmpty { startFollowedEmpty = [] }
        if side == .loadMore, !endFollowedEmpty.isEmpty { endFollowedEmpty = [] }
        if announce { actions.append(.emit(.began(side))) }
        actions.append(.startFetch(id, side: side, cursor: cursor, attempt: attempt, step: 0))
        return id
    }

    /// Ends `load` for `reason`: cancels its work, tells its callers, emits the end event.
    @inlinable mutating func end(
        _ load: Load, _ reason: FeedEndReason, summary: LoadSummary? = nil, into actions: inout [Action]
    ) {
        self[load: load.side] = nil
        let outcome: LoadOutcome
        switch reason {
        case .completed, .endOfData:
            outcome = .completed(summary ?? LoadSummary(itemsApplied: 0, reachedEnd: reason == .endOfData))
        case .cancelled(let cause):
            actions.append(.cancelLoad(load.id))
            outcome = .cancelled(cause)
        case .failed(let failure):
            outcome = .failed(failure)
        }
        actions.append(.emit(.ended(load.side, reason)))
        actions.append(.resolveCallers(load.id, outcome))
    }

    @inlinable mutating func fail(_ load: Load, _ error: any Error, into actions: inout [Action]) {
        let failure = FeedFailure(error: error, side: load.side, attempt: load.attempt)
        failures.removeAll { $0.side == load.side }
        failures.append(failure)
        end(load, .failed(failure), into: &actions)
    }
}

extension FeedStateMachine.Action: Equatable where Item: Equatable {}
