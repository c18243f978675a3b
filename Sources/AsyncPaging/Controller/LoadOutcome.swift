/// Why a load was cancelled.
public enum CancellationReason: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A refresh started and cancelled this load at an end of the list (the header wins).
    case preemptedByRefresh
    /// A load-more started and cancelled this refresh
    /// (``LoadMoreDuringRefreshPolicy/cancelRefresh``) or this load-previous
    /// (``BothEndsPolicy/cancelOther``).
    case preemptedByLoadMore
    /// A load-previous started and cancelled this refresh
    /// (``LoadPreviousDuringRefreshPolicy/cancelRefresh``) or this load-more
    /// (``BothEndsPolicy/cancelOther``).
    case preemptedByLoadPrevious
    /// A newer request on the same side replaced this one. Only a caller's outcome says this:
    /// the side stays loading, so no event ends.
    case supersededByNewerRequest
    /// ``FeedController/close()`` was called, or the controller was released.
    case closed
    /// A page landed at the other end and the bound (``FeedConfiguration/maximumItems``)
    /// dropped the pages at this load's end, which its page would have followed.
    case pagesDropped

    /// Who cancelled the load, as a short phrase for logs ("by a refresh"); the wording may
    /// change, so a UI words the reason itself.
    public var description: String {
        switch self {
        case .preemptedByRefresh: "by a refresh"
        case .preemptedByLoadMore: "by a load-more"
        case .preemptedByLoadPrevious: "by a load-previous"
        case .supersededByNewerRequest: "by a newer request"
        case .closed: "by close"
        case .pagesDropped: "by the bound, which dropped the pages at its end"
        }
    }
}

/// Why a call started no load.
public enum IgnoreReason: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The controller is closed.
    case closed
    /// `retry()` found no failed load to retry.
    case nothingToRetry
    /// `loadMore()` or `loadPrevious()` while a refresh is in flight, under
    /// ``LoadMoreDuringRefreshPolicy/ignoreLoadMore`` or ``LoadPreviousDuringRefreshPolicy/ignoreLoadPrevious``.
    case refreshInFlight
    /// `loadMore()` or `loadPrevious()` while the first page is still loading: there is nothing
    /// to add to yet.
    case firstPageLoading
    /// `loadMore()` or `loadPrevious()` before any first page was applied (the initial load is off, or the first
    /// page failed): there is nothing to append to. `refresh()` loads the first page, and after
    /// a failed first page `retry()` runs that refresh again (Android Paging 3 does the same).
    case noFirstPage
    /// `loadMore()` or `loadPrevious()` after a guard failure at that end
    /// (``FeedError/repeatedCursor(_:)`` or ``FeedError/emptyPageClaimsMore``): that end fetches
    /// nothing by itself until `retry()` or a refresh, so a UI that loads at an edge cannot spin.
    case stoppedByGuard

    /// Why the call started nothing, in words, for logs.
    public var description: String {
        switch self {
        case .closed: "the controller is closed"
        case .nothingToRetry: "there is no failed load to retry"
        case .refreshInFlight: "a refresh is in flight"
        case .firstPageLoading: "the first page is still loading"
        case .noFirstPage: "no first page has been loaded"
        case .stoppedByGuard: "loading more stopped after a guard failure; retry or refresh"
        }
    }
}

/// What a finished load did to the list.
public struct LoadSummary: Sendable, Hashable {
    /// The items the load put in the list: the new list's count for a refresh, the appended
    /// count for a load-more, the prepended count for a load-previous.
    public var itemsApplied: Int
    /// Items dropped because their id was already in the list (``DuplicatePolicy/drop``).
    public var droppedDuplicates: Int
    /// Whether the page was the last one in the direction of the load: `next == nil` for a
    /// refresh or a load-more, `previous == nil` for a load-previous.
    public var reachedEnd: Bool

    /// Creates a summary.
    public init(itemsApplied: Int, droppedDuplicates: Int = 0, reachedEnd: Bool = false) {
        self.itemsApplied = itemsApplied
        self.droppedDuplicates = droppedDuplicates
        self.reachedEnd = reachedEnd
    }
}

/// What happened to one call of ``FeedController/refresh()``, ``FeedController/loadMore()``
/// or ``FeedController/retry(_:)``.
public enum LoadOutcome: Sendable, Equatable, CustomStringConvertible {
    /// The page arrived and was applied.
    case completed(LoadSummary)
    /// `loadMore()` at the end of the data, or `loadPrevious()` at its start: nothing was fetched.
    case endOfData
    /// The load was cancelled before its page was applied; its data was discarded.
    case cancelled(CancellationReason)
    /// The load failed; the list is as it was before.
    case failed(FeedFailure)
    /// The call started nothing.
    case ignored(IgnoreReason)

    /// The outcome in a compact form for logs, e.g. `completed(15 items, 0 duplicates dropped)`.
    public var description: String {
        switch self {
        case .completed(let summary):
            "completed(\(summary.itemsApplied) items, \(summary.droppedDuplicates) duplicates dropped\(summary.reachedEnd ? ", end of data" : ""))"
        case .endOfData: "endOfData"
        case .cancelled(let reason): "cancelled(\(reason))"
        case .failed(let failure): "failed(\(failure.error))"
        case .ignored(let reason): "ignored(\(reason))"
        }
    }
}

/// The answer to one call of ``FeedController/refresh()``, ``FeedController/loadMore()`` or
/// ``FeedController/retry(_:)``: which side it concerned, what happened, and whether the call
/// joined a load that was already in flight instead of starting its own.
public struct LoadResult: Sendable, Equatable, CustomStringConvertible {
    /// The side the call concerned; `nil` only for a `retry()` that found nothing to retry.
    public var side: FeedSide?
    /// What happened.
    public var outcome: LoadOutcome
    /// `true` when the call joined a load already in flight and reports that load's outcome.
    public var joinedInFlightLoad: Bool

    /// Creates a result.
    public init(side: FeedSide?, outcome: LoadOutcome, joinedInFlightLoad: Bool = false) {
        self.side = side
        self.outcome = outcome
        self.joinedInFlightLoad = joinedInFlightLoad
    }

    /// The side, the outcome and whether the call joined a load, for logs.
    public var description: String {
        "\(side.map { "\($0)" } ?? "none"): \(outcome)\(joinedInFlightLoad ? " (joined)" : "")"
    }
}
