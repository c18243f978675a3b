import AsyncPaging
import AsyncPagingTesting
import FeedServiceApp
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The service's routes, through Hummingbird's router test client (no sockets).
@Suite("FeedService routes")
struct FeedServiceTests {
    static func options(items: Int = 45, pageSize: Int = 20) -> ServiceOptions {
        var options = ServiceOptions()
        options.totalItems = items
        options.pageSize = pageSize
        return options
    }

    static func decode<T: Decodable>(_ type: T.Type, _ buffer: ByteBuffer) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(buffer: buffer))
    }

    @Test("a session paged to the end through the routes has every item once, in order")
    func pageToTheEnd() async throws {
        let app = try buildApplication(options: Self.options())
        try await app.test(.router) { client in
            let first = try await client.execute(uri: "/sessions/s1/items", method: .get) {
                try Self.decode(ItemsResponse.self, $0.body)
            }
            #expect(first.items.map(\.id) == Array((26...45).reversed()))
            #expect(first.nextCursor == "26")
            var results: [LoadResult] = []
            for _ in 0..<3 {
                results.append(try await client.execute(uri: "/sessions/s1/more", method: .post) {
                    try Self.decode(CommandResponse.self, $0.body).result
                })
            }
            #expect(results[0].outcome == .completed(LoadSummary(itemsApplied: 20)))
            #expect(results[1].outcome == .completed(LoadSummary(itemsApplied: 5, reachedEnd: true)))
            #expect(results[2].outcome == .endOfData)
            let all = try await client.execute(uri: "/sessions/s1/items", method: .get) {
                try Self.decode(ItemsResponse.self, $0.body)
            }
            #expect(all.items.map(\.id) == Array((1...45).reversed()))
            #expect(all.status == .endOfData)
            let tail = try await client.execute(uri: "/sessions/s1/items?from=40", method: .get) {
                try Self.decode(ItemsResponse.self, $0.body)
            }
            #expect(tail.from == 40 && tail.items.map(\.id) == [5, 4, 3, 2, 1])
        }
    }

    @Test("the first load-more of a new session waits for its first page instead of being ignored")
    func moreOnNewSession() async throws {
        let app = try buildApplication(options: Self.options())
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/sessions/fresh/more", method: .post) {
                try Self.decode(CommandResponse.self, $0.body)
            }
            #expect(response.result.outcome == .completed(LoadSummary(itemsApplied: 20)))
            #expect(response.count == 40)
        }
    }

    @Test("sessions are independent; refresh replaces one list; delete closes it")
    func sessionsAndDelete() async throws {
        let sessions = try makeSessions(options: Self.options())
        let app = Application(router: buildRouter(sessions: sessions))
        try await app.test(.router) { client in
            _ = try await client.execute(uri: "/sessions/a/more", method: .post) { $0 }
            let b = try await client.execute(uri: "/sessions/b/items", method: .get) {
                try Self.decode(ItemsResponse.self, $0.body)
            }
            #expect(b.count == 20)
            let refreshed = try await client.execute(uri: "/sessions/a/refresh", method: .post) {
                try Self.decode(CommandResponse.self, $0.body)
            }
            #expect(refreshed.count == 20 && refreshed.result.side == .refresh)
            let retry = try await client.execute(uri: "/sessions/a/retry", method: .post) {
                try Self.decode(CommandResponse.self, $0.body)
            }
            #expect(retry.result.outcome == .ignored(.nothingToRetry))
            #expect(try await client.execute(uri: "/stats", method: .get) { try Self.decode(StatsResponse.self, $0.body) }.sessions == 2)
            let a = await sessions.existingController(for: try SessionID(validating: "a"))
            #expect(try await client.execute(uri: "/sessions/a", method: .delete) { $0.status } == .noContent)
            #expect(try await client.execute(uri: "/sessions/a", method: .delete) { $0.status } == .notFound)
            #expect(a?.currentStatus == .closed)
            #expect(await sessions.openCount == 1)
        }
    }

    @Test("a first page that failed is the answer: items says 502 with the typed failure, more returns the failure")
    func failedFirstPage() async throws {
        var options = Self.options()
        options.upstream = URL(string: "http://127.0.0.1:1/feed") // nothing listens: refused at once
        // URLSession fails a refused connection at once; AsyncHTTPClient (the default) tries to
        // connect again until the request's deadline, so the page times out (504) after 10 s.
        options.upstreamClient = .urlSession
        let sessions = try makeSessions(options: options)
        let app = Application(router: buildRouter(sessions: sessions))
        try await app.test(.router) { client in
            let (status, body) = try await client.execute(uri: "/sessions/down/items", method: .get) {
                ($0.status, String(buffer: $0.body))
            }
            #expect(status == .badGateway)
            // The usual body, its status the typed failure of the first page.
            #expect(body.contains(#""kind":"failed""#) && body.contains(#""side":"refresh""#), "\(body)")
            let more = try await client.execute(uri: "/sessions/down2/more", method: .post) {
                try Self.decode(CommandResponse.self, $0.body)
            }
            #expect(more.result.side == .refresh)
            if case .failed = more.result.outcome {} else { Issue.record("expected the first page's failure, got \(more.result)") }
            #expect(more.count == 0)
        }
    }

    @Test("events stream as server-sent events until the session is deleted")
    func serverSentEvents() async throws {
        var options = Self.options()
        options.latency = .seconds(1)
        let clock = TestClock()
        let sessions = try makeSessions(options: options, clock: clock)
        let app = Application(router: buildRouter(sessions: sessions))
        try await app.test(.router) { client in
            // The session exists before its events are asked for (the route never creates one).
            let feed = await sessions.registry.controller(for: "live")      // its first page waits on the clock
            let events = Task {
                try await client.execute(uri: "/sessions/live/events", method: .get) { response in
                    (response.headers[.contentType], String(buffer: response.body))
                }
            }
            // Rendezvous with the route's subscription (bounded: this test runs on a real server loop).
            let deadline = ContinuousClock.now + .seconds(10)
            while feed.subscriberCounts.events == 0 && ContinuousClock.now < deadline {
                try await ContinuousClock().sleep(for: .milliseconds(5))
            }
            #expect(feed.subscriberCounts.events == 1)
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(1))
            #expect(await feed.waitForFirstPage().outcome == .completed(LoadSummary(itemsApplied: 20)))
            #expect(try await client.execute(uri: "/sessions/live", method: .delete) { $0.status } == .noContent)
            let (contentType, body) = try await events.value
            #expect(contentType == "text/event-stream")
            #expect(body == """
                event: feed
                data: {"kind":"began","side":"refresh"}

                event: feed
                data: {"kind":"ended","reason":{"kind":"completed"},"side":"refresh"}


                """)
        }
    }
}
