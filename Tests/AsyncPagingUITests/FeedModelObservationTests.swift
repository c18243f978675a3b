import AsyncPaging
import AsyncPagingTesting
import AsyncPagingUI
import Observation
import Synchronization
import Testing

@Suite("FeedModel observation and row reports") @MainActor
struct FeedModelObservationTests {
    struct Post: Identifiable, Sendable, Equatable {
        let id: Int
    }

    /// A model of posts `0..<count` (one page) from a source that answers at once.
    func model(count: Int, prefetchDistance: Int) async -> FeedModel<Post, Int> {
        let source = ScriptedPageSource<Post, Int>()
        if count == 0 {
            source.enqueue(.page([], next: nil)) // an empty feed
        } else {
            source.enqueue(.page((0..<count).map(Post.init), next: 1))
            source.enqueue(.page((count..<count + 5).map(Post.init), next: nil))
        }
        let controller = FeedController<Post, Int>(source: source, clock: TestClock())
        let model = FeedModel(controller: controller, prefetch: PrefetchTrigger(prefetchDistance: prefetchDistance))
        await waitUntil { model.items.count == count && !model.isRefreshing }
        return model
    }

    @Test("an observer of items is told when a page lands, and not when nothing changed")
    func observersSeeRealChangesOnly() async {
        let model = await model(count: 10, prefetchDistance: 0)
        let changes = Mutex(0)
        withObservationTracking { _ = model.items } onChange: { changes.withLock { $0 += 1 } }
        _ = model.rowAppeared(at: 3) // not near the end: changes nothing
        #expect(changes.withLock { $0 } == 0)
        await model.loadMore()
        #expect(model.items.count == 15)
        #expect(changes.withLock { $0 } == 1)
    }

    @Test("rowAppeared(item) searches only the last prefetchDistance + 1 rows")
    func rowAppearedByItem() async {
        let model = await model(count: 10, prefetchDistance: 2)
        #expect(model.rowAppeared(Post(id: 6)) == .skip(.notNearEnd))
        #expect(model.rowAppeared(Post(id: 42)) == .skip(.notNearEnd))
        #expect(model.rowAppeared(Post(id: 7)) == .loadMore)
        #expect(model.rowAppeared(Post(id: 9)) == .skip(.loadInFlight))
        await waitUntil { model.items.count == 15 && model.requestsInFlight == 0 && model.status != .loadingMore }
    }

    @Test("rowAppeared(item) on an empty list loads nothing")
    func rowAppearedOnEmptyList() async {
        let model = await model(count: 0, prefetchDistance: 3)
        #expect(model.rowAppeared(Post(id: 0)) == .skip(.notNearEnd))
    }
}
