#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import AsyncPaging
import AsyncPagingHTTP

/// `--url … --all`: lists every item of the API, on a terminal or not, through the engine's item
/// sequence (`source.items(...)`) rather than a feed: each page is fetched when the one before
/// has been printed, so memory stays flat however long the API is. There is no page limit: the
/// listing runs to the end of the data (the repeated-cursor and empty-page guards stop an API
/// that loops); Ctrl-C ends it sooner. Retryable failures (a 503, a 429, a timeout) are retried
/// up to twice, waiting as the server's `Retry-After` asks (at most 5 s). Exit 0 at the end of
/// the data, 1 on a failure.
struct HTTPSequenceListing {
    let options: ResolvedOptions

    /// Three tries per page, 0.5 s then 1 s apart, or as long as `Retry-After` says up to 5 s.
    static let retry = RetryPolicy(
        maximumAttempts: 3, initialBackoff: .milliseconds(500), multiplier: 2, maximumBackoff: .seconds(5))

    func run() async -> Int32 {
        guard let http = options.http else { return 2 }
        let transport = CountingTransport()
        Terminal.output("feed-demo: GET \(http.url.absoluteString) · scheme \(http.scheme) · page size \(options.pageSize) · every page\n")
        let configuration: FeedConfiguration
        do {
            configuration = try FeedConfiguration(pageSize: options.pageSize, retry: Self.retry, timeout: HTTPFeed.timeout)
        } catch {
            Terminal.writeError("feed-demo: invalid configuration: \(error)\n")
            return 2
        }
        let url = http.url
        switch http.scheme {
        case .cursor:
            let source = HTTPPageSource<JSONFeedItem, String>.cursorInBody(
                url: url, body: HTTPPageBody.self, items: \.items, next: \.next, transport: transport)
            return await list(source.items(configuration: configuration, id: \.id), transport: transport)
        case .link:
            let source = HTTPPageSource<JSONFeedItem, URL>.linkHeader(
                url: url, body: HTTPPageBody.self, items: \.items, transport: transport)
            return await list(source.items(configuration: configuration, id: \.id), transport: transport)
        case .offset:
            let source = HTTPPageSource<JSONFeedItem, Int>.offsetLimit(
                url: url, body: HTTPPageBody.self, items: \.items, total: \.total, transport: transport)
            return await list(source.items(configuration: configuration, id: \.id), transport: transport)
        case .pages:
            let source = HTTPPageSource<JSONFeedItem, Int>.pageNumbers(
                url: url, body: HTTPPageBody.self, items: \.items, hasMore: \.hasMore, transport: transport)
            return await list(source.items(configuration: configuration, id: \.id), transport: transport)
        }
    }

    /// Prints each item as a numbered line as it arrives, then how the listing ended.
    private func list<Source: PageSource>(_ items: ItemSequence<Source>, transport: CountingTransport) async -> Int32 where Source.Item == JSONFeedItem {
        var count = 0
        do {
            for try await item in items {
                count += 1
                let number = String(count)
                Terminal.output(String(repeating: " ", count: max(0, 2 - number.count)) + "\(number)  \(item.line(idWidth: 3))\n")
            }
        } catch {
            Terminal.output("✗ \(EventText.name(of: error.side)) failed (try \(error.attempt)): \(EventText.error(error.error)) · \(count) items listed · api: \(transport.summary)\n")
            return 1
        }
        Terminal.output("── no more data · all \(count) items listed ── api: \(transport.summary)\n")
        return 0
    }
}
