import AsyncPaging

/// Decides whether what the list shows should load a page at either end: a row about to
/// appear, the visible rows, or the scroll geometry.
///
/// A list that loads at its end only asks the `decision` methods, which read the summary
/// ``AsyncPaging/FeedStatus``. A list that also loads at its start (a chat, a timeline opened in
/// the middle) asks the `decisions` methods, which read
/// ``AsyncPaging/FeedLoadStates`` and decide for each end on its own: near the top within the
/// distance → ``Decision/loadPrevious``, near the bottom → ``Decision/loadMore``.
///
/// The trigger is a pure value: it reads the position, the number of items, the feed's status
/// and whether a request of the caller is still unanswered, and returns a ``Decision``. It
/// loads more only when all of these hold:
/// - the position is near the end: the last visible row is at most ``prefetchDistance`` rows
///   from the last item, or the geometry is within ``bottomDistance`` points of the bottom;
/// - no load is in flight, and no request of the caller is waiting for its answer;
/// - the feed is not at the end of its data, has not failed (until a retry) and is not closed.
///
/// So a list that reports the same last row many times while it bounces loads once: the first
/// report starts the load and every later one finds it in flight. ``FeedModel`` keeps the
/// "request waiting" flag and drives a ``AsyncPaging/FeedController`` with these decisions.
public struct PrefetchTrigger: Sendable, Hashable {
    /// How many rows may follow the last visible row for it to load more: 0 loads when the
    /// last row appears, 5 when the row five before the end does.
    public let prefetchDistance: Int
    /// How many points above the bottom the geometry may be for it to load more.
    public let bottomDistance: Double
    /// How many points below the top the geometry may be for it to load the page before the
    /// first (``Decision/loadPrevious``); only the `decisions` methods read it.
    public let topDistance: Double

    /// The answer to one report.
    public enum Decision: Sendable, Hashable, CustomStringConvertible {
        /// Load the next page.
        case loadMore
        /// Load the page before the first page (``AsyncPaging/FeedController/loadPrevious()``):
        /// only the two-ended `decisions` methods answer it.
        case loadPrevious
        /// Do nothing, for this reason.
        case skip(SkipReason)

        /// The decision as written in code, e.g. `skip(endOfData)`.
        public var description: String {
            switch self {
            case .loadMore: "loadMore"
            case .loadPrevious: "loadPrevious"
            case .skip(let reason): "skip(\(reason))"
            }
        }
    }

    /// Why a report starts no load.
    public enum SkipReason: Sendable, Hashable, CustomStringConvertible {
        /// The position is not near the end (or cannot be measured); for the start of the list,
        /// not near the start.
        case notNearEnd
        /// A load is in flight, or a request is waiting for its answer. At the start of the
        /// list: also a refresh in flight, and, under ``AsyncPaging/BothEndsPolicy/cancelOther``,
        /// a load at the other end.
        case loadInFlight
        /// The last page has been loaded; for the start of the list, the first page of the data.
        case endOfData
        /// The last load failed (of that end, for the two-ended decisions): nothing loads by
        /// scrolling until a retry (or a refresh).
        case failed
        /// The controller is closed.
        case closed

        /// The case name, e.g. `loadInFlight`.
        public var description: String {
            switch self {
            case .notNearEnd: "notNearEnd"
            case .loadInFlight: "loadInFlight"
            case .endOfData: "endOfData"
            case .failed: "failed"
            case .closed: "closed"
            }
        }
    }

    /// Creates a trigger.
    /// - Parameters:
    ///   - prefetchDistance: Rows that may follow the last visible row (or precede the first
    ///     one, at the start of the list); a negative value counts as 0.
    ///   - bottomDistance: Points above the bottom that count as the bottom; a negative or NaN
    ///     value counts as 0.
    ///   - topDistance: Points below the top that count as the top, for loading the page before
    ///     the first; a negative or NaN value counts as 0.
    public init(prefetchDistance: Int = 0, bottomDistance: Double = 0, topDistance: Double = 0) {
        self.prefetchDistance = max(prefetchDistance, 0)
        self.bottomDistance = bottomDistance.isNaN ? 0 : max(bottomDistance, 0)
        self.topDistance = topDistance.isNaN ? 0 : max(topDistance, 0)
    }

    // MARK: Positions

    /// Whether row `index` is within ``prefetchDistance`` rows of the last of `itemCount`
    /// items. A negative index, or an empty list, is never near the end; an index past the end
    /// (a list that shows rows the feed has since replaced) is.
    public func isNearEnd(row index: Int, itemCount: Int) -> Bool {
        guard index >= 0, itemCount > 0 else { return false }
        return itemCount - 1 - index <= prefetchDistance
    }

    /// Whether the last of the visible `rows` is near the end; an empty range is not.
    public func isNearEnd(visibleRows rows: Range<Int>, itemCount: Int) -> Bool {
        guard let last = rows.last else { return false }
        return isNearEnd(row: last, itemCount: itemCount)
    }

    /// Whether `geometry` is within ``bottomDistance`` points of the bottom, or past it.
    public func isNearEnd(_ geometry: FeedScrollGeometry) -> Bool {
        geometry.isAtBottom(within: bottomDistance)
    }

    // MARK: Decisions

    /// The decision for a list whose position is (or is not) near the end.
    /// - Parameters:
    ///   - nearEnd: What one of the `isNearEnd` methods answered.
    ///   - status: The feed's newest status.
    ///   - requestPending: Whether a request the caller sent has not been answered yet; the
    ///     status does not show a request until the controller has taken it.
    ///
    /// A position that is not near the end answers ``SkipReason/notNearEnd`` whatever the
    /// status; otherwise the status decides, then the pending request.
    public func decision(nearEnd: Bool, status: FeedStatus, requestPending: Bool) -> Decision {
        guard nearEnd else { return .skip(.notNearEnd) }
        switch status {
        case .closed: return .skip(.closed)
        case .refreshing, .loadingMore: return .skip(.loadInFlight)
        case .endOfData: return .skip(.endOfData)
        case .failed: return .skip(.failed)
        case .idle, .loadingPrevious: return requestPending ? .skip(.loadInFlight) : .loadMore
        }
    }

    /// The decision for row `index` about to appear in a list of `itemCount` items.
    public func decision(
        forRow index: Int, itemCount: Int, status: FeedStatus, requestPending: Bool
    ) -> Decision {
        decision(nearEnd: isNearEnd(row: index, itemCount: itemCount), status: status, requestPending: requestPending)
    }

    /// The decision for the visible `rows` of a list of `itemCount` items.
    public func decision(
        forVisibleRows rows: Range<Int>, itemCount: Int, status: FeedStatus, requestPending: Bool
    ) -> Decision {
        decision(
            nearEnd: isNearEnd(visibleRows: rows, itemCount: itemCount), status: status,
            requestPending: requestPending)
    }

    /// The decision for a list scrolled to `geometry`.
    public func decision(
        for geometry: FeedScrollGeometry, status: FeedStatus, requestPending: Bool
    ) -> Decision {
        decision(nearEnd: isNearEnd(geometry), status: status, requestPending: requestPending)
    }
}
