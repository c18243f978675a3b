import AsyncPaging
import AsyncPagingUI
import Testing

@Suite("Prefetch by index: decisions")
struct PrefetchTriggerTests {
    @Test func withNoDistanceOnlyTheLastRowIsNearTheEnd() {
        let trigger = PrefetchTrigger()
        #expect(trigger.isNearEnd(row: 19, itemCount: 20))
        #expect(!trigger.isNearEnd(row: 18, itemCount: 20))
    }

    @Test func theDistanceCountsTheRowsThatMayFollow() {
        let trigger = PrefetchTrigger(prefetchDistance: 5)
        #expect(trigger.isNearEnd(row: 14, itemCount: 20))
        #expect(!trigger.isNearEnd(row: 13, itemCount: 20))
    }

    @Test func negativeIndicesAndEmptyListsAreNeverNearTheEnd() {
        let trigger = PrefetchTrigger(prefetchDistance: 100)
        #expect(!trigger.isNearEnd(row: -1, itemCount: 20))
        #expect(!trigger.isNearEnd(row: 0, itemCount: 0))
    }

    @Test func anIndexPastTheEndIsNearTheEnd() {
        #expect(PrefetchTrigger().isNearEnd(row: 29, itemCount: 15))
    }

    @Test func theLastVisibleRowDecides() {
        let trigger = PrefetchTrigger(prefetchDistance: 2)
        #expect(trigger.isNearEnd(visibleRows: 5..<18, itemCount: 20))
        #expect(!trigger.isNearEnd(visibleRows: 5..<17, itemCount: 20))
        #expect(!trigger.isNearEnd(visibleRows: 19..<19, itemCount: 20))
    }

    @Test func theGeometryUsesTheBottomDistance() {
        let trigger = PrefetchTrigger(bottomDistance: 300)
        let near = FeedScrollGeometry(contentOffset: 900, contentHeight: 2_000, viewportHeight: 800)
        let far = FeedScrollGeometry(contentOffset: 899, contentHeight: 2_000, viewportHeight: 800)
        #expect(trigger.isNearEnd(near))
        #expect(!trigger.isNearEnd(far))
        #expect(trigger.decision(for: near, status: .idle, requestPending: false) == .loadMore)
    }

    @Test func badDistancesCountAsZero() {
        #expect(PrefetchTrigger(prefetchDistance: -3).prefetchDistance == 0)
        #expect(PrefetchTrigger(bottomDistance: -3).bottomDistance == 0)
        #expect(PrefetchTrigger(bottomDistance: .nan).bottomDistance == 0)
    }

    static let failure = FeedFailure(error: Offline(), side: .loadMore, attempt: 1)

    @Test(arguments: [
        (FeedStatus.idle, PrefetchTrigger.Decision.loadMore),
        (.refreshing, .skip(.loadInFlight)),
        (.loadingMore, .skip(.loadInFlight)),
        (.endOfData, .skip(.endOfData)),
        (.failed(failure), .skip(.failed)),
        (.closed, .skip(.closed)),
    ])
    func theStatusDecidesNearTheEnd(status: FeedStatus, expected: PrefetchTrigger.Decision) {
        #expect(PrefetchTrigger().decision(forRow: 19, itemCount: 20, status: status, requestPending: false) == expected)
    }

    @Test func aPendingRequestBlocksTheNextOne() {
        let trigger = PrefetchTrigger()
        #expect(trigger.decision(forRow: 19, itemCount: 20, status: .idle, requestPending: true) == .skip(.loadInFlight))
    }

    @Test(arguments: [FeedStatus.idle, .refreshing, .endOfData, .closed])
    func aRowFarFromTheEndIsNotNearTheEndWhateverTheStatus(status: FeedStatus) {
        let decision = PrefetchTrigger().decision(forRow: 3, itemCount: 20, status: status, requestPending: true)
        #expect(decision == .skip(.notNearEnd))
    }

    @Test func visibleRowsDecideLikeTheirLastRow() {
        let trigger = PrefetchTrigger(prefetchDistance: 1)
        #expect(trigger.decision(forVisibleRows: 10..<19, itemCount: 20, status: .idle, requestPending: false) == .loadMore)
        #expect(trigger.decision(forVisibleRows: 10..<18, itemCount: 20, status: .idle, requestPending: false)
            == .skip(.notNearEnd))
    }
}
