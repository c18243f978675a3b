import AsyncPaging

/// The reference model of a ``FeedController`` on a test clock, for a feed that grows at both
/// ends: what the list (with each version's change), the status, the state of each side, the
/// cursors, the events, the diagnostics, the source's requests, the callers' outcomes and the
/// clock's sleepers must be after each operation.
///
/// It is written from the documented rules — the README's behaviour table, the rule list of
/// the two-ended engine (refresh cancels both ends; a load at an end during a refresh follows
/// `loadMoreDuringRefresh` / `loadPreviousDuringRefresh`; the ends run at once or cancel each
/// other by `bothEnds`; `loadMoreDuringLoadMore` rules repeated requests at either end; guards
/// and failures per end; `retry(side)`), and the doc comments of ``FeedController``'s
/// operations, ``FeedLoadState``, ``FeedStatus``, ``FeedChange`` and ``FeedCursors`` — as plain
/// synchronous code, not from the engine's state machine. Where the documents leave an order
/// open (two loads ended by one request), it takes the order `close()`'s and `retry()`'s docs
/// name: refresh, then the end, then the start.
///
/// Edits (`update`, `remove(ids:)`, `insertAtTop`) and export are modelled too, and a run can
/// go on on a controller restored from the export (``init(configuration:plan:initialCursor:restoring:generation:refreshes:)``).
///
/// What it once missed, and why: two bugs of features used together (issue 22) — after a
/// head-merging refresh the bound stopped dropping pages at the start, and a bounded feed's
/// export after such a merge gave `nil`. The runs reached "merge, then loads over the bound"
/// often (the old generators fail on the old engine once the model is right: 23 of their seeds
/// in the default 3,000 × 14 and 200 × 40), so steps and generators were not the cause. The
/// model had copied the engine's page records instead of stating the rule: it too put the
/// merged items in a record of their own, before the first page and naming no `previous`, so
/// it predicted the same `pagesKeptOverBound` and agreed with the engine. And it had no
/// export at all. Now the merged items join the first page (as ``FeedController/insertAtTop(_:)``'s
/// do), and every run may export, check the state page by page and restore from it.
///
/// It models the source and the clock too: a fetch that answers at once is delivered at once,
/// a slow one sleeps until the clock reaches its deadline, a cancelled one that honours
/// cancellation leaves the clock and comes back as a stale failure, one that ignores it keeps
/// sleeping and comes back as a stale result. When the loads at both ends fall due at the same
/// instant, their order is the scheduler's: ``advance(to:)`` returns one model per order.
struct ReferenceModel {
    /// The two ends of the list, by the side that grows them.
    static let ends: [FeedSide] = [.loadMore, .loadPrevious]

    /// A load in flight: the fetch of one side, across its automatic retries and the empty
    /// pages it follows.
    struct Load {
        enum Stage: Equatable { case fetching, backingOff }

        let number: Int
        let side: FeedSide
        /// The cursor it started from: where a restart starts again.
        let startCursor: Int?
        /// The cursor fetched now (moves on along followed empty pages).
        var cursor: Int?
        var attempt: Int
        let firstAttempt: Int
        var stage = Stage.fetching
        /// Empty pages that claim more followed so far by this fetch of the load.
        var emptyPagesFollowed = 0
        /// Tells this load's fetches apart: each followed empty page and each restart.
        var step = 0
        /// A reload (invalidate()): loads at the ends are ignored while it runs; it never merges.
        var isReload = false
        /// An invalidation came while it was fetching: its answer is dropped and it fetches
        /// again from where it started.
        var restartsWhenAnswered = false
        /// A retry after a repeated cursor: fetches the edge page again for a fresh cursor onward
        /// and applies none of its items (README, "page returns a cursor this feed already followed").
        let refetchesEdgePage: Bool
        /// A refresh under `refreshMode: .mergeAtHead` that may keep the list (decided when it
        /// starts: from the top, items with ids, a list that starts at the start of the data).
        var mergesAtHead = false
        /// The cursors of the empty pages this load (at an end) followed: the bound forgets them
        /// with its page.
        var followedEmpty: [Int] = []

        /// 1 for the first automatic retry, 2 for the second, …
        var automaticRetry: Int { attempt - firstAttempt + 1 }
    }

    /// One end of the list.
    struct End: Equatable {
        /// The cursor of the page beyond this end (the edge page's `next` or `previous`).
        var cursor: Int?
        /// The edge page said there is nothing beyond (its cursor onward was `nil`).
        var atEndOfData = false
        /// Stopped by a guard until `retry()` or a refresh: why.
        var stoppedBy: FeedError?
        /// The cursor the edge page was fetched with, which a retry after a repeated cursor asks again.
        var edgePageCursor: Int?
    }

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
        case fetch(load: Int, side: FeedSide, attempt: Int, step: Int, response: ResponsePlan.Response, cancelled: Bool)
        case timeout(load: Int, attempt: Int, step: Int)
        case backoff(load: Int, attempt: Int)

        var load: Int {
            switch self {
            case .fetch(let load, _, _, _, _, _), .timeout(let load, _, _), .backoff(let load, _): load
            }
        }
    }

    /// A task sleeping on the test clock.
    struct Sleeper {
        var id = 0
        let deadline: Duration
        var kind: SleeperKind

        var isHang: Bool {
            if case .fetch(_, _, _, _, let response, _) = kind { response.result == .hang } else { false }
        }
    }

    /// One published version of the list.
    struct Version {
        let ids: [Int]
        let change: FeedChange
        let generation: UInt64
        /// Items the bound dropped at the start and at the end so far (all generations): a
        /// `change(since:)` between two versions may say items were removed at an end only if
        /// some were dropped there in between.
        var droppedAtStart = 0
        var droppedAtEnd = 0
        /// Edits (update, remove) made in this generation so far: `change(since:)` across one
        /// is `.replaced` (an insert at the top is a prepend, not counted).
        var edits = 0
    }

    /// One page of the list, as the bound sees it (FeedConfiguration.maximumItems): its items
    /// in the list (0 when all were duplicates: still a page), the cursors it names, the cursor
    /// that fetched it.
    struct PageRecord: CustomStringConvertible {
        /// Its items, those removed by an edit included: they count toward the bound until the
        /// page goes (FeedConfiguration.maximumItems).
        var count: Int
        var previous: Int?
        var next: Int?
        let fetchedWith: Int?
        /// Its items removed by ``FeedController/remove(ids:)``: in ``count``, not in the list.
        var removed = 0

        /// Its items in the list.
        var shown: Int { count - removed }

        var description: String {
            "[\(count) items\(removed > 0 ? " (\(removed) removed)" : ""), by \(fetchedWith.map(String.init) ?? "nil"), previous \(previous.map(String.init) ?? "nil"), next \(next.map(String.init) ?? "nil")]"
        }
    }

    let configuration: FeedConfiguration
    let plan: ResponsePlan
    private(set) var now: Duration = .zero
    private(set) var isClosed = false
    private(set) var list: [Int] = []
    /// Every published version, by version number.
    private(set) var versions: [Version] = [Version(ids: [], change: .initial, generation: 0)]
    private(set) var hasFirstPage = false
    /// The list's pages, first to last.
    private(set) var pages: [PageRecord] = []
    /// For coverage only: refreshes that merged at the head; ids dropped by the bound, and how
    /// many came back.
    private(set) var mergedHeads = 0
    private(set) var mergesThatDropped = 0
    private(set) var mergingRefreshes = 0
    private(set) var mergesThatReplaced = 0
    private var droppedIDs: Set<Int> = []
    /// For coverage only: drops at the start after a head merge (the path the bound once
    /// missed), and edits made.
    private(set) var dropsAtStartAfterMerge = 0
    private(set) var editsMade = 0
    private(set) var reloadedAfterDrop = 0
    private(set) var loads: [FeedSide: Load] = [:]
    private var ends: [FeedSide: End] = [.loadMore: End(), .loadPrevious: End()]
    /// The empty pages a load at an end followed, by the cursor of the page with items it
    /// landed (FeedConfiguration.maximumItems: they leave the guard with that page).
    private var emptyPagesBefore: [Int: [Int]] = [:]
    /// Cursors fetched since the last applied refresh, at either end.
    private var fetchedCursors: Set<Int> = []
    /// The failures standing, oldest first, one per side at most.
    private(set) var failures: [FeedFailure] = []
    /// Where `refresh()` starts: `nil`, or for a restored controller its first page's cursor.
    private var refreshStart: Int?
    /// The cursor the latest refresh started from, which `retry()` fetches again.
    private var refreshCursor: Int?
    private var lastLoadNumber = 0
    private(set) var callers: [Caller] = []
    private(set) var outcomes: [Int: LoadResult] = [:]
    /// The version of the list when each call was answered: the caller, resumed after the
    /// outputs were published, sees it or a later one.
    private(set) var outcomeVersions: [Int: UInt64] = [:]
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
    /// Broken invariants of the model itself (two fetches of one side at once, two sleepers of
    /// one load due together).
    private(set) var violations: [String] = []
    /// Stale failures of fetches cancelled during the current operation; they reach the
    /// controller after the operation, so they are reported only if it is still open then.
    private var cancelledArrivals: [FeedDiagnostic] = []

    init(configuration: FeedConfiguration, plan: ResponsePlan, initialCursor: Int?) {
        self.configuration = configuration
        self.plan = plan
        if configuration.loadsInitialPage {
            // The initial load is a refresh from `initialCursor` that nobody waits for.
            startLoad(.refresh, cursor: initialCursor, attempt: 1, announce: true, caller: nil)
        }
        flushCancelledArrivals()
    }

    /// A controller created with `restoring:` a state exported from another (``exportedPages``):
    /// the saved list shown at once as version 1 of `generation`, the pages recorded with the
    /// cursors a restore takes (page `k > 0` fetched with the `next` of page `k - 1`, the first
    /// with the `previous` of the second), those cursors in the repeated-cursor guard, both ends
    /// from the edge pages (an end whose cursor is one of them halted with a repeated-cursor
    /// failure); then, if the restore policy says so, a refresh from the restored first page
    /// (`RestoredRefreshStart.savedFirstPage`), as every later `refresh()`.
    init(
        configuration: FeedConfiguration, plan: ResponsePlan, initialCursor: Int?,
        restoring saved: [ExportedPage], generation: UInt64, refreshes: Bool
    ) {
        self.configuration = configuration
        self.plan = plan
        var seen: Set<Int> = []
        for (index, page) in saved.enumerated() {
            let kept = configuration.duplicates == .keep ? page.ids : page.ids.filter { seen.insert($0).inserted }
            list += kept
            let fetchedWith: Int? = index > 0 ? saved[index - 1].next : (saved.count > 1 ? saved[1].previous : nil)
            if let fetchedWith { fetchedCursors.insert(fetchedWith) }
            pages.append(PageRecord(count: kept.count, previous: page.previous, next: page.next, fetchedWith: fetchedWith))
        }
        versions.append(Version(ids: list, change: .replaced, generation: generation))
        hasFirstPage = true
        refreshCursor = pages.first?.fetchedWith
        if let first = pages.first, let last = pages.last {
            ends[.loadPrevious] = End(
                cursor: first.previous, atEndOfData: first.previous == nil, edgePageCursor: first.fetchedWith)
            ends[.loadMore] = End(cursor: last.next, atEndOfData: last.next == nil, edgePageCursor: last.fetchedWith)
        }
        for side in [FeedSide.loadPrevious, .loadMore] {
            guard let cursor = ends[side]!.cursor, fetchedCursors.contains(cursor) else { continue }
            ends[side]!.stoppedBy = .repeatedCursor("\(cursor)")
            failures.append(FeedFailure(error: FeedError.repeatedCursor("\(cursor)"), side: side, attempt: 1))
        }
        // RestoredRefreshStart.savedFirstPage: refresh() starts at the restored list's own first
        // page, fetched again with the cursor it was fetched with (none known for one page),
        // or from `nil` when that page is the first of the data (no `previous`).
        if let first = saved.first, first.previous != nil, saved.count > 1 { refreshStart = saved[1].previous }
        if refreshes {
            // A refresh clears every failure (the halts stay until its page lands).
            failures = []
            startLoad(.refresh, cursor: refreshStart, attempt: 1, announce: true, caller: nil)
        }
        flushCancelledArrivals()
    }

    /// One page of an exported state (``FeedState/pages``), by ids.
    struct ExportedPage: Equatable, CustomStringConvertible {
        let ids: [Int]
        let previous: Int?
        let next: Int?

        var description: String {
            "\(ids) previous \(previous.map(String.init) ?? "nil") next \(next.map(String.init) ?? "nil")"
        }
    }

    /// What ``FeedController/exportState(anchorIndex:savedBy:)`` must return: `nil` before the
    /// first page; else a bounded feed's pages one by one (the items shown: removed ones left
    /// out, items inserted or merged at the top in the first page; the cursors between pages
    /// those the pages were fetched with), an unbounded feed's list as
    /// one page with the cursors of its two ends. Never `nil` after the first page: a list that
    /// cannot be exported is a failure to report, not an empty answer.
    var exportedPages: [ExportedPage]? {
        guard hasFirstPage else { return nil }
        guard configuration.maximumItems != nil else {
            let start = ends[.loadPrevious]!, end = ends[.loadMore]!
            return [ExportedPage(
                ids: list, previous: start.atEndOfData ? nil : start.cursor, next: end.atEndOfData ? nil : end.cursor)]
        }
        // Written as the cursors the pages were fetched with: page k's `next` is the cursor page
        // k + 1 was fetched with, the second page's `previous` the first's (when known); the edge
        // cursors are the live ones.
        var exported: [ExportedPage] = []
        var offset = 0
        for (index, page) in pages.enumerated() {
            let previous = index == 1 ? pages[0].fetchedWith ?? page.previous : page.previous
            let next = index + 1 < pages.count ? pages[index + 1].fetchedWith ?? page.next : page.next
            exported.append(ExportedPage(ids: Array(list[offset..<(offset + page.shown)]), previous: previous, next: next))
            offset += page.shown
        }
        return exported
    }

    /// Why ``exportedPages`` are not a state that can be restored (FeedState's checks: no
    /// cursor fetches two pages, so a list in which a looping source had one cursor fetch two
    /// pages cannot be saved): `exportState()` then throws that typed error. `nil` when it can.
    var exportError: FeedStateError? {
        guard let pages = exportedPages else { return nil }
        do {
            _ = try FeedState<FeedRow, Int>(pages: pages.map { Page(items: rows($0.ids), previous: $0.previous, next: $0.next) })
            return nil
        } catch {
            return error
        }
    }

    /// The page records and the cursors in the repeated-cursor guard, for a replay's trace.
    var pagesDescription: String {
        "pages \(pages), fetched \(fetchedCursors.sorted()), start \(ends[.loadPrevious]!), end \(ends[.loadMore]!)"
    }

    /// The items the bound counts: every page's, removed ones included.
    var countedItems: Int { pages.reduce(0) { $0 + $1.count } }

    // MARK: What the outputs must say

    var version: UInt64 { UInt64(versions.count - 1) }

    /// FeedStatus: refreshing > loadingMore > loadingPrevious > newest failure > endOfData > idle.
    var status: FeedStatus {
        if isClosed { return .closed }
        if loads[.refresh] != nil { return .refreshing }
        if loads[.loadMore] != nil { return .loadingMore }
        if loads[.loadPrevious] != nil { return .loadingPrevious }
        if let newest = failures.last { return .failed(newest) }
        return ends[.loadMore]!.atEndOfData ? .endOfData : .idle
    }

    /// FeedLoadState per side: loading (in flight or backing off), else its standing failure,
    /// else reachedEnd (ends only: "a refresh never reaches an end"), else idle.
    var loadStates: FeedLoadStates {
        func state(_ side: FeedSide) -> FeedLoadState {
            if loads[side] != nil { return .loading }
            if let failure = failures.last(where: { $0.side == side }) { return .failed(failure) }
            if side != .refresh, ends[side]!.atEndOfData { return .reachedEnd }
            return .idle
        }
        return FeedLoadStates(refresh: state(.refresh), loadPrevious: state(.loadPrevious), loadMore: state(.loadMore))
    }

    /// FeedCursors: the cursors beyond both ends; `nil` before the first page.
    var cursors: FeedCursors<Int> {
        let start = ends[.loadPrevious]!, end = ends[.loadMore]!
        return FeedCursors(
            previous: start.cursor, next: end.cursor, reachedEnd: end.atEndOfData, reachedStart: start.atEndOfData)
    }

    /// The sides a new event subscriber is told are loading, in the order they began.
    var loadingSides: [FeedSide] {
        var loading: [FeedSide] = []
        for event in events {
            switch event {
            case .began(let side): loading.append(side)
            case .ended(let side, _): loading.removeAll { $0 == side }
            }
        }
        return loading
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
        case .refresh: requestRefresh(id, from: refreshStart)
        case .refreshFrom(let cursor): requestRefresh(id, from: cursor)
        case .loadMore: requestEndLoad(id, at: .loadMore)
        case .loadPrevious: requestEndLoad(id, at: .loadPrevious)
        case .retry(let side): requestRetry(id, side: side)
        case .invalidate: requestInvalidation(id)
        }
        flushCancelledArrivals()
    }

    /// close(): every load in flight ends cancelled by close; the outputs finish.
    mutating func close() {
        guard !isClosed else { return }
        for side in [FeedSide.refresh, .loadMore, .loadPrevious] {
            if let load = loads[side] { finish(load, .cancelled(.closed)) }
        }
        isClosed = true
        cancelledArrivals = []
    }

    /// Moves the clock to `deadline` and delivers whatever falls due: stale results first (they
    /// change nothing but the diagnostics, whose order is not checked), then the live ones. Live
    /// ones due together belong to different loads (the two ends, or a head-merging refresh
    /// and the end), which the engine may take in any order: one model is returned for each
    /// order. When taking one ends the load of another due with it (the bound dropped its end,
    /// or a head-merging refresh replaced the list), that fetch's task, woken by the clock,
    /// may see its cancellation before it answers or not: a stale result, or `fetchCancelled`
    /// for a source that honours cancellation; both are returned.
    func advanced(to deadline: Duration) -> [ReferenceModel] {
        var model = self
        let due = model.sleepers.filter { $0.deadline <= deadline }
        model.sleepers.removeAll { $0.deadline <= deadline }
        model.now = max(model.now, deadline)
        for sleeper in due where !model.isLive(sleeper) { model.fire(sleeper) }
        let live = due.filter { model.isLive($0) }
        if Set(live.map(\.kind.load)).count < live.count {
            model.violations.append("two sleepers of one load fell due together at \(deadline): their order would race")
        }
        var outcomes: [ReferenceModel] = []
        for order in Self.orders(of: live) {
            var partial = [model]
            for sleeper in order {
                var next: [ReferenceModel] = []
                for var candidate in partial {
                    if !candidate.isLive(sleeper), case .fetch(_, let side, let attempt, _, let response, _) = sleeper.kind,
                       !response.ignoresCancellation {
                        var cancelled = candidate
                        cancelled.diagnostics.append(.fetchCancelled(side: side, attempt: attempt))
                        next.append(cancelled)
                    }
                    candidate.fire(sleeper)
                    next.append(candidate)
                }
                partial = next
            }
            for var outcome in partial {
                outcome.flushCancelledArrivals()
                outcomes.append(outcome)
            }
        }
        return outcomes
    }

    /// Every order of `sleepers` (at most three fall due together: one per side).
    private static func orders(of sleepers: [Sleeper]) -> [[Sleeper]] {
        guard sleepers.count > 1 else { return [sleepers] }
        return sleepers.indices.flatMap { index in
            var rest = sleepers
            let first = rest.remove(at: index)
            return orders(of: rest).map { [first] + $0 }
        }
    }

    // MARK: Edits

    /// The checks every edit makes first (``FeedController/editablePositions()``).
    private mutating func editable() -> FeedEditError? {
        editsMade += 1
        if isClosed { return .closed }
        if configuration.duplicates == .keep { return .requiresUniqueIDs }
        return nil
    }

    /// update(_:): the item with `id` is replaced in place; `.updated([index])`.
    mutating func update(id: Int) -> Result<Int, FeedEditError> {
        if let error = editable() { return .failure(error) }
        guard let index = list.firstIndex(of: id) else { return .failure(.notFound("\(id)")) }
        publishEdit(.updated([index]))
        return .success(index)
    }

    /// remove(ids:): the listed ones leave the list (not their pages' counts); `.removed(indices)`
    /// with the indices of the list before, ascending; nothing published when none was listed.
    mutating func remove(ids: [Int]) -> Result<[Int], FeedEditError> {
        if let error = editable() { return .failure(error) }
        let indices = Set(ids.compactMap { list.firstIndex(of: $0) }).sorted()
        guard !indices.isEmpty else { return .success([]) }
        // The page holding each index-th item shown, found before any count changes.
        var holders: [Int] = []
        for index in indices {
            var offset = 0
            for page in pages.indices {
                if index < offset + pages[page].shown {
                    holders.append(page)
                    break
                }
                offset += pages[page].shown
            }
        }
        for page in holders { pages[page].removed += 1 }
        for index in indices.reversed() { list.remove(at: index) }
        publishEdit(.removed(indices))
        return .success(indices)
    }

    /// insertAtTop(_:): the items go before the first one and join the first page (the bound
    /// counts them; nothing is trimmed until a page lands); `.prepended(0..<count)`.
    mutating func insertAtTop(ids: [Int]) -> Result<Void, FeedEditError> {
        if let error = editable() { return .failure(error) }
        guard hasFirstPage else { return .failure(.noList) }
        var seen = Set(list)
        for id in ids where !seen.insert(id).inserted { return .failure(.duplicateID("\(id)")) }
        guard !ids.isEmpty else { return .success(()) }
        list = ids + list
        if !pages.isEmpty { pages[0].count += ids.count }
        publish(insertedAtStart: ids.count, insertedAtEnd: 0, removedAtStart: 0, removedAtEnd: 0)
        return .success(())
    }

    private mutating func publishEdit(_ change: FeedChange) {
        let last = versions.last!
        versions.append(Version(
            ids: list, change: change, generation: last.generation, droppedAtStart: last.droppedAtStart,
            droppedAtEnd: last.droppedAtEnd, edits: last.edits + 1))
    }

    // MARK: Requests

    /// refresh() / refresh(from:): cancels both ends, replaces or joins a refresh in flight.
    private mutating func requestRefresh(_ call: Int, from cursor: Int?) {
        if isClosed { return answer(call, side: .refresh, .ignored(.closed)) }
        if let current = loads[.refresh] {
            // A refresh in flight from another cursor is always replaced.
            if configuration.refreshDuringRefresh == .join && current.startCursor == cursor {
                return join(call, current)
            }
            // The header stays refreshing: the old caller is told it was superseded, no end event.
            cancelTasks(of: current)
            loads[.refresh] = nil
            resolve(current.number, .cancelled(.supersededByNewerRequest))
            failures = []
            // Loads at the ends may run beside a head-merging refresh; a refresh that will not
            // merge cancels them as any refresh does.
            cancelEnds(forRefreshFrom: cursor)
            return startLoad(.refresh, cursor: cursor, attempt: 1, announce: false, caller: call)
        }
        cancelEnds(forRefreshFrom: cursor)
        failures = []
        startLoad(.refresh, cursor: cursor, attempt: 1, announce: true, caller: call)
    }

    /// invalidate() with no rows reported: a refresh in flight is joined and, while it fetches,
    /// marked to fetch again when it answers; otherwise the loads at both ends are cancelled
    /// and the list's first page (the first page of the data before any) is reloaded.
    private mutating func requestInvalidation(_ call: Int) {
        if isClosed { return answer(call, side: .refresh, .ignored(.closed)) }
        if var current = loads[.refresh] {
            join(call, current)
            if current.stage == .fetching {
                current.restartsWhenAnswered = true
                loads[.refresh] = current
            }
            return
        }
        let cursor = hasFirstPage ? ends[.loadPrevious]!.edgePageCursor : refreshStart
        for side in Self.ends {
            if let load = loads[side] { finish(load, .cancelled(.preemptedByRefresh)) }
        }
        failures = []
        startLoad(.refresh, cursor: cursor, attempt: 1, announce: true, caller: call, isReload: true)
    }

    /// A load marked by an invalidation answered: its fetch starts again from where the load
    /// started, as a new fetch (no try spent).
    private mutating func restart(_ load: Load) {
        cancelTasks(of: load)
        var again = load
        again.restartsWhenAnswered = false
        again.cursor = load.startCursor
        again.step += 1
        again.emptyPagesFollowed = 0
        again.followedEmpty = []
        loads[load.side] = again
        fetch(again)
    }

    /// RefreshMode.mergeAtHead: a refresh from the top, with items that have ids, of a list
    /// that starts at the start of the data, may keep the list. (Items have ids here; a feed
    /// with `duplicates: .keep` keeps no ids, see h11-model-ENGINE-BUGS.md.)
    private func mergesAtHead(from cursor: Int?) -> Bool {
        configuration.refreshMode == .mergeAtHead && configuration.duplicates == .drop && cursor == nil
            && hasFirstPage && ends[.loadPrevious]!.atEndOfData
    }

    /// A refresh starting cancels the loads at both ends (the end, then the start), except that
    /// a head-merging refresh lets a load at the end run on.
    private mutating func cancelEnds(forRefreshFrom cursor: Int?) {
        let merges = mergesAtHead(from: cursor)
        for side in Self.ends where !(merges && side == .loadMore) {
            if let load = loads[side] { finish(load, .cancelled(.preemptedByRefresh)) }
        }
    }

    /// loadMore() / loadPrevious().
    private mutating func requestEndLoad(_ call: Int, at side: FeedSide) {
        if isClosed { return answer(call, side: side, .ignored(.closed)) }
        let end = ends[side]!
        if end.atEndOfData { return answer(call, side: side, .endOfData) }
        if let current = loads[side] {
            if configuration.loadMoreDuringLoadMore == .join { return join(call, current) }
            // Restart from the same cursor; the footer stays loading, no end event.
            cancelTasks(of: current)
            loads[side] = nil
            resolve(current.number, .cancelled(.supersededByNewerRequest))
            return startLoad(
                side, cursor: current.startCursor, attempt: 1, announce: false, caller: call,
                refetchesEdgePage: current.refetchesEdgePage)
        }
        let refreshing = loads[.refresh]
        if !hasFirstPage {
            return answer(call, side: side, .ignored(refreshing == nil ? .noFirstPage : .firstPageLoading))
        }
        if end.stoppedBy != nil { return answer(call, side: side, .ignored(.stoppedByGuard)) }
        let preemption: CancellationReason = side == .loadMore ? .preemptedByLoadMore : .preemptedByLoadPrevious
        // A head-merging refresh neither cancels a load at the end nor is cancelled by one (a
        // load at the start follows the refresh rules, as for any refresh).
        if let refreshing, !(refreshing.mergesAtHead && side == .loadMore) {
            // A reload wins over loads at the ends, whatever the policies say.
            if refreshing.isReload { return answer(call, side: side, .ignored(.refreshInFlight)) }
            let refreshWins = side == .loadMore
                ? configuration.loadMoreDuringRefresh == .ignoreLoadMore
                : configuration.loadPreviousDuringRefresh == .ignoreLoadPrevious
            if refreshWins { return answer(call, side: side, .ignored(.refreshInFlight)) }
            finish(refreshing, .cancelled(preemption))
        }
        cancelOtherEndIfAsked(startingAt: side)
        clearFailures(at: side)
        startLoad(side, cursor: end.cursor, attempt: 1, announce: true, caller: call)
    }

    /// retry() / retry(side).
    private mutating func requestRetry(_ call: Int, side requested: FeedSide?) {
        if isClosed { return answer(call, side: requested ?? failures.last?.side, .ignored(.closed)) }
        let sides: [FeedSide] = requested.map { [$0] } ?? [.refresh, .loadMore, .loadPrevious]
        // A load waiting for its backoff runs now; the caller joins it.
        if let side = sides.first(where: { loads[$0]?.stage == .backingOff }), var current = loads[side] {
            join(call, current)
            cancelTasks(of: current)
            current.attempt += 1
            current.stage = .fetching
            loads[side] = current
            return fetch(current)
        }
        if let side = sides.first(where: { loads[$0] != nil }) { return join(call, loads[side]!) }
        let failure = requested.map { side in failures.last { $0.side == side } } ?? failures.last
        guard let failure else { return answer(call, side: requested, .ignored(.nothingToRetry)) }
        if failure.side == .refresh {
            failures = []
            // A refresh run again is a refresh: loads at the ends (which could run beside the
            // head-merging refresh that failed) are cancelled unless this one merges too.
            cancelEnds(forRefreshFrom: refreshCursor)
            return startLoad(.refresh, cursor: refreshCursor, attempt: failure.attempt + 1, announce: true, caller: call)
        }
        let side = failure.side
        var end = ends[side]!
        let refetch = if case .repeatedCursor = end.stoppedBy { true } else { false }
        end.stoppedBy = nil
        ends[side] = end
        // A load at an end started by retry is still a load at that end (BothEndsPolicy).
        cancelOtherEndIfAsked(startingAt: side)
        clearFailures(at: side)
        startLoad(
            side, cursor: refetch ? end.edgePageCursor : end.cursor, attempt: failure.attempt + 1, announce: true,
            caller: call, refetchesEdgePage: refetch)
    }

    /// BothEndsPolicy.cancelOther: a load starting at one end cancels the one at the other.
    private mutating func cancelOtherEndIfAsked(startingAt side: FeedSide) {
        guard configuration.bothEnds == .cancelOther else { return }
        let other: FeedSide = side == .loadMore ? .loadPrevious : .loadMore
        if let load = loads[other] {
            finish(load, .cancelled(side == .loadMore ? .preemptedByLoadMore : .preemptedByLoadPrevious))
        }
    }

    // MARK: Results

    private func isLive(_ sleeper: Sleeper) -> Bool {
        guard let load = loads.values.first(where: { $0.number == sleeper.kind.load }) else { return false }
        switch sleeper.kind {
        case .fetch(_, _, let attempt, let step, _, _), .timeout(_, let attempt, let step):
            return load.stage == .fetching && load.attempt == attempt && load.step == step
        case .backoff(_, let attempt):
            return load.stage == .backingOff && load.attempt == attempt
        }
    }

    private mutating func fire(_ sleeper: Sleeper) {
        let live = isLive(sleeper)
        switch sleeper.kind {
        case .fetch(let number, let side, let attempt, let step, let response, _):
            deliver(response.result, load: number, side: side, attempt: attempt, step: step)
        case .timeout(let number, let attempt, _):
            guard live, let load = load(number), let timeout = configuration.timeout else { return }
            // A fetch an invalidation made stale fetches again instead (nothing is said).
            if load.restartsWhenAnswered { return restart(load) }
            diagnostics.append(.timedOut(side: load.side, attempt: attempt))
            tryFailed(load, FeedError.timedOut(after: timeout))
        case .backoff(let number, _):
            guard live, var load = load(number) else { return }
            load.attempt += 1
            load.stage = .fetching
            loads[load.side] = load
            fetch(load)
        }
    }

    private func load(_ number: Int) -> Load? {
        loads.values.first { $0.number == number }
    }

    private mutating func deliver(
        _ result: ResponsePlan.Response.Result, load number: Int, side: FeedSide, attempt: Int, step: Int
    ) {
        guard let load = load(number), load.stage == .fetching, load.attempt == attempt,
              load.step == step
        else {
            // A result no load waits for: dropped, and said so while the controller is open.
            if !isClosed {
                let succeeded = if case .page = result { true } else { false }
                diagnostics.append(.staleResultDiscarded(side: side, attempt: attempt, succeeded: succeeded))
            }
            return
        }
        if load.restartsWhenAnswered {
            // The answer may predate the change: dropped, and said so, as a stale one is (the
            // scripted failures are never CancellationError).
            switch result {
            case .page: diagnostics.append(.staleResultDiscarded(side: side, attempt: attempt, succeeded: true))
            case .failure: diagnostics.append(.staleResultDiscarded(side: side, attempt: attempt, succeeded: false))
            case .hang: break
            }
            return restart(load)
        }
        switch result {
        case .page(let ids, let previous, let next): pageArrived(load, ids: ids, previous: previous, next: next)
        case .failure(let error): tryFailed(load, error)
        case .hang: preconditionFailure("a hang never answers")
        }
    }

    private mutating func pageArrived(_ load: Load, ids: [Int], previous: Int?, next: Int?) {
        cancelTasks(of: load)
        let side = load.side
        // The cursor onward: `previous` for the start, `next` for a refresh and the end.
        let onward = side == .loadPrevious ? previous : next
        if load.refetchesEdgePage {
            // Nothing is applied; only a fresh cursor onward is taken.
            var end = ends[side]!
            if let onward, fetchedCursors.contains(onward) {
                end.stoppedBy = .repeatedCursor("\(onward)")
                ends[side] = end
                return fail(load, FeedError.repeatedCursor("\(onward)"))
            }
            end.cursor = onward
            end.atEndOfData = onward == nil
            ends[side] = end
            // The edge page now leads on from the fresh cursor.
            if !pages.isEmpty {
                if side == .loadPrevious { pages[0].previous = onward } else { pages[pages.count - 1].next = onward }
            }
            clearFailures(at: side)
            return finish(load, end.atEndOfData ? .endOfData : .completed,
                          summary: LoadSummary(itemsApplied: 0, reachedEnd: end.atEndOfData))
        }
        // An empty page that claims more is followed within the load, up to the limit; at an
        // end only to a cursor not fetched yet (that would loop).
        if ids.isEmpty, let onward, load.emptyPagesFollowed < configuration.maximumEmptyPagesFollowed,
           side == .refresh || !fetchedCursors.contains(onward) {
            var following = load
            if side != .refresh, let cursor = load.cursor {
                fetchedCursors.insert(cursor)
                following.followedEmpty.append(cursor)
            }
            following.cursor = onward
            following.emptyPagesFollowed += 1
            following.step += 1
            loads[side] = following
            return fetch(following)
        }
        if load.mergesAtHead {
            let listed = Set(list)
            if let firstKnown = ids.firstIndex(where: listed.contains) {
                return mergeAtHead(load, ids: ids, firstKnown: firstKnown, previous: previous, next: next)
            }
            // Sharing no id, it replaces the list as a plain refresh does; the loads at the ends
            // (whose pages belonged to the old list) are cancelled then (below, once the new
            // list is published: their callers see it).
            mergesThatReplaced += 1
        }
        let (applied, dropped) = apply(ids, at: side)
        if side != .refresh { reloadedAfterDrop += ids.filter(droppedIDs.contains).count }
        if side == .refresh {
            // A new list: its own cursors, both ends open again, every failure cleared.
            hasFirstPage = true
            fetchedCursors = []
            emptyPagesBefore = [:]
            failures = []
            pages = []
            ends[.loadMore] = End()
            ends[.loadPrevious] = End(cursor: previous, atEndOfData: previous == nil, edgePageCursor: load.cursor)
        }
        if let cursor = load.cursor { fetchedCursors.insert(cursor) }
        if side != .refresh, !load.followedEmpty.isEmpty, let cursor = load.cursor { emptyPagesBefore[cursor] = load.followedEmpty }
        let record = PageRecord(
            count: applied, previous: previous, next: next, fetchedWith: load.cursor)
        if side == .loadPrevious { pages.insert(record, at: 0) } else { pages.append(record) }
        let grownEnd: FeedSide = side == .loadPrevious ? .loadPrevious : .loadMore
        var end = ends[grownEnd]!
        end.edgePageCursor = load.cursor
        end.cursor = onward
        end.atEndOfData = onward == nil
        var guardFailure: FeedError?
        if let onward, fetchedCursors.contains(onward) {
            // The page is applied; the repeated cursor is not followed.
            guardFailure = .repeatedCursor("\(onward)")
        } else if ids.isEmpty && onward != nil {
            guardFailure = .emptyPageClaimsMore
        }
        end.stoppedBy = guardFailure
        ends[grownEnd] = end
        if side == .refresh, guardFailure == nil, let previous, fetchedCursors.contains(previous) {
            // A first page whose `previous` is a cursor already fetched (its own): the start stops.
            ends[.loadPrevious]!.stoppedBy = .repeatedCursor("\(previous)")
            guardFailure = .repeatedCursor("\(previous)")
        }
        // One version per landing: the page and what the bound dropped at the other end for it;
        // then the load it cancelled at that end ends, then this one.
        if side == .refresh {
            publishReplacement()
            if load.mergesAtHead {
                for end in Self.ends {
                    if let other = loads[end] { finish(other, .cancelled(.preemptedByRefresh)) }
                }
            }
        } else {
            let removed = trimToBound(grownAt: side)
            publish(
                insertedAtStart: side == .loadPrevious ? applied : 0, insertedAtEnd: side == .loadMore ? applied : 0,
                removedAtStart: removed.atStart, removedAtEnd: removed.atEnd)
            if let cancelled = removed.cancelling { finish(cancelled, .cancelled(.pagesDropped)) }
        }
        if let guardFailure { return fail(load, guardFailure) }
        if side != .refresh { clearFailures(at: side) }
        let reachedEnd = onward == nil
        finish(load, reachedEnd ? .endOfData : .completed,
               summary: LoadSummary(itemsApplied: applied, droppedDuplicates: dropped, reachedEnd: reachedEnd))
    }

    /// RefreshMode.mergeAtHead, the first page sharing an id with the list: only its items
    /// before the first known id go on top (`.prepended`, same generation), the rest of the page
    /// counts as duplicates; they join the first page; every loaded page stays (but the bound
    /// may drop pages at the end for the new ones), the end and its cursors stay, the start is
    /// the page's `previous`.
    private mutating func mergeAtHead(_ load: Load, ids: [Int], firstKnown: Int, previous: Int?, next: Int?) {
        var seen: Set<Int> = []
        let kept = ids[..<firstKnown].filter { seen.insert($0).inserted }
        let dropped = ids.count - kept.count
        if dropped > 0 { diagnostics.append(.duplicatesDropped(side: .refresh, count: dropped)) }
        list = kept + list
        mergedHeads += 1
        failures.removeAll { $0.side == .refresh }
        ends[.loadPrevious] = End(cursor: previous, atEndOfData: previous == nil)
        // The merged items join the first page, as items inserted at the top do: no page of
        // their own (a record before the first page, naming no `previous`, stopped the bound at
        // the start and made the export fail: see the type's comment). The first page's
        // `previous` is the merged page's: the start's cursor.
        if pages.isEmpty {
            pages.append(PageRecord(count: kept.count, previous: previous, next: next, fetchedWith: nil))
        } else {
            pages[0].count += kept.count
            pages[0].previous = previous
        }
        let removed = trimToBound(grownAt: .loadPrevious)
        if removed.atEnd > 0 { mergesThatDropped += 1 }
        publish(insertedAtStart: kept.count, insertedAtEnd: 0, removedAtStart: 0, removedAtEnd: removed.atEnd)
        if let cancelled = removed.cancelling { finish(cancelled, .cancelled(.pagesDropped)) }
        // The summary's reachedEnd says whether the list's end is the end of the data (the merged
        // page's own `next` is not followed); the event is `completed` (see ENGINE-BUGS, question 2).
        finish(load, .completed, summary: LoadSummary(
            itemsApplied: kept.count, droppedDuplicates: dropped, reachedEnd: ends[.loadMore]!.atEndOfData))
    }

    /// FeedConfiguration.maximumItems, after a page landed at `side`'s end (or merged at the
    /// head): while the list holds more than the bound and more than one page, the page
    /// farthest from that end goes, if the page next to it (the new edge) names a cursor toward
    /// it; else dropping stops and `pagesKeptOverBound` tells the count left. The far end then
    /// loads again from the new edge's cursor: not reached, its failure and guard halt cleared,
    /// a load in flight there cancelled (`pagesDropped`). Dropped pages' cursors (and the empty
    /// pages their loads followed) leave the repeated-cursor guard; their ids leave the list,
    /// so the duplicate filter forgets them too.
    /// - Returns: The items dropped at the start and at the end, and the load in flight at that
    ///   end, which the caller cancels once the version is published (its callers see it).
    private mutating func trimToBound(grownAt side: FeedSide) -> (atStart: Int, atEnd: Int, cancelling: Load?) {
        guard let maximum = configuration.maximumItems, countedItems > maximum else { return (0, 0, nil) }
        let atStart = side != .loadPrevious
        let far: FeedSide = atStart ? .loadPrevious : .loadMore
        var droppedPages = 0, droppedItems = 0, droppedShown = 0, keptOverBound = false
        while countedItems > maximum && pages.count > 1 {
            let newEdge = atStart ? pages[1] : pages[pages.count - 2]
            guard (atStart ? newEdge.previous : newEdge.next) != nil else {
                keptOverBound = true
                break
            }
            let record = atStart ? pages.removeFirst() : pages.removeLast()
            if let cursor = record.fetchedWith {
                fetchedCursors.remove(cursor)
                // The empty pages followed to a page fetched with that cursor leave with it (by
                // cursor: with two pages of one cursor, the first to go takes them).
                for followed in emptyPagesBefore.removeValue(forKey: cursor) ?? [] { fetchedCursors.remove(followed) }
            }
            droppedIDs.formUnion(atStart ? list.prefix(record.shown) : list.suffix(record.shown))
            if atStart { list.removeFirst(record.shown) } else { list.removeLast(record.shown) }
            droppedPages += 1
            droppedItems += record.count
            droppedShown += record.shown
        }
        if droppedPages > 0 { diagnostics.append(.pagesDropped(side: far, pages: droppedPages, items: droppedItems)) }
        if droppedPages > 0 && atStart && mergedHeads > 0 { dropsAtStartAfterMerge += 1 }
        if keptOverBound { diagnostics.append(.pagesKeptOverBound(side: far, itemCount: countedItems)) }
        guard droppedPages > 0 else { return (0, 0, nil) }
        let edge = atStart ? pages[0] : pages[pages.count - 1]
        ends[far] = End(cursor: atStart ? edge.previous : edge.next, edgePageCursor: edge.fetchedWith)
        failures.removeAll { $0.side == far }
        return atStart ? (droppedShown, 0, loads[far]) : (0, droppedShown, loads[far])
    }

    /// Publishes the list as a new generation (a refresh applied, even to an empty list).
    private mutating func publishReplacement() {
        let last = versions.last!
        versions.append(Version(
            ids: list, change: .replaced, generation: last.generation + 1,
            droppedAtStart: last.droppedAtStart, droppedAtEnd: last.droppedAtEnd))
    }

    /// Publishes the list, within its generation, if it changed at an end: `.appended`,
    /// `.prepended`, or `.ends` when the bound dropped items.
    private mutating func publish(insertedAtStart: Int, insertedAtEnd: Int, removedAtStart: Int, removedAtEnd: Int) {
        guard insertedAtStart + insertedAtEnd + removedAtStart + removedAtEnd > 0 else { return }
        let change: FeedChange = if removedAtStart + removedAtEnd > 0 {
            .ends(FeedEndsChange(
                removedAtStart: removedAtStart, insertedAtStart: insertedAtStart, insertedAtEnd: insertedAtEnd,
                removedAtEnd: removedAtEnd))
        } else if insertedAtStart > 0 {
            .prepended(0..<insertedAtStart)
        } else {
            .appended((list.count - insertedAtEnd)..<list.count)
        }
        let last = versions.last!
        versions.append(Version(
            ids: list, change: change, generation: last.generation,
            droppedAtStart: last.droppedAtStart + removedAtStart, droppedAtEnd: last.droppedAtEnd + removedAtEnd,
            edits: last.edits))
    }

    /// A try failed (thrown or timed out): retry after a backoff while attempts are left, or fail.
    private mutating func tryFailed(_ load: Load, _ error: any Error) {
        cancelTasks(of: load)
        guard load.automaticRetry < configuration.retry.maximumAttempts else { return fail(load, error) }
        var waiting = load
        waiting.stage = .backingOff
        loads[load.side] = waiting
        let delay = configuration.retry.backoff(beforeRetry: load.automaticRetry)
        let failure = FeedFailure(error: error, side: load.side, attempt: load.attempt)
        diagnostics.append(.retryScheduled(side: load.side, retryNumber: load.automaticRetry, delay: delay, failure: failure))
        sleepers.append(Sleeper(deadline: now + delay, kind: .backoff(load: load.number, attempt: load.attempt)))
    }

    /// Applies a page to the list (the caller publishes the version): a refresh replaces the
    /// list, a load-more appends, a load-previous prepends; with `duplicates: .drop` an id
    /// already listed (or earlier in the page) is left out.
    private mutating func apply(_ ids: [Int], at side: FeedSide) -> (applied: Int, dropped: Int) {
        var seen: Set<Int> = side == .refresh ? [] : Set(list)
        var kept: [Int] = []
        for id in ids where configuration.duplicates == .keep || seen.insert(id).inserted {
            kept.append(id)
        }
        let dropped = ids.count - kept.count
        if dropped > 0 { diagnostics.append(.duplicatesDropped(side: side, count: dropped)) }
        switch side {
        case .refresh: list = kept
        case .loadMore: list += kept
        case .loadPrevious: list = kept + list
        }
        return (kept.count, dropped)
    }

    // MARK: Helpers

    private mutating func startLoad(
        _ side: FeedSide, cursor: Int?, attempt: Int, announce: Bool, caller: Int?, refetchesEdgePage: Bool = false,
        isReload: Bool = false
    ) {
        lastLoadNumber += 1
        var load = Load(
            number: lastLoadNumber, side: side, startCursor: cursor, cursor: cursor, attempt: attempt,
            firstAttempt: attempt, refetchesEdgePage: refetchesEdgePage)
        if side == .refresh {
            load.isReload = isReload
            load.mergesAtHead = !isReload && mergesAtHead(from: cursor)
        }
        if load.mergesAtHead { mergingRefreshes += 1 }
        loads[side] = load
        if side == .refresh { refreshCursor = cursor }
        if announce { events.append(.began(side)) }
        if let caller { callers.append(Caller(call: caller, load: load.number, side: side, joined: false)) }
        fetch(load)
    }

    /// The source gets a request; its answer comes at once or sleeps on the clock.
    private mutating func fetch(_ load: Load) {
        let inFlight = sleepers.contains {
            if case .fetch(_, let side, _, _, _, let cancelled) = $0.kind { side == load.side && !cancelled } else { false }
        }
        if inFlight { violations.append("a second \(load.side) fetch started while one was in flight and not cancelled") }
        let index = requests.count
        requests.append(Request(side: load.side, cursor: load.cursor, attempt: load.attempt))
        let response = plan.response(forRequest: index, cursor: load.cursor)
        if let timeout = configuration.timeout {
            sleepers.append(Sleeper(
                deadline: now + timeout,
                kind: .timeout(load: load.number, attempt: load.attempt, step: load.step)))
        }
        if let deadline = response.deadline(startingAt: now) {
            sleepers.append(Sleeper(deadline: deadline, kind: .fetch(
                load: load.number, side: load.side, attempt: load.attempt, step: load.step,
                response: response, cancelled: false)))
        } else {
            deliver(response.result, load: load.number, side: load.side, attempt: load.attempt, step: load.step)
        }
    }

    /// Cancels the fetch and timers of `load`. A fetch that honours cancellation leaves the
    /// clock and comes back as a stale failure; one that ignores it sleeps on.
    private mutating func cancelTasks(of load: Load) {
        var kept: [Sleeper] = []
        for var sleeper in sleepers {
            guard sleeper.kind.load == load.number else {
                kept.append(sleeper)
                continue
            }
            guard case .fetch(let number, let side, let attempt, let step, let response, _) = sleeper.kind else { continue }
            if response.ignoresCancellation && response.result != .hang {
                sleeper.kind = .fetch(load: number, side: side, attempt: attempt, step: step, response: response, cancelled: true)
                kept.append(sleeper)
            } else {
                // It stops with CancellationError, as asked (FeedDiagnostic.fetchCancelled).
                cancelledArrivals.append(.fetchCancelled(side: side, attempt: attempt))
            }
        }
        sleepers = kept
    }

    private mutating func flushCancelledArrivals() {
        if !isClosed { diagnostics += cancelledArrivals }
        cancelledArrivals = []
    }

    /// Ends `load`: its slot empties, its end event is published, its callers are answered.
    private mutating func finish(_ load: Load, _ reason: FeedEndReason, summary: LoadSummary? = nil) {
        cancelTasks(of: load)
        loads[load.side] = nil
        events.append(.ended(load.side, reason))
        let outcome: LoadOutcome = switch reason {
        case .completed, .endOfData: .completed(summary!)
        case .cancelled(let cause): .cancelled(cause)
        case .failed(let failure): .failed(failure)
        }
        resolve(load.number, outcome)
    }

    /// Ends `load` as failed; its failure replaces its side's.
    private mutating func fail(_ load: Load, _ error: any Error) {
        let failure = FeedFailure(error: error, side: load.side, attempt: load.attempt)
        failures.removeAll { $0.side == load.side }
        failures.append(failure)
        finish(load, .failed(failure))
    }

    /// A load at an end clears its own failure and the refresh's.
    private mutating func clearFailures(at side: FeedSide) {
        failures.removeAll { $0.side == side || $0.side == .refresh }
    }

    private mutating func join(_ call: Int, _ load: Load) {
        callers.append(Caller(call: call, load: load.number, side: load.side, joined: true))
    }

    private mutating func answer(_ call: Int, side: FeedSide?, _ outcome: LoadOutcome) {
        outcomes[call] = LoadResult(side: side, outcome: outcome)
        outcomeVersions[call] = version
    }

    private mutating func resolve(_ load: Int, _ outcome: LoadOutcome) {
        for caller in callers where caller.load == load {
            outcomes[caller.call] = LoadResult(side: caller.side, outcome: outcome, joinedInFlightLoad: caller.joined)
            outcomeVersions[caller.call] = version
        }
        callers.removeAll { $0.load == load }
    }
}
