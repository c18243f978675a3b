/// Something the engine did on its own that logs and metrics want to know about, published by
/// ``FeedController/diagnostics``.
public enum FeedDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// A fetch for a load that had already ended (cancelled, timed out, superseded) returned,
    /// and its result was dropped unapplied. `succeeded` tells whether it brought a page.
    case staleResultDiscarded(side: FeedSide, attempt: Int, succeeded: Bool)
    /// Items of a page whose id was already in the list were dropped.
    case duplicatesDropped(side: FeedSide, count: Int)
    /// A failed try will be retried after `delay` on the controller's clock.
    case retryScheduled(side: FeedSide, retryNumber: Int, delay: Duration)
    /// A fetch took longer than the configured timeout and was cancelled.
    case timedOut(side: FeedSide, attempt: Int)

    /// The diagnostic in words, for logs.
    public var description: String {
        switch self {
        case .staleResultDiscarded(let side, let attempt, let succeeded):
            "stale \(succeeded ? "page" : "failure") of \(side) attempt \(attempt) discarded"
        case .duplicatesDropped(let side, let count): "\(count) duplicate item(s) dropped from a \(side) page"
        case .retryScheduled(let side, let retryNumber, let delay): "\(side) retry \(retryNumber) in \(delay)"
        case .timedOut(let side, let attempt): "\(side) attempt \(attempt) timed out"
        }
    }
}
