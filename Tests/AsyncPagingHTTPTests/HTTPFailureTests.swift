#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import AsyncPaging
import AsyncPagingHTTP
import AsyncPagingTesting

/// Failures of a real HTTP server on 127.0.0.1: statuses, malformed bodies, slow pages,
/// cancelled requests.
@Suite("HTTP failures")
struct HTTPFailureTests {
    static func cursorSource(_ server: FixtureServer, _ query: String) -> HTTPPageSource<FixtureItem, String> {
        .cursorInBody(url: server.url("/cursor?\(query)"), body: CursorBody.self, items: \.data, next: \.next_cursor, transport: server.transport)
    }

    /// The transport of the tests that watch a cancelled request's connection close. On Apple
    /// platforms a cancelled request is cancelled, which closes its connection; on Linux
    /// `URLSessionTransport` leaves the data task running (cancelling one can trap there), so
    /// the connection closes when the request's timeout — 10 s here — ends it. (With 2 s, on a
    /// loaded machine the request's timeout once fired before the engine's 300 ms timeout.)
    static func closingTransport(_ server: FixtureServer) -> URLSessionTransport {
        #if canImport(FoundationNetworking)
        URLSessionTransport(session: server.transport.session, requestTimeout: .seconds(10))
        #else
        server.transport
        #endif
    }

    static func closingCursorSource(_ server: FixtureServer, _ query: String) -> HTTPPageSource<FixtureItem, String> {
        .cursorInBody(url: server.url("/cursor?\(query)"), body: CursorBody.self, items: \.data, next: \.next_cursor, transport: closingTransport(server))
    }

    @Test("503 twice, then a page: the retry policy gets it on the third attempt")
    func serviceUnavailableThenSuccess() async throws {
        let server = try await FixtureServer.start()
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
        let server = try await FixtureServer.start()
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

    @Test("a slow page times out, and the server sees its connection closed (on Linux by the request's timeout)")
    func slowPageTimesOut() async throws {
        let server = try await FixtureServer.start()
        defer { server.stop() }
        try await withDeadline(90, "slow page") {
            // The server watches the slow request for 30 s (with 10 s it missed the close once
            // on a machine loaded by four builds at once), far longer than the timeout takes.
            let feed = FeedController(
                source: Self.closingCursorSource(server, "delay_ms=30000&tag=slow-timeout&always=1"),
                configuration: try FeedConfiguration(pageSize: 10, loadsInitialPage: false, timeout: .milliseconds(300)),
                id: \.id)
            let result = await feed.refresh()
            guard case .failed(let failure) = result.outcome, case FeedError.timedOut = failure.error else {
                Issue.record("refresh: \(result)")
                return
            }
            #expect(try await server.waitUntilClosed(tag: "slow-timeout", timeoutMilliseconds: 25_000))
        }
    }

    @Test("a refresh during a load-more ends the load-more at once, and its connection closes (on Linux by the request's timeout)")
    func refreshCancelsLoadMoreRequest() async throws {
        let server = try await FixtureServer.start()
        defer { server.stop() }
        try await withDeadline(90, "refresh during load-more") {
            // Load-mores (requests with a cursor) are slow; refreshes answer at once. The server
            // watches the slow request for 30 s, far longer than a cancel takes even on a loaded
            // machine (with 10 s windows it missed the close once under load).
            let feed = FeedController(
                source: Self.closingCursorSource(server, "delay_ms=30000&tag=slow-more"),
                configuration: try FeedConfiguration(pageSize: 10, loadsInitialPage: false), id: \.id)
            let diagnostics = StreamRecorder(feed.diagnostics)
            _ = await feed.refresh()
            let loadMore = Task { await feed.loadMore() }
            #expect(try await server.waitUntilStarted(tag: "slow-more"))
            let refresh = await feed.refresh()
            #expect(refresh.outcome == .completed(LoadSummary(itemsApplied: 10)))
            #expect(await loadMore.value.outcome == .cancelled(.preemptedByRefresh))
            #expect(try await server.waitUntilClosed(tag: "slow-more", timeoutMilliseconds: 25_000))
            // The source ended by cancellation as asked: no stale result to discard.
            #expect(await diagnostics.waitFor { $0 == .fetchCancelled(side: .loadMore, attempt: 1) } != nil)
            #expect(!diagnostics.values.contains { if case .staleResultDiscarded = $0 { true } else { false } })
        }
    }

    @Test("400 is not retried by the default retry condition")
    func badRequestNotRetried() async throws {
        let server = try await FixtureServer.start()
        defer { server.stop() }
        try await withDeadline(20, "400 not retried") {
            let feed = FeedController<FixtureItem, String>(
                source: HTTPPageSource.cursorInBody(
                    url: server.url("/status?code=400&key=bad"), body: CursorBody.self, items: \.data, next: \.next_cursor, transport: server.transport),
                configuration: try FeedConfiguration(
                    pageSize: 10, loadsInitialPage: false,
                    retry: RetryPolicy(maximumAttempts: 3, initialBackoff: .milliseconds(10))),
                id: \.id)
            let result = await feed.refresh()
            guard case .failed(let failure) = result.outcome, let error = failure.error as? HTTPPageError else {
                Issue.record("refresh: \(result)")
                return
            }
            #expect(error.statusCode == 400)
            #expect(failure.attempt == 1)
            #expect(try await server.requestCount(key: "bad") == 1)
        }
    }

    @Test("429 with Retry-After: the retry waits what the server asked, shorter or longer than the backoff, capped by the policy, on the injected clock",
          arguments: [
            (retryAfter: 2, initialBackoff: 0, maximumBackoff: 30, expected: 2),
            (retryAfter: 120, initialBackoff: 0, maximumBackoff: 5, expected: 5),
            (retryAfter: 0, initialBackoff: 10, maximumBackoff: 30, expected: 0), // at once, not after the 10 s backoff
            (retryAfter: 3, initialBackoff: 10, maximumBackoff: 30, expected: 3),
          ])
    func retryAfterHonoured(retryAfter: Int, initialBackoff: Int, maximumBackoff: Int, expected: Int) async throws {
        let server = try await FixtureServer.start()
        defer { server.stop() }
        try await withDeadline(20, "429 then success") {
            let clock = TestClock()
            let key = "limited-\(retryAfter)-\(initialBackoff)"
            let retry = RetryPolicy(
                maximumAttempts: 2, initialBackoff: initialBackoff == 0 ? .milliseconds(10) : .seconds(initialBackoff),
                maximumBackoff: .seconds(maximumBackoff))
            let feed = FeedController(
                source: Self.cursorSource(server, "key=\(key)&fail=1&status=429&retry_after=\(retryAfter)&always=1"),
                clock: clock,
                configuration: try FeedConfiguration(pageSize: 10, loadsInitialPage: false, retry: retry), id: \.id)
            let diagnostics = StreamRecorder(feed.diagnostics)
            let refresh = Task { await feed.refresh() }
            let scheduled = await diagnostics.waitFor { if case .retryScheduled = $0 { true } else { false } }
            guard case .retryScheduled(.refresh, 1, let delay, let failure) = scheduled else {
                Issue.record("diagnostic: \(String(describing: scheduled))")
                return
            }
            #expect(delay == .seconds(expected))
            #expect((failure.error as? HTTPPageError)?.statusCode == 429)
            if delay > .zero { // a zero delay does not sleep on the clock: the retry goes at once
                await clock.waitForSleepers(1)
                clock.advance(by: delay)
            }
            #expect(await refresh.value.outcome == .completed(LoadSummary(itemsApplied: 10)))
            #expect(try await server.requestCount(key: key) == 2)
        }
    }

    @Test("a refused connection is a retryable transport error")
    func connectionRefused() async throws {
        // Port 1 on loopback: nothing listens there. (A port freed by a stopped fixture server
        // could be taken at once by another test's server: the request then succeeded.)
        let url = try #require(URL(string: "http://127.0.0.1:1/cursor"))
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
        let server = try await FixtureServer.start()
        defer { server.stop() }
        let source = HTTPPageSource<FixtureItem, String>.cursorInBody(
            url: server.url("/status?code=400"), body: CursorBody.self, items: \.data, next: \.next_cursor, transport: server.transport)
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
        let server = try await FixtureServer.start()
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
