import AsyncPaging
import AsyncPagingTesting
import Testing

/// Data that changes under a feed: posts `0..<count` in pages of `pageSize` (cursor `c`: the
/// page at data rows `c * pageSize ..<`, `previous` `c - 1`, `next` `c + 1`), after which new
/// posts (ids -1, -2, …, newest first) can be put at the top, which moves every later post
/// down in its page. Each answer takes `latency`.
final class ChangingData: Sendable {
    let pageSize: Int
    let count: Int
    let latency: Duration
    let insertedAtTop = Locked(0)
    let failing = Locked<Set<Int>>([])

    init(count: Int = 10_000, pageSize: Int = 20, latency: Duration = .zero) {
        self.count = count
        self.pageSize = pageSize
        self.latency = latency
    }

    /// Puts `n` new posts at the top of the data.
    func insertAtTop(_ n: Int) { insertedAtTop.withLock { $0 += n } }

    /// The ids of data rows `rows`, as the data is now.
    func ids(_ rows: Range<Int>) -> [Int] {
        let inserted = insertedAtTop.withLock { $0 }
        return rows.compactMap { row in
            guard row < inserted + count else { return nil }
            return row < inserted ? -(inserted - row) : row - inserted
        }
    }

    /// The page at cursor `cursor` (nil: 0).
    func page(_ cursor: Int?) -> Page<Post, Int> {
        let index = cursor ?? 0
        let total = insertedAtTop.withLock { $0 } + count
        let start = index * pageSize
        let items = ids(start..<Swift.min(start + pageSize, total)).map(Post.init(id:))
        return Page(items: items, previous: index > 0 ? index - 1 : nil, next: start + pageSize < total ? index + 1 : nil)
    }

    /// A scripted source over this data.
    func source() -> PostSource {
        PostSource { [self] request in
            if failing.withLock({ $0.contains(request.cursor ?? 0) }) {
                return .failure(ServerError(code: 500), latency: latency)
            }
            return .page(page(request.cursor), latency: latency)
        }
    }

    /// A saved state of pages `pages` as they are now, to open a feed with many pages at once.
    func state(pages: Range<Int>) throws -> FeedState<Post, Int> {
        try FeedState(pages: pages.map { page($0) })
    }
}

/// A configuration for the reload tests.
func reloadConfiguration(
    pageSize: Int = 20, refreshMode: RefreshMode = .replace, maximumItems: Int? = nil, keepsPageCursors: Bool = true,
    retry: RetryPolicy = .none, loadsInitialPage: Bool = true
) -> FeedConfiguration {
    do {
        return try FeedConfiguration(
            pageSize: pageSize, loadsInitialPage: loadsInitialPage, refreshMode: refreshMode, retry: retry,
            maximumItems: maximumItems, keepsPageCursors: keepsPageCursors)
    } catch {
        fatalError("test configuration: \(error)")
    }
}
