import AsyncPaging

/// A call a randomized run makes on the controller.
enum ModelCall: Sendable, Hashable, CustomStringConvertible {
    case refresh
    /// refresh(from:): opens the list at the page of this cursor.
    case refreshFrom(Int)
    case loadMore
    case loadPrevious
    /// retry() with no side, or retry(side).
    case retry(FeedSide?)
    /// invalidate(): the list reloads (no rows are reported: from its first page).
    case invalidate

    var description: String {
        switch self {
        case .refresh: "refresh()"
        case .refreshFrom(let cursor): "refresh(from: \(cursor))"
        case .loadMore: "loadMore()"
        case .loadPrevious: "loadPrevious()"
        case .retry(let side): side.map { "retry(.\($0))" } ?? "retry()"
        case .invalidate: "invalidate()"
        }
    }
}
