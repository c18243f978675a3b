import AsyncPaging
import AsyncPagingHTTP
import Foundation

/// The body of the upstream API (`--upstream`).
struct UpstreamBody: Decodable, Sendable {
    let data: [FeedItem]
    let next_cursor: String?
}

/// The sessions of the service: each new session gets a controller over the fake API, or over
/// the upstream API with `AsyncPagingHTTP` through ``ServiceOptions/upstreamClient``
/// (AsyncHTTPClient by default; retrying what is worth retrying, 3 attempts); a
/// session restored from `store` shows its saved list and does not refresh
/// (``RestorePolicy/never``: moving to another instance costs no upstream fetch).
public func makeSessions(
    options: ServiceOptions, clock: any Clock<Duration> = ContinuousClock(), store: (any SharedFeedSessionStore)? = nil
) throws -> FeedSessions {
    let configuration = try FeedConfiguration(
        pageSize: options.pageSize,
        retry: RetryPolicy(maximumAttempts: 3, initialBackoff: .milliseconds(200), maximumBackoff: .seconds(5)),
        timeout: .seconds(10))
    let upstream = options.upstream.map { url in
        let transport: any HTTPTransport = switch options.upstreamClient {
        case .asyncHTTPClient: AsyncHTTPClientTransport()
        case .urlSession: URLSessionTransport()
        }
        return HTTPPageSource<FeedItem, String>.cursorInBody(
            url: url, body: UpstreamBody.self, items: \.data, next: \.next_cursor, transport: transport)
    }
    let fake = FakeFeedAPI(totalItems: options.totalItems, latency: options.latency)
    return try FeedSessions(
        store: store, clock: clock, idleTimeout: options.idleTimeout, maximumCount: options.maximumSessions
    ) { _, state in
        if let upstream {
            return FeedController(
                source: upstream, clock: clock, configuration: configuration,
                restoring: state, restorePolicy: .never, id: \.id)
        }
        return FeedController(
            source: fake, clock: clock, configuration: configuration,
            restoring: state, restorePolicy: .never, id: \.id)
    }
}
