import AsyncPaging
import AsyncPagingHTTP
import Foundation

/// The service's sessions: one controller per session id.
public typealias FeedSessions = FeedSessionRegistry<String, FeedItem, String>

/// The body of the upstream API (`--upstream`).
struct UpstreamBody: Decodable, Sendable {
    let data: [FeedItem]
    let next_cursor: String?
}

/// The registry of the service: each new session gets a controller over the fake API, or over
/// the upstream API with `AsyncPagingHTTP` (retrying what is worth retrying, 3 attempts).
public func makeSessions(options: ServiceOptions, clock: any Clock<Duration> = ContinuousClock()) throws -> FeedSessions {
    let configuration = try FeedConfiguration(
        pageSize: options.pageSize,
        retry: RetryPolicy(maximumAttempts: 3, initialBackoff: .milliseconds(200), maximumBackoff: .seconds(5)),
        timeout: .seconds(10))
    let upstream = options.upstream.map { url in
        HTTPPageSource<FeedItem, String>.cursorInBody(
            url: url, body: UpstreamBody.self, items: \.data, next: \.next_cursor)
    }
    let fake = FakeFeedAPI(totalItems: options.totalItems, latency: options.latency)
    return try FeedSessions(clock: clock, idleTimeout: options.idleTimeout, maximumCount: options.maximumSessions) { _ in
        if let upstream {
            return FeedController(source: upstream, clock: clock, configuration: configuration, id: \.id)
        }
        return FeedController(source: fake, clock: clock, configuration: configuration, id: \.id)
    }
}
