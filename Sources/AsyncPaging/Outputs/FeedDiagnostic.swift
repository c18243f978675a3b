/// Something the engine did on its own that logs and metrics want to know about, published by
/// ``FeedController/diagnostics``.
public enum FeedDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// A fetch for a load that had already ended (cancelled, timed out, superseded) returned a
    /// page or an error other than `CancellationError` — its source ignored the cancellation —
    /// and the result was dropped unapplied. `succeeded` tells whether it brought a page.
    case staleResultDiscarded(side: FeedSide, attempt: Int, succeeded: Bool)
    /// A fetch for a load that had already ended stopped by throwing `CancellationError`, as a
    /// well-behaved source does when its task is cancelled. Nothing was applied.
    case fetchCancelled(side: FeedSide, attempt: Int)
    /// Items of a page whose id was already in the list were dropped.
    case duplicatesDropped(side: FeedSide, count: Int)
    /// Try `failure.attempt` failed with `failure.error` and will be retried after `delay` on
    /// the controller's clock.
    case retryScheduled(side: FeedSide, retryNumber: Int, delay: Duration, failure: FeedFailure)
    /// A fetch took longer than the configured timeout and was cancelled.
    case timedOut(side: FeedSide, attempt: Int)
    /// To keep the list within ``FeedConfiguration/maximumItems``, `pages` whole pages holding
    /// `items` items were dropped at the end of the list that `side` loads (``FeedSide/loadPrevious``:
    /// the start; ``FeedSide/loadMore``: the end). That end can load them again.
    case pagesDropped(side: FeedSide, pages: Int, items: Int)
    /// The list holds `itemCount` items, more than ``FeedConfiguration/maximumItems``, but the
    /// pages at the end that `side` loads were kept: the page that would become the edge names
    /// no cursor back to them (`previous` at the start, `next` at the end), so they could never
    /// load again. A source that wants the bound at the start gives pages a `previous` cursor.
    case pagesKeptOverBound(side: FeedSide, itemCount: Int)

    /// The diagnostic in words, for logs.
    public var description: String {
        switch self {
        case .staleResultDiscarded(let side, let attempt, let succeeded):
            "stale \(succeeded ? "page" : "failure") of \(side) attempt \(attempt) discarded"
        case .fetchCancelled(let side, let attempt): "\(side) attempt \(attempt) cancelled"
        case .duplicatesDropped(let side, let count): "\(count) duplicate item(s) dropped from a \(side) page"
        case .retryScheduled(let side, let retryNumber, let delay, let failure):
            "\(side) retry \(retryNumber) in \(delay) after: \(failure.error)"
        case .timedOut(let side, let attempt): "\(side) attempt \(attempt) timed out"
        case .pagesDropped(let side, let pages, let items):
            "\(pages) page(s), \(items) item(s) dropped at the \(side == .loadPrevious ? "start" : "end") for the bound"
        case .pagesKeptOverBound(let side, let itemCount):
            "\(itemCount) items kept over the bound: the pages at the \(side == .loadPrevious ? "start" : "end") name no cursor back"
        }
    }
}
