import AsyncPaging
import AsyncPagingHTTP
import AsyncPagingTesting
import FeedServiceApp
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Bad ids, wrong methods, upstream failures, stable JSON and released event streams.
@Suite("FeedService hygiene")
struct HygieneTests {
    static func decode<T: Decodable>(_ type: T.Type, _ buffer: ByteBuffer) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(buffer: buffer))
    }

    static func app(items: Int = 45) throws -> (some ApplicationProtocol, FeedSessions) {
        var options = ServiceOptions()
        options.totalItems = items
        let sessions = try makeSessions(options: options)
        return (Application(router: buildRouter(sessions: sessions)), sessions)
    }

    @Test("a session id that is empty, too long, percent-encoded (NUL, invalid UTF-8) or not URL-safe answers 400 and creates nothing")
    func invalidSessionIDs() async throws {
        let (app, sessions) = try Self.app()
        try await app.test(.router) { client in
            let bad = [
                String(repeating: "x", count: SessionID.maximumLength + 1),
                "a%00b", "%FF%FE", "a%20b", "caf%C3%A9", "a*b", "a:b",
            ]
            for id in bad {
                for (uri, method) in [("/sessions/\(id)/items", HTTPRequest.Method.get), ("/sessions/\(id)/more", .post),
                                      ("/sessions/\(id)/events", .get), ("/sessions/\(id)", .delete)] {
                    let (status, body) = try await client.execute(uri: uri, method: method) {
                        ($0.status, try? Self.decode(ServiceError.Body.self, $0.body))
                    }
                    #expect(status == .badRequest, "\(method) \(uri)")
                    #expect(body?.error.kind == .invalidSessionID, "\(method) \(uri)")
                }
            }
            #expect(await sessions.openCount == 0)
            let longest = String(repeating: "a", count: SessionID.maximumLength)
            #expect(try await client.execute(uri: "/sessions/\(longest)/items", method: .get) { $0.status } == .ok)
            #expect(try await client.execute(uri: "/sessions/Az09-_.~/items", method: .get) { $0.status } == .ok)
            #expect(await sessions.openCount == 2)
        }
        #expect(throws: ServiceError.self) { try SessionID(validating: "") }
        #expect(throws: ServiceError.self) { try SessionID(validating: "a\u{0}b") }
        #expect(throws: ServiceError.self) { try SessionID(validating: "é") }
        #expect(throws: ServiceError.self) { try SessionID(validating: String(decoding: [0x61, 0xFF], as: UTF8.self)) }
    }

    @Test("GET …/events of a session that is not open answers 404 and does not create one")
    func eventsDoNotCreate() async throws {
        let (app, sessions) = try Self.app()
        try await app.test(.router) { client in
            let (status, body) = try await client.execute(uri: "/sessions/nobody/events", method: .get) {
                ($0.status, try Self.decode(ServiceError.Body.self, $0.body))
            }
            #expect(status == .notFound && body.error.kind == .sessionNotFound)
            #expect(await sessions.openCount == 0)
            let deleted = try await client.execute(uri: "/sessions/nobody", method: .delete) { $0.status }
            #expect(deleted == .notFound)
        }
    }

    @Test("a method a path does not take answers 405 with Allow, not 404")
    func methodNotAllowed() async throws {
        let (app, sessions) = try Self.app()
        try await app.test(.router) { client in
            let cases: [(String, HTTPRequest.Method, String)] = [
                ("/sessions/a/more", .get, "POST"), ("/sessions/a/refresh", .put, "POST"),
                ("/sessions/a/retry", .delete, "POST"), ("/sessions/a/items", .post, "GET, HEAD"),
                ("/sessions/a/events", .delete, "GET, HEAD"), ("/sessions/a", .get, "DELETE"),
                ("/sessions/a", .post, "DELETE"), ("/stats", .post, "GET, HEAD"), ("/health", .patch, "GET, HEAD"),
            ]
            for (uri, method, allow) in cases {
                let (status, allowHeader, body) = try await client.execute(uri: uri, method: method) {
                    ($0.status, $0.headers[.allow], try? Self.decode(ServiceError.Body.self, $0.body))
                }
                #expect(status == .methodNotAllowed, "\(method) \(uri)")
                #expect(allowHeader == allow, "\(method) \(uri)")
                #expect(body?.error.kind == .methodNotAllowed, "\(method) \(uri)")
            }
            #expect(try await client.execute(uri: "/nowhere", method: .get) { $0.status } == .notFound)
            #expect(await sessions.openCount == 0)
        }
    }

    /// A source whose every page fails with `error`.
    struct FailingSource: PageSource {
        let error: any Error & Sendable
        func page(for request: PageRequest<String>) async throws -> Page<FeedItem, String> { throw error }
    }

    @Test("a load that failed upstream answers 502, 503 (with Retry-After) or 504 with the typed body, not 200",
          arguments: [
            (HTTPPageError.status(503, bodyExcerpt: "", retryAfter: .seconds(2)) as any Error & Sendable, 503, "2"),
            (HTTPPageError.status(500, bodyExcerpt: "boom", retryAfter: nil), 502, nil),
            (HTTPPageError.transport("connection refused"), 502, nil),
            (HTTPPageError.decoding("not JSON", bodyExcerpt: "<html>"), 502, nil),
            (FeedError.timedOut(after: .seconds(10)), 504, nil),
          ] as [(any Error & Sendable, Int, String?)])
    func upstreamFailures(error: any Error & Sendable, status: Int, retryAfter: String?) async throws {
        let sessions = try FeedSessions(store: nil, idleTimeout: nil, maximumCount: nil) { _, _ in
            FeedController(source: FailingSource(error: error), id: \.id)
        }
        let app = Application(router: buildRouter(sessions: sessions))
        try await app.test(.router) { client in
            let items = try await client.execute(uri: "/sessions/s/items", method: .get) { $0 }
            #expect(items.status.code == status)
            #expect(items.headers[.retryAfter] == retryAfter)
            let list = try Self.decode(ItemsResponse.self, items.body)
            guard case .failed(let failure) = list.status else {
                Issue.record("status \(list.status)")
                return
            }
            #expect(String(describing: failure.error) == String(describing: error))
            let more = try await client.execute(uri: "/sessions/s/more", method: .post) { $0 }
            #expect(more.status.code == status)
            let command = try Self.decode(CommandResponse.self, more.body)
            guard case .failed = command.result.outcome else {
                Issue.record("outcome \(command.result.outcome)")
                return
            }
            let retry = try await client.execute(uri: "/sessions/s/retry", method: .post) { $0.status.code }
            #expect(retry == status)
        }
    }

    @Test("the status of a failure: timeout 504, 503/429 503, other upstream answers and transport 502, the clock 500")
    func failureStatuses() {
        func status(_ error: any Error) -> Int {
            UpstreamFailureStatus(FeedFailure(error: error, side: .loadMore, attempt: 1)).status.code
        }
        #expect(status(FeedError.timedOut(after: .seconds(1))) == 504)
        #expect(status(HTTPPageError.status(429, bodyExcerpt: "", retryAfter: nil)) == 503)
        #expect(status(HTTPPageError.status(404, bodyExcerpt: "", retryAfter: nil)) == 502)
        #expect(status(HTTPPageError.invalidPagination("x")) == 502)
        #expect(status(FeedError.repeatedCursor("c")) == 502)
        #expect(status(FeedError.emptyPageClaimsMore) == 502)
        #expect(status(FeedError.clockFailed("x")) == 500)
        #expect(UpstreamFailureStatus(.completed(LoadSummary(itemsApplied: 1))) == nil)
        let fraction = UpstreamFailureStatus(FeedFailure(
            error: HTTPPageError.status(503, bodyExcerpt: "", retryAfter: .milliseconds(1500)), side: .refresh, attempt: 1))
        #expect(fraction.headers[.retryAfter] == "2")
    }

    @Test("JSON answers have their keys sorted, the same order every time")
    func sortedKeys() async throws {
        let (app, _) = try Self.app()
        try await app.test(.router) { client in
            func keysInOrder(_ body: String, _ keys: [String]) -> Bool {
                let positions = keys.map { body.range(of: "\"\($0)\":")?.lowerBound }
                guard positions.allSatisfy({ $0 != nil }) else { return false }
                return zip(positions, positions.dropFirst()).allSatisfy { $0! < $1! }
            }
            for _ in 0..<3 {
                let items = try await client.execute(uri: "/sessions/k/items", method: .get) { String(buffer: $0.body) }
                #expect(items.hasPrefix("{\"count\":"))
                #expect(keysInOrder(items, ["count", "from", "generation", "items", "status", "version"]))
                #expect(items.contains("{\"id\":45,\"title\":\"item 45\"}"))
                let more = try await client.execute(uri: "/sessions/k/more", method: .post) { String(buffer: $0.body) }
                #expect(keysInOrder(more, ["count", "result", "status"]))
                #expect(more.contains("\"outcome\":{\"kind\":"))
                let refused = try await client.execute(uri: "/sessions/k/more", method: .get) { String(buffer: $0.body) }
                #expect(refused.hasPrefix("{\"error\":{\"kind\":\"methodNotAllowed\",\"message\":"))
                let stats = try await client.execute(uri: "/stats", method: .get) { String(buffer: $0.body) }
                #expect(keysInOrder(stats, ["eventStreams", "sessions"]))
            }
        }
    }

    /// The write of a client that hung up.
    struct ClientGone: Error {}

    @Test("an idle event stream writes a heartbeat every interval; a failed write ends the subscription at once")
    func heartbeatReleasesAGoneClient() async throws {
        let feed = FeedController(source: FakeFeedAPI(totalItems: 45), id: \.id)
        _ = await feed.waitForFirstPage()
        let heartbeats = TestClock()
        let driver = Task {
            await heartbeats.waitForSleepers(1)
            heartbeats.advance(by: .seconds(5))     // the first heartbeat is written
            await heartbeats.waitForSleepers(1)
            heartbeats.advance(by: .seconds(5))     // the second finds the client gone
        }
        var written: [String] = []
        await #expect(throws: ClientGone.self) {
            try await writeServerSentEvents(feed.events, heartbeat: .seconds(5), clock: heartbeats) { text in
                if written.count == 1 { throw ClientGone() }
                written.append(text)
            }
        }
        await driver.value
        #expect(written == [": heartbeat\n\n"])
        // The subscription ended with the write that failed, not at the session's next event.
        #expect(feed.subscriberCounts.events == 0)
        await feed.close()
    }

    @Test("an event stream ends when the session closes, with the events written as JSON and no heartbeat due")
    func eventStreamEndsWithTheSession() async throws {
        let feed = FeedController(source: FakeFeedAPI(totalItems: 45), id: \.id)
        _ = await feed.waitForFirstPage()
        let events = feed.events
        let closer = Task {
            // The stream is subscribed (`events` above); a load's events, then the close.
            _ = await feed.loadMore()
            await feed.close()
        }
        var written: [String] = []
        try await writeServerSentEvents(events, heartbeat: .seconds(5), clock: TestClock()) { written.append($0) }
        await closer.value
        #expect(written == [
            "event: feed\ndata: {\"kind\":\"began\",\"side\":\"loadMore\"}\n\n",
            "event: feed\ndata: {\"kind\":\"ended\",\"reason\":{\"kind\":\"completed\"},\"side\":\"loadMore\"}\n\n",
        ])
        #expect(feed.subscriberCounts.events == 0)
    }
}
