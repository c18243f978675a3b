import AsyncPaging
import AsyncPagingTesting
import Testing

/// The README's examples, compiled and run, so the README cannot drift from the API.
@Suite("README examples")
struct ReadmeExampleTests {
    let firstPosts = posts(0..<15)
    let freshPosts = posts(100..<115)

    @Test func pullToRefreshReplacesTheList() async {
        let clock = TestClock()
        let source = ScriptedPageSource<Post, Int>()
        source.enqueue(.items(firstPosts, next: 1, latency: .seconds(2)),
                       .items(freshPosts, next: 1, latency: .seconds(1)))
        let feed = FeedController(source: source, clock: clock)
        let events = StreamRecorder(feed.events)

        await clock.waitForSleepers(1)          // the initial load waits on its latency
        clock.advance(by: .seconds(2))
        await events.waitForCount(2)            // began(refresh), ended(refresh, completed)

        async let refreshed = feed.refresh()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(await refreshed.outcome == .completed(LoadSummary(itemsApplied: freshPosts.count)))
        #expect(feed.currentSnapshot.map(\.id) == freshPosts.map(\.id))
    }

    @Test func quickStartCompilesAndDropsDuplicatesByID() async throws {
        let feed = FeedController<Post, Int>(
            clock: ImmediateClock(), configuration: try FeedConfiguration(pageSize: 15, loadsInitialPage: false)
        ) { request in
            let start = (request.cursor ?? 0) * 10
            return Page(items: posts(start..<start + 15), next: (request.cursor ?? 0) + 1)
        }
        #expect(await feed.refresh().outcome == .completed(LoadSummary(itemsApplied: 15)))
        // The closure initializer for Identifiable items drops ids already in the list.
        #expect(await feed.loadMore().outcome == .completed(LoadSummary(itemsApplied: 10, droppedDuplicates: 5)))
        await feed.close()
    }
}
