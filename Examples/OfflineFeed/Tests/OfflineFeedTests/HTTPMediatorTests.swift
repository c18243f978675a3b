#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import AsyncPaging
import AsyncPagingHTTP
import AsyncPagingTesting
import Foundation
import OfflineFeedKit
import Testing

/// The whole example over real HTTP on loopback: the fixture server as the network,
/// AsyncPagingHTTP as the client, the database on disk. Real clocks, bounded by the transport's
/// request timeout (20 s) and the suite's time limit (1 minute); no test waits on time.
@Suite("Offline feed over HTTP (fixture server on 127.0.0.1)", .timeLimit(.minutes(1)))
struct HTTPMediatorTests {
    @Test("the network's pages are stored and listed; a restart without the network shows them, with the refresh side failed")
    func storedThenOffline() async throws {
        let test = try TestDatabase()
        defer { test.remove() }
        let server = try FixtureServer.start()
        defer { server.stop() }
        let online = HTTPRemoteMediator(database: test.database, url: server.cursorURL, pageSize: 10, transport: server.transport)
        let feed = try await OfflineFeed.open(database: test.database, mediator: online, clock: TestClock(), pageSize: 10)
        #expect(feed.initialAction == .launchInitialRefresh)  // nothing stored yet
        let start = await feed.start()
        #expect(start.network?.outcome == .completed(LoadSummary(itemsApplied: 10)))
        #expect(await feed.loadMore().outcome == .completed(LoadSummary(itemsApplied: 10)))
        #expect(feed.controller.currentSnapshot.map(\.id) == Array((31...50).reversed()))
        #expect(try await test.database.edges().endCursor == "31")
        await feed.close()

        // The restart: the same file; the network unreachable (nothing listens on port 9).
        let restarted = try test.reopen()
        let offline = HTTPRemoteMediator(
            database: restarted.database, url: URL(string: "http://127.0.0.1:9/cursor")!, pageSize: 10,
            initialActionWhenStored: .launchInitialRefresh, transport: server.transport)
        let again = try await OfflineFeed.open(database: restarted.database, mediator: offline, clock: TestClock(), pageSize: 10)
        let stored = await again.showStored()
        #expect(stored.outcome == .completed(LoadSummary(itemsApplied: 10)))
        #expect(again.controller.currentSnapshot.map(\.id) == Array((41...50).reversed()))
        let network = await again.refreshIfLaunched()
        guard case .failed(let failure) = network?.outcome else {
            Issue.record("expected the network refresh to fail, got \(String(describing: network))")
            return
        }
        #expect(failure.error is HTTPPageError)
        if case .failed = again.controller.currentLoadStates.refresh {} else {
            Issue.record("refresh is \(again.controller.currentLoadStates.refresh)")
        }
        // The stored list stays usable: the second stored page still loads, from the database.
        #expect(await again.loadMore().outcome == .completed(LoadSummary(itemsApplied: 10)))
        #expect(again.controller.currentSnapshot.count == 20)
        await again.close()
    }
}
