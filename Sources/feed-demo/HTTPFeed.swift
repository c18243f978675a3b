#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import AsyncPaging
import AsyncPagingHTTP

/// `--url`: the feed of a real HTTP JSON API, paged by `AsyncPagingHTTP`'s page source for
/// the scheme; items are read as ``HTTPPageBody`` says.
struct HTTPFeed: Sendable, Equatable {
    let url: URL
    let scheme: HTTPScheme

    /// How long one request may take before it fails (the engine's timeout).
    static let timeout = Duration.seconds(20)

    /// A controller for this API, whatever its cursor type (open the box with a generic function).
    func makeController(
        pageSize: Int,
        loadsInitialPage: Bool = true,
        transport: CountingTransport
    ) throws(FeedConfigurationError) -> any FeedControllerBox {
        let configuration = try FeedConfiguration(
            pageSize: pageSize, loadsInitialPage: loadsInitialPage, timeout: HTTPFeed.timeout)
        switch scheme {
        case .cursor:
            let source = HTTPPageSource<JSONFeedItem, String>.cursorInBody(
                url: url, body: HTTPPageBody.self, items: \.items, next: \.next, transport: transport)
            return FeedController(source: source, configuration: configuration, id: \.id)
        case .link:
            let source = HTTPPageSource<JSONFeedItem, URL>.linkHeader(
                url: url, body: HTTPPageBody.self, items: \.items, transport: transport)
            return FeedController(source: source, configuration: configuration, id: \.id)
        case .offset:
            let source = HTTPPageSource<JSONFeedItem, Int>.offsetLimit(
                url: url, body: HTTPPageBody.self, items: \.items, total: \.total, transport: transport)
            return FeedController(source: source, configuration: configuration, id: \.id)
        case .pages:
            let source = HTTPPageSource<JSONFeedItem, Int>.pageNumbers(
                url: url, body: HTTPPageBody.self, items: \.items, hasMore: \.hasMore, transport: transport)
            return FeedController(source: source, configuration: configuration, id: \.id)
        }
    }
}

/// A controller of ``JSONFeedItem``s whose cursor type is hidden, so that one code path runs
/// every scheme.
protocol FeedControllerBox: Sendable {
    associatedtype Cursor: Hashable & Sendable
    var controller: FeedController<JSONFeedItem, Cursor> { get }
}

extension FeedController: FeedControllerBox where Item == JSONFeedItem {
    nonisolated var controller: FeedController<JSONFeedItem, Cursor> { self }
}
