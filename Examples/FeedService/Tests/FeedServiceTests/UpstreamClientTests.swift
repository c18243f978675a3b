import AsyncPaging
import FeedServiceApp
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// `--upstream` through either client: AsyncHTTPClient by default, URLSession when asked.
@Suite("Upstream client")
struct UpstreamClientTests {
    @Test("--upstream-client: AsyncHTTPClient unless urlsession is asked for; anything else is refused")
    func parsing() throws {
        #expect(try ServiceOptions(arguments: ["--upstream", "http://127.0.0.1:9/feed"]).upstreamClient == .asyncHTTPClient)
        #expect(try ServiceOptions(arguments: ["--upstream-client", "urlsession"]).upstreamClient == .urlSession)
        #expect(try ServiceOptions(arguments: ["--upstream-client", "async-http-client"]).upstreamClient == .asyncHTTPClient)
        #expect(throws: OptionsError.self) { try ServiceOptions(arguments: ["--upstream-client", "curl"]) }
    }

    @Test("a session over the upstream pages to the end through the routes, every item once, in order", arguments: UpstreamClient.allCases)
    func pageToTheEnd(client upstreamClient: UpstreamClient) async throws {
        let upstream = try FixtureUpstream.start()
        defer { upstream.stop() }
        var options = ServiceOptions()
        options.upstream = upstream.url("/cursor?key=service-\(upstreamClient.rawValue)")
        options.upstreamClient = upstreamClient
        options.pageSize = 20
        let app = Application(router: buildRouter(sessions: try makeSessions(options: options)))
        try await app.test(.router) { client in
            var outcomes: [LoadOutcome] = []
            for _ in 0..<3 {
                outcomes.append(try await client.execute(uri: "/sessions/up/more", method: .post) {
                    try JSONDecoder().decode(CommandResponse.self, from: Data(buffer: $0.body)).result.outcome
                })
            }
            #expect(outcomes == [
                .completed(LoadSummary(itemsApplied: 20)),
                .completed(LoadSummary(itemsApplied: 10, reachedEnd: true)),
                .endOfData,
            ])
            let items = try await client.execute(uri: "/sessions/up/items", method: .get) {
                try JSONDecoder().decode(ItemsResponse.self, from: Data(buffer: $0.body))
            }
            #expect(items.items.map(\.id) == Array((1...50).reversed()))
        }
        #expect(try await upstream.control("/control/requests?key=service-\(upstreamClient.rawValue)")["count"] as? Int == 3)
    }
}
