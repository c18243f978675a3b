#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import AsyncPaging
import AsyncPagingHTTP

/// Every pagination scheme against the fixture server on 127.0.0.1, paged to the end while new
/// items are inserted at the head before every load-more: each of the 50 items must be in the
/// list exactly once, newest first (offset and page schemes repeat items, which the
/// controller's duplicate policy drops).
@Suite("pagination schemes over HTTP")
struct PaginationSchemeTests {
    enum Scheme: String, CaseIterable, Sendable {
        case cursorInBody, linkHeader, offsetLimit, pageNumbers
    }

    @Test("paged to the end while items are inserted at the head", arguments: Scheme.allCases)
    func pagedToTheEnd(scheme: Scheme) async throws {
        let server = try await FixtureServer.start()
        defer { server.stop() }
        try await withDeadline(30, "paging \(scheme)") {
            let configuration = try FeedConfiguration(pageSize: 7, loadsInitialPage: false)
            let ids: [Int]
            switch scheme {
            case .cursorInBody:
                let source = HTTPPageSource<FixtureItem, String>.cursorInBody(
                    url: server.url("/cursor"), body: CursorBody.self, items: \.data, next: \.next_cursor, transport: server.transport)
                ids = try await Self.page(FeedController(source: source, configuration: configuration, id: \.id), server)
            case .linkHeader:
                let source = HTTPPageSource<FixtureItem, URL>.linkHeader(
                    url: server.url("/link"), body: [FixtureItem].self, items: { $0 }, transport: server.transport)
                ids = try await Self.page(FeedController(source: source, configuration: configuration, id: \.id), server)
            case .offsetLimit:
                let source = HTTPPageSource<FixtureItem, Int>.offsetLimit(
                    url: server.url("/offset"), body: ItemsBody.self, items: \.items, total: \.total, transport: server.transport)
                ids = try await Self.page(FeedController(source: source, configuration: configuration, id: \.id), server)
            case .pageNumbers:
                let source = HTTPPageSource<FixtureItem, Int>.pageNumbers(
                    url: server.url("/pages"), body: ItemsBody.self, items: \.items, hasMore: \.has_more, transport: server.transport)
                ids = try await Self.page(FeedController(source: source, configuration: configuration, id: \.id), server)
            }
            #expect(ids == Array((1...50).reversed()))
        }
    }

    /// Refreshes once, then inserts two items at the head and loads more, until the end.
    static func page<Cursor>(_ feed: FeedController<FixtureItem, Cursor>, _ server: FixtureServer) async throws -> [Int] {
        let first = await feed.refresh()
        guard case .completed = first.outcome else {
            Issue.record("first page: \(first)")
            return []
        }
        var loads = 0
        while loads < 40 {
            loads += 1
            try await server.insertAtHead(2)
            let result = await feed.loadMore()
            switch result.outcome {
            case .completed(let summary):
                if summary.reachedEnd { return feed.currentSnapshot.map(\.id) }
            case .endOfData:
                return feed.currentSnapshot.map(\.id)
            default:
                Issue.record("load-more \(loads): \(result)")
                return feed.currentSnapshot.map(\.id)
            }
        }
        Issue.record("no end after \(loads) load-mores")
        return feed.currentSnapshot.map(\.id)
    }
}
