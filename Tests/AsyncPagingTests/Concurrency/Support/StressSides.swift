import AsyncPaging

/// The sides the stress test drives, in one place: what a caller does for a side, what it sends,
/// and where that side's pages go in the list. The checks (``AppliedPagesCheck``, the event
/// audit) go through ``StressSide/allCases``.
enum StressSide: CaseIterable, Sendable {
    case refresh
    case loadMore
    case loadPrevious

    /// Where a side's page goes.
    enum Placement {
        /// It replaces the list; its request has no cursor.
        case replacesList
        /// It follows the page whose fetch its cursor names.
        case appendsAfterCursor
        /// It comes before the page whose fetch its cursor names.
        case prependsBeforeCursor
    }

    var feedSide: FeedSide {
        switch self {
        case .refresh: .refresh
        case .loadMore: .loadMore
        case .loadPrevious: .loadPrevious
        }
    }

    init?(_ side: FeedSide) {
        guard let match = Self.allCases.first(where: { $0.feedSide == side }) else { return nil }
        self = match
    }

    var placement: Placement {
        switch self {
        case .refresh: .replacesList
        case .loadMore: .appendsAfterCursor
        case .loadPrevious: .prependsBeforeCursor
        }
    }

    /// The awaited call of this side.
    func call<Item, Cursor>(on feed: FeedController<Item, Cursor>) async -> LoadResult {
        switch self {
        case .refresh: await feed.refresh()
        case .loadMore: await feed.loadMore()
        case .loadPrevious: await feed.loadPrevious()
        }
    }

    /// The fire-and-forget request of this side.
    var request: FeedRequest {
        switch self {
        case .refresh: .refresh
        case .loadMore: .loadMore
        case .loadPrevious: .loadPrevious
        }
    }
}

