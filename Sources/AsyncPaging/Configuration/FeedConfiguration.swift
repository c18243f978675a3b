/// How a ``FeedController`` pages: page size, initial load, overlap rules, retry, timeout and
/// duplicates.
///
/// A configuration is checked when it is made, so a controller never starts with values that
/// cannot work: the initializer throws a ``FeedConfigurationError`` instead.
///
/// ```swift
/// let configuration = try FeedConfiguration(pageSize: 15, timeout: .seconds(10))
/// ```
public struct FeedConfiguration: Sendable, Hashable {
    /// The number of items asked for per page.
    @inlinable public var pageSize: Int { _storage.pageSize }
    /// Whether the controller starts loading the first page as soon as it is created.
    @inlinable public var loadsInitialPage: Bool { _storage.loadsInitialPage }
    /// What `loadMore()` does while a refresh is in flight.
    @inlinable public var loadMoreDuringRefresh: LoadMoreDuringRefreshPolicy { _storage.loadMoreDuringRefresh }
    /// What `refresh()` does while another refresh is in flight.
    @inlinable public var refreshDuringRefresh: RefreshDuringRefreshPolicy { _storage.refreshDuringRefresh }
    /// What `loadMore()` does while another load-more is in flight (and `loadPrevious()` while
    /// another load-previous is).
    @inlinable public var loadMoreDuringLoadMore: LoadMoreDuringLoadMorePolicy { _storage.loadMoreDuringLoadMore }
    /// What `loadPrevious()` does while a refresh is in flight.
    @inlinable public var loadPreviousDuringRefresh: LoadPreviousDuringRefreshPolicy { _storage.loadPreviousDuringRefresh }
    /// Whether a load at one end of the list lets a load at the other end run on.
    @inlinable public var bothEnds: BothEndsPolicy { _storage.bothEnds }
    /// Whether a refresh replaces the list or merges new items in at its head.
    @inlinable public var refreshMode: RefreshMode { _storage.refreshMode }
    /// Automatic retries of a failed load.
    @inlinable public var retry: RetryPolicy { _storage.retry }
    /// How long one fetch may take, on the controller's clock, before it is cancelled and
    /// fails with ``FeedError/timedOut(after:)``; `nil` waits as long as the source takes.
    @inlinable public var timeout: Duration? { _storage.timeout }
    /// What happens to items whose id is already in the list.
    @inlinable public var duplicates: DuplicatePolicy { _storage.duplicates }
    /// How many empty pages that still claim more one load follows by itself, applying
    /// nothing, before it fails with ``FeedError/emptyPageClaimsMore`` (a server that filters a
    /// page can legitimately send one). 0 fails at the first such page.
    @inlinable public var maximumEmptyPagesFollowed: Int { _storage.maximumEmptyPagesFollowed }
    /// The most items the list keeps; `nil` (the default) keeps every item loaded.
    ///
    /// When a page lands at one end and the list holds more, whole pages are dropped at the
    /// other end until it holds at most this many (the page just loaded is never dropped, so a
    /// single page larger than the bound stays whole; with pages of P items the list holds at
    /// most this many and, once full, at least this many − P + 1). With the rows on screen
    /// reported (``FeedController/reportVisibleRows(_:prefetchDistance:)``), pages go from the
    /// end farther from those rows instead, and never a page within the prefetch distance of
    /// them. That end can then load the dropped pages
    /// again, from the cursor the new edge page names toward them (`previous` at the start,
    /// `next` at the end): ``FeedCursors`` and ``FeedLoadStates`` say so. Pages whose edge page
    /// names no such cursor (pages made with ``Page/init(items:next:)`` have no `previous`) are
    /// kept, and ``FeedDiagnostic/pagesKeptOverBound(side:itemCount:)`` says so. Dropped items
    /// leave the duplicate filter, a load in flight at the dropped end is cancelled
    /// (``CancellationReason/pagesDropped``), and the snapshot's change says how many items went
    /// at which end (``FeedChange/ends(_:)``). Choose a bound of several pages plus the UI's
    /// prefetch distance at both ends, so that a screen never shows a dropped page. Items
    /// removed by an edit (`remove(ids:)`) count toward the bound until their
    /// page goes; items inserted at the top count with the first page.
    @inlinable public var maximumItems: Int? { _storage.maximumItems }
    /// Whether the source may legitimately hand out a cursor it handed out before (Paging 3's
    /// `keyReuseSupported`); `false` by default.
    ///
    /// By default a page whose onward cursor (`next` at the end, `previous` at the start) names
    /// a page already fetched since the last refresh stops that end with
    /// ``FeedError/repeatedCursor(_:)``: following it would fetch the same page again, for ever.
    /// Set this for a source whose cursors are not unique positions — a time bucket or a page
    /// token reused across different data — and the guard is off: every cursor is followed.
    ///
    /// The consequence: nothing stops a source that really loops but what ends any load. A
    /// page with `next: nil` (the end of the data) ends that end. Each load fetches one page,
    /// so a loop never makes an endless load by itself: it costs one request per `loadMore()`
    /// (or `loadPrevious()`). A page of items already listed applies nothing when duplicates
    /// are dropped (``DuplicatePolicy/drop``: the load completes with `itemsApplied` 0 and the
    /// duplicates counted), so the list does not grow — but a UI that loads more whenever the
    /// end is visible keeps asking, one request per ask; watch ``LoadSummary/itemsApplied``.
    /// Empty pages that still claim more are followed within one load up to
    /// ``maximumEmptyPagesFollowed``, then fail with ``FeedError/emptyPageClaimsMore``. With
    /// ``DuplicatePolicy/keep`` a looping source grows the list, which only ``maximumItems``
    /// bounds. A saved ``FeedState`` whose pages repeat a cursor still cannot be restored
    /// (``FeedStateError/repeatedCursor(pageIndex:cursor:)``).
    @inlinable public var allowsCursorReuse: Bool { _storage.allowsCursorReuse }
    /// Whether the controller remembers the cursor of every loaded page, so that
    /// ``FeedController/invalidate()`` reloads the page that holds the row on screen; `false`
    /// by default (a record per page: a few bytes an item).
    ///
    /// A feed with ``maximumItems`` or in ``RefreshMode/refetchLoaded`` keeps them anyway. A
    /// feed without them knows its list as one page, fetched with the cursor of its first
    /// page: an invalidation reloads from there.
    @inlinable public var keepsPageCursors: Bool { _storage.keepsPageCursors }

    /// The values, in one shared object: a controller and its state machine each keep the
    /// configuration, and a service keeps thousands of controllers made from one configuration,
    /// so a configuration is one reference (8 bytes) instead of ~136 bytes of values each.
    @usableFromInline let _storage: _Storage

    @usableFromInline final class _Storage: Sendable {
        @usableFromInline let pageSize: Int
        @usableFromInline let loadsInitialPage: Bool
        @usableFromInline let loadMoreDuringRefresh: LoadMoreDuringRefreshPolicy
        @usableFromInline let refreshDuringRefresh: RefreshDuringRefreshPolicy
        @usableFromInline let loadMoreDuringLoadMore: LoadMoreDuringLoadMorePolicy
        @usableFromInline let loadPreviousDuringRefresh: LoadPreviousDuringRefreshPolicy
        @usableFromInline let bothEnds: BothEndsPolicy
        @usableFromInline let refreshMode: RefreshMode
        @usableFromInline let retry: RetryPolicy
        @usableFromInline let timeout: Duration?
        @usableFromInline let duplicates: DuplicatePolicy
        @usableFromInline let maximumEmptyPagesFollowed: Int
        @usableFromInline let maximumItems: Int?
        @usableFromInline let allowsCursorReuse: Bool
        @usableFromInline let keepsPageCursors: Bool

        @usableFromInline init(
            pageSize: Int,
            loadsInitialPage: Bool,
            loadMoreDuringRefresh: LoadMoreDuringRefreshPolicy,
            refreshDuringRefresh: RefreshDuringRefreshPolicy,
            loadMoreDuringLoadMore: LoadMoreDuringLoadMorePolicy,
            loadPreviousDuringRefresh: LoadPreviousDuringRefreshPolicy,
            bothEnds: BothEndsPolicy,
            refreshMode: RefreshMode,
            retry: RetryPolicy,
            timeout: Duration?,
            duplicates: DuplicatePolicy,
            maximumEmptyPagesFollowed: Int,
            maximumItems: Int?,
            allowsCursorReuse: Bool,
            keepsPageCursors: Bool
        ) {
            self.pageSize = pageSize
            self.loadsInitialPage = loadsInitialPage
            self.loadMoreDuringRefresh = loadMoreDuringRefresh
            self.refreshDuringRefresh = refreshDuringRefresh
            self.loadMoreDuringLoadMore = loadMoreDuringLoadMore
            self.loadPreviousDuringRefresh = loadPreviousDuringRefresh
            self.bothEnds = bothEnds
            self.refreshMode = refreshMode
            self.retry = retry
            self.timeout = timeout
            self.duplicates = duplicates
            self.maximumEmptyPagesFollowed = maximumEmptyPagesFollowed
            self.maximumItems = maximumItems
            self.allowsCursorReuse = allowsCursorReuse
            self.keepsPageCursors = keepsPageCursors
        }
    }

    /// The largest accepted ``maximumEmptyPagesFollowed``: each followed page is a request.
    public static let emptyPagesFollowedLimit = 1_000

    /// Creates a configuration; every parameter has the default that reproduces the classic
    /// RxSwift + MJRefresh feed.
    /// - Throws: ``FeedConfigurationError`` for a value that cannot work.
    public init(
        pageSize: Int = 20,
        loadsInitialPage: Bool = true,
        loadMoreDuringRefresh: LoadMoreDuringRefreshPolicy = .cancelRefresh,
        refreshDuringRefresh: RefreshDuringRefreshPolicy = .restart,
        loadMoreDuringLoadMore: LoadMoreDuringLoadMorePolicy = .join,
        loadPreviousDuringRefresh: LoadPreviousDuringRefreshPolicy = .cancelRefresh,
        bothEnds: BothEndsPolicy = .runBoth,
        refreshMode: RefreshMode = .replace,
        retry: RetryPolicy = .none,
        timeout: Duration? = nil,
        duplicates: DuplicatePolicy = .drop,
        maximumEmptyPagesFollowed: Int = 3,
        maximumItems: Int? = nil,
        allowsCursorReuse: Bool = false,
        keepsPageCursors: Bool = false
    ) throws(FeedConfigurationError) {
        guard pageSize >= 1 else { throw .invalidPageSize(pageSize) }
        guard (0...Self.emptyPagesFollowedLimit).contains(maximumEmptyPagesFollowed) else {
            throw .invalidEmptyPagesFollowed(maximumEmptyPagesFollowed)
        }
        if let timeout, timeout <= .zero { throw .nonPositiveTimeout(timeout) }
        if let maximumItems, maximumItems < 1 { throw .invalidMaximumItems(maximumItems) }
        try retry.validate()
        _storage = _Storage(
            pageSize: pageSize,
            loadsInitialPage: loadsInitialPage,
            loadMoreDuringRefresh: loadMoreDuringRefresh,
            refreshDuringRefresh: refreshDuringRefresh,
            loadMoreDuringLoadMore: loadMoreDuringLoadMore,
            loadPreviousDuringRefresh: loadPreviousDuringRefresh,
            bothEnds: bothEnds,
            refreshMode: refreshMode,
            retry: retry,
            timeout: timeout,
            duplicates: duplicates,
            maximumEmptyPagesFollowed: maximumEmptyPagesFollowed,
            maximumItems: maximumItems,
            allowsCursorReuse: allowsCursorReuse,
            keepsPageCursors: keepsPageCursors)
    }

    /// The defaults: pages of 20, initial load on, seed overlap rules (applied to both ends of the
    /// list alike, and loads at the two ends run at once), no retry, no timeout, duplicates
    /// dropped, up to 3 empty pages followed, no bound on the items kept.
    public static let `default`: FeedConfiguration = {
        do { return try FeedConfiguration() } catch { fatalError("the default configuration is valid: \(error)") }
    }()
}

extension FeedConfiguration {
    /// Whether two configurations have the same values.
    public static func == (lhs: FeedConfiguration, rhs: FeedConfiguration) -> Bool {
        if lhs._storage === rhs._storage { return true }
        return lhs.pageSize == rhs.pageSize
            && lhs.loadsInitialPage == rhs.loadsInitialPage
            && lhs.loadMoreDuringRefresh == rhs.loadMoreDuringRefresh
            && lhs.refreshDuringRefresh == rhs.refreshDuringRefresh
            && lhs.loadMoreDuringLoadMore == rhs.loadMoreDuringLoadMore
            && lhs.loadPreviousDuringRefresh == rhs.loadPreviousDuringRefresh
            && lhs.bothEnds == rhs.bothEnds
            && lhs.refreshMode == rhs.refreshMode
            && lhs.retry == rhs.retry
            && lhs.timeout == rhs.timeout
            && lhs.duplicates == rhs.duplicates
            && lhs.maximumEmptyPagesFollowed == rhs.maximumEmptyPagesFollowed
            && lhs.maximumItems == rhs.maximumItems
            && lhs.allowsCursorReuse == rhs.allowsCursorReuse
            && lhs.keepsPageCursors == rhs.keepsPageCursors
    }

    /// Hashes the values.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(pageSize)
        hasher.combine(loadsInitialPage)
        hasher.combine(loadMoreDuringRefresh)
        hasher.combine(refreshDuringRefresh)
        hasher.combine(loadMoreDuringLoadMore)
        hasher.combine(loadPreviousDuringRefresh)
        hasher.combine(bothEnds)
        hasher.combine(refreshMode)
        hasher.combine(retry)
        hasher.combine(timeout)
        hasher.combine(duplicates)
        hasher.combine(maximumEmptyPagesFollowed)
        hasher.combine(maximumItems)
        hasher.combine(allowsCursorReuse)
        hasher.combine(keepsPageCursors)
    }
}
