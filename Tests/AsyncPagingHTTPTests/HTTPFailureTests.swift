#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import AsyncPaging
import AsyncPagingHTTP

/// Failures of a real HTTP server on 127.0.0.1: statuses, malformed bodies, slow pages,
/// cancelled requests.
@Suite("HTTP failures")
struct HTTPFailureTests {
    static func cursorSource(_ server: FixtureServer, _ query: String) -> HTTPPageSource<FixtureItem, String> {
        .cursorInBody(url: server.url("/cursor?\(query)"), body: CursorBody.self, items: \.data, next: \.next_cursor)
    }

    @Test("503 twice, then a page: the retry policy gets it on the third attempt")
    func serviceUnavailableThenSuccess() async throws {
        let server = try FixtureServer.start()
        defer { server.stop() }
        try await withDeadline(20, "503 then success") {
            let retry = RetryPolicy(maximumAttempts: 3, initialBackoff: .milliseconds(20), maximumBackoff: .milliseconds(100))
            let feed = FeedController(
                source: Self.cursorSource(server, "key=flaky&fail=2&status=503&always=1"),
                configuration: try FeedConfiguration(pageSize: 10, loadsInitialPage: false, retry: retry), id: \.id)
            let result = await feed.refresh()
            guard case .completed(let summary) = result.outcome else {
                Issue.record("refresh: \(result)")
                return
            }
            #expect(summary.itemsApplied == 10)
            #expect(try await server.requestCount(key: "flaky") == 3)
        }
    }

    @Test("malformed JSON: a typed decoding error, and the list is kept")
    func malformedBody() async throws {
        let server = try FixtureServer.start()
        defer { server.stop() }
        try await withDeadline(20, "malformed JSON") {
            let feed = FeedController(
                source: Self.cursorSource(server, "malformed=1"),
                configuration: try FeedConfiguration(pageSize: 10, loadsInitialPage: false), id: \.id)
            _ = await feed.refresh()
            let before = feed.currentSnapshot.map(\.id)
            #expect(before == Array((41...50).reversed()))
            let result = await feed.loadMore()
            guard case .failed(let failure) = result.outcome, let error = failure.error as? HTTPPageError,
                  case .decoding(_, let excerpt) = error else {
                Issue.record("load-more: \(result)")
                return
            }
            #expect(excerpt.hasPrefix("{\"data\""))
            #expect(!error.isRetryable)
            #expect(feed.currentSnapshot.map(\.id) == before)
        }
    }

    @Test("a slow page times out, and the server sees its connection closed")
    func slowPageTimesOut() async throws {
        let server = try FixtureServer.start()
        defer { server.stop() }
        try await withDeadline(20, "slow page") {
            let feed = FeedController(
                source: Self.cursorSource(server, "delay_ms=10000&tag=slow-timeout&always=1"),
                configuration: try FeedConfiguration(pageSize: 10, loadsInitialPage: false, timeout: .milliseconds(300)),
                id: \.id)
            let result = await feed.refresh()
            guard case .failed(let failure) = result.outcome, case FeedError.timedOut = failure.error else {
                Issue.record("refresh: \(result)")
                return
            }
            #expect(try await server.waitUntilClosed(tag: "slow-timeout"))
        }
    }

    @Test("a refresh during a load-more cancels the load-more's HTTP request")
    func refreshCancelsLoadMoreRequest() async throws {
        let server = try FixtureServer.start()
        defer { server.stop() }
        try await withDeadline(20, "refresh during load-more") {
            // Load-mores (requests with a cursor) are slow; refreshes answer at once.
            let feed = FeedController(
                source: Self.cursorSource(server, "delay_ms=10000&tag=slow-more"),
                configuration: try FeedConfiguration(pageSize: 10, loadsInitialPage: false), id: \.id)
            _ = await feed.refresh()
            let loadMore = Task { await feed.loadMore() }
            #expect(try await server.waitUntilStarted(tag: "slow-more"))
            let refresh = await feed.refresh()
            #expect(refresh.outcome == .completed(LoadSummary(itemsApplied: 10)))
            #expect(await loadMore.value.outcome == .cancelled(.preemptedByRefresh))
            #expect(try await server.waitUntilClosed(tag: "slow-more"))
        }
    }

    @Test("a refused connection is a retryable transport error")
    func connectionRefused() async throws {
        // A port that was just free: bind, read it, close.
        let server = try FixtureServer.start()
        let url = server.url("/cursor")
        server.stop()
        let source = HTTPPageSource<FixtureItem, String>.cursorInBody(
            url: url, body: CursorBody.self, items: \.data, next: \.next_cursor)
        let error = await #expect(throws: HTTPPageError.self) {
            _ = try await withDeadline(20, "refused connection") {
                try await source.page(for: PageRequest(cursor: nil, side: .refresh, pageSize: 5, clock: ContinuousClock()))
            }
        }
        guard case .transport = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(error?.isRetryable == true)
    }

    @Test("a 4xx status is a typed, non-retryable error with the body's start")
    func badRequestStatus() async throws {
        let server = try FixtureServer.start()
        defer { server.stop() }
        let source = HTTPPageSource<FixtureItem, String>.cursorInBody(
            url: server.url("/status?code=400"), body: CursorBody.self, items: \.data, next: \.next_cursor)
        let error = await #expect(throws: HTTPPageError.self) {
            _ = try await withDeadline(20, "400") {
                try await source.page(for: PageRequest(cursor: nil, side: .refresh, pageSize: 5, clock: ContinuousClock()))
            }
        }
        #expect(error?.statusCode == 400)
        #expect(error?.isRetryable == false)
        if case .status(_, let excerpt, let retryAfter) = error {
            #expect(excerpt.contains("status 400"))
            #expect(retryAfter == nil)
        }
    }

    @Test("429 with Retry-After: the delay is on the error")
    func tooManyRequestsCarriesRetryAfter() async throws {
        let server = try FixtureServer.start()
        defer { server.stop() }
        let source = Self.cursorSource(server, "key=limited&fail=1&status=429&retry_after=7&always=1")
        let error = await #expect(throws: HTTPPageError.self) {
            _ = try await withDeadline(20, "429") {
                try await source.page(for: PageRequest(cursor: nil, side: .refresh, pageSize: 5, clock: ContinuousClock()))
            }
        }
        #expect(error?.statusCode == 429)
        #expect(error?.isRetryable == true)
        #expect(error?.retryAfter == .seconds(7))
    }
}
