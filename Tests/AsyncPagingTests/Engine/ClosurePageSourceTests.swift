import AsyncPaging
import AsyncPagingTesting
import Testing

/// A controller made from a closure, as README's Quick start makes one.
@Suite("Closure sources")
struct ClosurePageSourceTests {
    @Test func identifiableItemsFromAClosureAreDeduplicatedByID() async throws {
        let feed = FeedController<Post, Int>(
            clock: ImmediateClock(), configuration: try FeedConfiguration(pageSize: 15, loadsInitialPage: false)
        ) { request in
            // Pages overlap by 5: page n holds posts 10n ..< 10n + 15.
            let start = (request.cursor ?? 0) * 10
            return Page(items: posts(start..<start + 15), next: (request.cursor ?? 0) + 1)
        }
        #expect(await feed.refresh().outcome == .completed(LoadSummary(itemsApplied: 15)))
        // The closure initializer for Identifiable items drops ids already in the list.
        #expect(await feed.loadMore().outcome == .completed(LoadSummary(itemsApplied: 10, droppedDuplicates: 5)))
        #expect(feed.currentSnapshot.map(\.id) == Array(0..<25))
        await feed.close()
    }
}
