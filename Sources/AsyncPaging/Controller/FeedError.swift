/// Errors the engine itself reports, next to the errors a ``PageSource`` throws.
public enum FeedError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The fetch took longer than ``FeedConfiguration/timeout`` on the controller's clock.
    case timedOut(after: Duration)
    /// The source answered with a `next` cursor that this feed has already asked for since
    /// its last refresh: following it would loop. The page's items were applied; the cursor
    /// was not followed, and `loadMore()` fetches nothing (it answers
    /// ``IgnoreReason/stoppedByGuard``) until `retry()` or a refresh. `retry()` asks for the
    /// last page again only to get a fresh `next` — its items are in the list already and are
    /// not applied again — and fails the same way if `next` still repeats.
    case repeatedCursor(String)
    /// The source answered more empty pages that still claim more data than
    /// ``FeedConfiguration/maximumEmptyPagesFollowed`` lets one load follow by itself. The last
    /// page is taken as it is (for a load-more nothing is appended; for a refresh the list
    /// becomes empty) and its cursor is kept, but the load ends as failed and `loadMore()`
    /// fetches nothing (``IgnoreReason/stoppedByGuard``) until `retry()` or a refresh, so a UI
    /// that loads more whenever it reaches the bottom cannot spin. `retry()` runs the failed
    /// side again: a load-more from the kept cursor, a refresh from the top.
    case emptyPageClaimsMore
    /// The controller's clock threw from `sleep` without being cancelled, so a timeout or a
    /// retry backoff could never elapse: the load ends as failed at once rather than wait for
    /// ever. The text is the clock's error.
    case clockFailed(String)

    /// What went wrong, in words, for logs.
    public var description: String {
        switch self {
        case .timedOut(let timeout): "the page source did not answer within \(timeout)"
        case .repeatedCursor(let cursor): "the page source repeated the cursor \(cursor), which would loop"
        case .emptyPageClaimsMore: "the page source returned an empty page that claims more data"
        case .clockFailed(let error): "the clock failed while the feed waited on it: \(error)"
        }
    }
}

/// A failed load: the error, the side that failed and which try it was.
///
/// Two failures are equal when side and attempt are equal and their errors have the same
/// type and the same `String(reflecting:)` text; `any Error` has no equality of its own.
public struct FeedFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// What the source threw, or a ``FeedError``.
    public let error: any Error
    /// The side whose load failed.
    public let side: FeedSide
    /// The try that failed, 1 for the first.
    public let attempt: Int

    /// Creates a failure record.
    public init(error: any Error, side: FeedSide, attempt: Int) {
        self.error = error
        self.side = side
        self.attempt = attempt
    }

    /// Whether two failures are of the same side and attempt, with errors of the same type and
    /// the same `String(reflecting:)` text.
    public static func == (lhs: FeedFailure, rhs: FeedFailure) -> Bool {
        lhs.side == rhs.side && lhs.attempt == rhs.attempt
            && type(of: lhs.error) == type(of: rhs.error)
            && String(reflecting: lhs.error) == String(reflecting: rhs.error)
    }

    /// The side, the attempt and the error, for logs.
    public var description: String { "\(side) failed (attempt \(attempt)): \(error)" }
}
