import AsyncPaging
import Synchronization

/// The feed's ``AsyncPaging/PageSource``: pages of stored rows by ``RowKey``, read from the
/// database; the network is asked only through the mediator, at the ends and on a network
/// refresh.
///
/// - A refresh reads the first stored rows (or the rows at its cursor), without the network,
///   unless a network refresh was asked for (``requestNetworkRefresh()``): then the mediator's
///   refresh runs first, and its failure fails the refresh (the list stays as it was).
/// - A load at an end reads the stored rows there. When fewer than a page are stored and the
///   network has more at that end, the mediator fetches and stores the network's next page
///   first, and the rows are read again. If the mediator fails, the stored rows are the answer;
///   with none stored there, the load fails with the mediator's error: that side of the feed
///   fails, and the list stays usable.
/// - A page's `next` (`previous`) is `nil` only when no row is stored beyond it and the
///   network said it has no more at that end.
public final class DatabasePageSource: PageSource {
    /// The database read.
    public let database: FeedDatabase
    /// Runs the mediator's loads.
    public let accessor: RemoteMediatorAccessor
    private let networkRefresh = Mutex(false)

    /// Creates the source.
    public init(database: FeedDatabase, accessor: RemoteMediatorAccessor) {
        self.database = database
        self.accessor = accessor
    }

    /// Makes the next refresh of the feed go to the network first (once).
    public func requestNetworkRefresh() {
        networkRefresh.withLock { $0 = true }
    }

    /// The page of stored rows for `request` (see the type's rules).
    public func page(for request: PageRequest<RowKey>) async throws -> Page<Post, RowKey> {
        switch request.side {
        case .refresh:
            if networkRefresh.withLock({ requested in defer { requested = false }; return requested }) {
                _ = try await accessor.load(.refresh)
            }
            let stored = try await database.page(request.cursor, limit: request.pageSize)
            return page(of: stored)
        case .loadMore:
            return try await pageAtEnd(request, type: .append)
        case .loadPrevious:
            return try await pageAtEnd(request, type: .prepend)
        }
    }

    private func pageAtEnd(_ request: PageRequest<RowKey>, type: MediatorLoadType) async throws -> Page<Post, RowKey> {
        let stored = try await database.page(request.cursor, limit: request.pageSize)
        let beyond = type == .append ? stored.hasAfter : stored.hasBefore
        let networkDone = type == .append ? stored.edges.endReached : stored.edges.startReached
        guard stored.rows.count < request.pageSize, !beyond, !networkDone else { return page(of: stored) }
        // The boundary: fewer than a page stored here, and the network may have more.
        do {
            _ = try await accessor.load(type)
        } catch {
            if stored.rows.isEmpty { throw error }
            return page(of: stored)  // what is stored; the next load here asks again
        }
        let reread = try await database.page(request.cursor, limit: request.pageSize)
        let networkDoneNow = type == .append ? reread.edges.endReached : reread.edges.startReached
        if reread.rows.isEmpty && !networkDoneNow { throw OfflineFeedError.mediatorStoredNothing(type) }
        return page(of: reread)
    }

    private func page(of stored: StoredPage) -> Page<Post, RowKey> {
        guard let first = stored.rows.first, let last = stored.rows.last else {
            // Nothing stored here: an empty page that ends the list both ways (a refresh from
            // the network fills it).
            return Page(items: [], previous: nil, next: nil)
        }
        let previous: RowKey? = stored.hasBefore || !stored.edges.startReached ? .before(first.position) : nil
        let next: RowKey? = stored.hasAfter || !stored.edges.endReached ? .from(last.position + 1) : nil
        return Page(items: stored.rows, previous: previous, next: next)
    }
}
