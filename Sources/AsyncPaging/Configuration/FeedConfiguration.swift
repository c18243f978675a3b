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
    public let pageSize: Int
    /// Whether the controller starts loading the first page as soon as it is created.
    public let loadsInitialPage: Bool
    /// What `loadMore()` does while a refresh is in flight.
    public let loadMoreDuringRefresh: LoadMoreDuringRefreshPolicy
    /// What `refresh()` does while another refresh is in flight.
    public let refreshDuringRefresh: RefreshDuringRefreshPolicy
    /// What `loadMore()` does while another load-more is in flight (and `loadPrevious()` while
    /// another load-previous is).
    public let loadMoreDuringLoadMore: LoadMoreDuringLoadMorePolicy
    /// What `loadPrevious()` does while a refresh is in flight.
    public let loadPreviousDuringRefresh: LoadPreviousDuringRefreshPolicy
    /// Whether a load at one end of the list lets a load at the other end run on.
    public let bothEnds: BothEndsPolicy
    /// Whether a refresh replaces the list or merges new items in at its head.
    public let refreshMode: RefreshMode
    /// Automatic retries of a failed load.
    public let retry: RetryPolicy
    /// How long one fetch may take, on the controller's clock, before it is cancelled and
    /// fails with ``FeedError/timedOut(after:)``; `nil` waits as long as the source takes.
    public let timeout: Duration?
    /// What happens to items whose id is already in the list.
    public let duplicates: DuplicatePolicy
    /// How many empty pages that still claim more one load follows by itself, applying
    /// nothing, before it fails with ``FeedError/emptyPageClaimsMore`` (a server that filters a
    /// page can legitimately send one). 0 fails at the first such page.
    public let maximumEmptyPagesFollowed: Int

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
        maximumEmptyPagesFollowed: Int = 3
    ) throws(FeedConfigurationError) {
        guard pageSize >= 1 else { throw .invalidPageSize(pageSize) }
        guard (0...Self.emptyPagesFollowedLimit).contains(maximumEmptyPagesFollowed) else {
            throw .invalidEmptyPagesFollowed(maximumEmptyPagesFollowed)
        }
        if let timeout, timeout <= .zero { throw .nonPositiveTimeout(timeout) }
        try retry.validate()
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
    }

    /// The defaults: pages of 20, initial load on, seed overlap rules (applied to both ends of the
    /// list alike, and loads at the two ends run at once), no retry, no timeout, duplicates
    /// dropped, up to 3 empty pages followed.
    public static let `default`: FeedConfiguration = {
        do { return try FeedConfiguration() } catch { fatalError("the default configuration is valid: \(error)") }
    }()
}
