@testable import AsyncPaging

/// Builders for the machine's actions, so that tests compare whole action lists as values.
enum MachineTest {
    typealias Machine = FeedStateMachine<Int, Int>
    typealias Action = Machine.Action
    typealias LoadID = Machine.LoadID

    static func id(_ raw: UInt64) -> LoadID { LoadID(rawValue: raw) }

    static func page(_ items: Range<Int>, previous: Int? = nil, next: Int?) -> Page<Int, Int> {
        Page(items: Array(items), previous: previous, next: next)
    }

    static func began(_ side: FeedSide) -> Action { .emit(.began(side)) }

    static func fetch(_ load: UInt64, _ side: FeedSide, cursor: Int?, attempt: Int = 1, step: Int = 0) -> Action {
        .startFetch(id(load), side: side, cursor: cursor, attempt: attempt, step: step)
    }

    static func cancel(_ load: UInt64) -> Action { .cancelLoad(id(load)) }

    /// The action that applies `page`; the page itself waits in the machine
    /// (``FeedStateMachine/landedPage``), which the returning helpers check.
    static func apply(_ load: UInt64, _ side: FeedSide, _ page: Page<Int, Int>) -> Action {
        .applyPage(id(load), side)
    }

    static func ended(_ side: FeedSide, _ reason: FeedEndReason) -> Action { .emit(.ended(side, reason)) }

    static func resolve(_ load: UInt64, _ outcome: LoadOutcome) -> Action { .resolveCallers(id(load), outcome) }

    static func completed(_ applied: Int, dropped: Int = 0, reachedEnd: Bool = false) -> LoadOutcome {
        .completed(LoadSummary(itemsApplied: applied, droppedDuplicates: dropped, reachedEnd: reachedEnd))
    }

    /// The whole list a load that completes produces once its page arrives and is applied.
    static func landed(
        _ load: UInt64, _ side: FeedSide, _ page: Page<Int, Int>, applied: Int? = nil, dropped: Int = 0
    ) -> [Action] {
        let onward = side == .loadPrevious ? page.previous : page.next
        let applied = applied ?? page.items.count
        return [
            cancel(load), apply(load, side, page),
            ended(side, onward == nil ? .endOfData : .completed),
            resolve(load, completed(applied, dropped: dropped, reachedEnd: onward == nil)),
        ]
    }

    /// The actions that end `load` at `side` as cancelled for `reason`.
    static func cancelled(_ load: UInt64, _ side: FeedSide, _ reason: CancellationReason) -> [Action] {
        [cancel(load), ended(side, .cancelled(reason)), resolve(load, .cancelled(reason))]
    }

    static func configuration(
        loadMoreDuringRefresh: LoadMoreDuringRefreshPolicy = .cancelRefresh,
        refreshDuringRefresh: RefreshDuringRefreshPolicy = .restart,
        loadMoreDuringLoadMore: LoadMoreDuringLoadMorePolicy = .join,
        loadPreviousDuringRefresh: LoadPreviousDuringRefreshPolicy = .cancelRefresh,
        bothEnds: BothEndsPolicy = .runBoth,
        refreshMode: RefreshMode = .replace,
        retry: RetryPolicy = .none,
        timeout: Duration? = nil,
        maximumEmptyPagesFollowed: Int = 3,
        maximumItems: Int? = nil
    ) -> FeedConfiguration {
        do {
            return try FeedConfiguration(
                loadsInitialPage: false, loadMoreDuringRefresh: loadMoreDuringRefresh,
                refreshDuringRefresh: refreshDuringRefresh, loadMoreDuringLoadMore: loadMoreDuringLoadMore,
                loadPreviousDuringRefresh: loadPreviousDuringRefresh, bothEnds: bothEnds, refreshMode: refreshMode,
                retry: retry,
                timeout: timeout, maximumEmptyPagesFollowed: maximumEmptyPagesFollowed, maximumItems: maximumItems)
        } catch {
            fatalError("test configuration: \(error)")
        }
    }

    /// A machine whose first load (id 1) landed `page`: by default items 0..<15 from the first
    /// page, `next` 1, nothing before.
    static func loaded(
        _ configuration: FeedConfiguration = configuration(), from cursor: Int? = nil,
        page: Page<Int, Int> = page(0..<15, next: 1), identifiesItems: Bool = false
    ) -> Machine {
        var machine = Machine(configuration: configuration, identifiesItems: identifiesItems)
        _ = machine.refreshRequested(from: cursor)
        _ = machine.fetchSucceeded(id(1), attempt: 1, page: page)
        return machine
    }
}


