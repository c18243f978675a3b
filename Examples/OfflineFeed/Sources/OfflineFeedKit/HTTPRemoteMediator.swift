import AsyncPaging
import AsyncPagingHTTP
import Foundation

/// A ``RemoteMediator`` over an HTTP API whose pages carry the next cursor in their JSON body
/// (the fixture server's `/cursor` route), through AsyncPagingHTTP's ``HTTPPageSource``.
///
/// The network pages forward only (newest first): a refresh stores its first page with nothing
/// before it, so the feed never prepends from the network. The cursor of the next network page
/// is stored with the rows (``NetworkEdges/endCursor``), so that appends go on after a restart.
public struct HTTPRemoteMediator: RemoteMediator {
    /// Where pages are stored.
    public let database: FeedDatabase
    /// The network's pages.
    public let network: HTTPPageSource<NetworkPost, String>
    /// Items asked for in each network request.
    public let pageSize: Int
    /// What ``initialize()`` answers when rows are stored (with none stored it launches a
    /// refresh).
    public let initialActionWhenStored: MediatorInitializeAction

    /// Creates a mediator that fetches from `url` (`url?limit=N`, then `url?cursor=C&limit=N`).
    public init(
        database: FeedDatabase,
        url: URL,
        pageSize: Int = 20,
        initialActionWhenStored: MediatorInitializeAction = .launchInitialRefresh,
        transport: any HTTPTransport = URLSessionTransport()
    ) {
        self.database = database
        self.pageSize = pageSize
        self.initialActionWhenStored = initialActionWhenStored
        network = .cursorInBody(
            url: url, body: NetworkPageBody.self, items: \.data, next: \.next_cursor, transport: transport)
    }

    /// A refresh when nothing is stored; otherwise ``initialActionWhenStored``.
    public func initialize() async -> MediatorInitializeAction {
        let empty = (try? await database.isEmpty()) ?? true
        return empty ? .launchInitialRefresh : initialActionWhenStored
    }

    /// Fetches the network's page for `type` and stores it with its cursor.
    public func load(_ type: MediatorLoadType) async throws -> MediatorResult {
        switch type {
        case .prepend:
            // The network has nothing newer than its first page (a refresh fetches it).
            return MediatorResult(endOfPaginationReached: true)
        case .refresh:
            let page = try await fetch(cursor: nil)
            try await database.storeRefresh(page.items, next: page.next)
            return MediatorResult(endOfPaginationReached: page.next == nil)
        case .append:
            let edges = try await database.edges()
            if edges.endReached { return MediatorResult(endOfPaginationReached: true) }
            // With nothing stored yet the first network page is the one after "nothing".
            let page = try await fetch(cursor: edges.endCursor)
            try await database.storeAppend(page.items, next: page.next)
            return MediatorResult(endOfPaginationReached: page.next == nil)
        }
    }

    private func fetch(cursor: String?) async throws -> Page<NetworkPost, String> {
        try await network.page(for: PageRequest(
            cursor: cursor, side: cursor == nil ? .refresh : .loadMore, pageSize: pageSize, clock: ContinuousClock()))
    }
}
