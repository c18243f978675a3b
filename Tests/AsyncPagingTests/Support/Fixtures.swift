import AsyncPaging
import AsyncPagingTesting

/// A feed item with an id, as most feeds have.
struct Post: Identifiable, Sendable, Hashable, CustomStringConvertible {
    let id: Int
    var title: String { "post \(id)" }
    var description: String { "#\(id)" }
}

/// A source error with a readable message.
struct ServerError: Error, Equatable, CustomStringConvertible {
    var code: Int
    var description: String { "server error \(code)" }
}

typealias PostSource = ScriptedPageSource<Post, Int>
typealias PostFeed = FeedController<Post, Int>

/// Posts `ids`, for pages.
func posts(_ ids: Range<Int>) -> [Post] { ids.map(Post.init(id:)) }

/// The response for page `index` of `size` posts: ids `index*size ..< (index+1)*size`, next
/// cursor `index + 1` (or nil when `last`).
func pageResponse(
    _ index: Int, size: Int = 15, last: Bool = false, latency: Duration = .seconds(2),
    ignoresCancellation: Bool = false
) -> PostSource.Response {
    .page(
        posts(index * size..<(index + 1) * size), next: last ? nil : index + 1,
        latency: latency, ignoresCancellation: ignoresCancellation)
}

/// A configuration that cannot fail to build.
func configuration(
    pageSize: Int = 15,
    loadsInitialPage: Bool = true,
    loadMoreDuringRefresh: LoadMoreDuringRefreshPolicy = .cancelRefresh,
    refreshDuringRefresh: RefreshDuringRefreshPolicy = .restart,
    loadMoreDuringLoadMore: LoadMoreDuringLoadMorePolicy = .join,
    retry: RetryPolicy = .none,
    timeout: Duration? = nil,
    duplicates: DuplicatePolicy = .drop,
    maximumEmptyPagesFollowed: Int = 3
) -> FeedConfiguration {
    do {
        return try FeedConfiguration(
            pageSize: pageSize, loadsInitialPage: loadsInitialPage, loadMoreDuringRefresh: loadMoreDuringRefresh,
            refreshDuringRefresh: refreshDuringRefresh, loadMoreDuringLoadMore: loadMoreDuringLoadMore,
            retry: retry, timeout: timeout, duplicates: duplicates,
            maximumEmptyPagesFollowed: maximumEmptyPagesFollowed)
    } catch {
        fatalError("test configuration is invalid: \(error)")
    }
}

extension FeedSnapshot where Item == Post {
    var ids: [Int] { map(\.id) }
}

extension LoadResult {
    /// `completed` with the given counts.
    static func completed(
        _ side: FeedSide, applied: Int, dropped: Int = 0, reachedEnd: Bool = false, joined: Bool = false
    ) -> LoadResult {
        LoadResult(
            side: side,
            outcome: .completed(LoadSummary(itemsApplied: applied, droppedDuplicates: dropped, reachedEnd: reachedEnd)),
            joinedInFlightLoad: joined)
    }
}

/// Waits until the feed's initial load has ended: the status stream starts with the current
/// status, `.refreshing` from creation until the initial load ends.
func initialLoadEnded<Item, Cursor>(_ feed: FeedController<Item, Cursor>) async {
    for await status in feed.statuses where status != .refreshing { return }
}
