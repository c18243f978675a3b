import AsyncPaging
import AsyncPagingUI
import Testing

@Suite("Prefetch at both ends: decisions")
struct PrefetchTriggerBothEndsTests {
    typealias State = PrefetchTrigger.FeedState

    static let idle = State(loadStates: .idle)
    static let failure = FeedFailure(error: Offline(), side: .loadPrevious, attempt: 1)

    func states(refresh: FeedLoadState = .idle, start: FeedLoadState = .idle, end: FeedLoadState = .idle) -> FeedLoadStates {
        FeedLoadStates(refresh: refresh, loadPrevious: start, loadMore: end)
    }

    @Test func theFirstRowsAreNearTheStart() {
        let trigger = PrefetchTrigger(prefetchDistance: 2)
        #expect(trigger.isNearStart(row: 2, itemCount: 20))
        #expect(!trigger.isNearStart(row: 3, itemCount: 20))
        #expect(!trigger.isNearStart(row: -1, itemCount: 20))
        #expect(!trigger.isNearStart(row: 0, itemCount: 0))
        #expect(trigger.isNearStart(visibleRows: 2..<9, itemCount: 20))
        #expect(!trigger.isNearStart(visibleRows: 3..<19, itemCount: 20))
        #expect(!trigger.isNearStart(visibleRows: 1..<1, itemCount: 20))
    }

    @Test func theGeometryUsesTheTopDistance() {
        let trigger = PrefetchTrigger(topDistance: 200)
        let near = FeedScrollGeometry(contentOffset: 200, contentHeight: 2_000, viewportHeight: 800)
        let far = FeedScrollGeometry(contentOffset: 201, contentHeight: 2_000, viewportHeight: 800)
        let pulled = FeedScrollGeometry(contentOffset: -50, contentHeight: 2_000, viewportHeight: 800)
        #expect(trigger.isNearStart(near))
        #expect(!trigger.isNearStart(far))
        #expect(trigger.isNearStart(pulled))
        #expect(near.distanceToTop == 200)
        #expect(pulled.distanceToTop == -50)
        #expect(FeedScrollGeometry(contentOffset: 0, contentHeight: 10, viewportHeight: 0).distanceToTop == nil)
        #expect(!FeedScrollGeometry(contentOffset: .nan, contentHeight: 10, viewportHeight: 5).isAtTop(within: 1_000))
        #expect(trigger.decisions(for: near, in: Self.idle) == .init(start: .loadPrevious, end: .skip(.notNearEnd)))
        #expect(PrefetchTrigger(topDistance: -1).topDistance == 0)
        #expect(PrefetchTrigger(topDistance: .nan).topDistance == 0)
    }

    @Test(arguments: [
        (FeedLoadState.idle, PrefetchTrigger.Decision.loadPrevious),
        (.loading, .skip(.loadInFlight)),
        (.reachedEnd, .skip(.endOfData)),
        (.failed(failure), .skip(.failed)),
    ])
    func theStartDecidesFromItsOwnSide(start: FeedLoadState, expected: PrefetchTrigger.Decision) {
        let trigger = PrefetchTrigger()
        // The end's state does not matter to the start...
        for end in [FeedLoadState.idle, .loading, .reachedEnd, .failed(Self.failure)] {
            let feed = State(loadStates: states(start: start, end: end))
            #expect(trigger.decision(at: .start, near: true, in: feed) == expected)
            // ... nor the start's to the end.
            let mirrored = State(loadStates: states(start: end, end: start))
            #expect(trigger.decision(at: .end, near: true, in: mirrored) == (expected == .loadPrevious ? .loadMore : expected))
        }
    }

    @Test func aRefreshAClosedFeedOrAPendingRequestBlocks() {
        let trigger = PrefetchTrigger()
        for edge in PrefetchTrigger.Edge.allCases {
            #expect(trigger.decision(at: edge, near: false, in: Self.idle) == .skip(.notNearEnd))
            #expect(trigger.decision(at: edge, near: true, in: State(loadStates: states(refresh: .loading))) == .skip(.loadInFlight))
            #expect(trigger.decision(at: edge, near: true, in: State(loadStates: .idle, isClosed: true)) == .skip(.closed))
            #expect(trigger.decision(at: edge, near: true, in: State(loadStates: .idle, pendingSides: [edge.side])) == .skip(.loadInFlight))
            #expect(trigger.decision(at: edge, near: true, in: State(loadStates: .idle, pendingSides: [.refresh])) == .skip(.loadInFlight))
            // A pending request at the other end blocks only under cancelOther.
            let otherPending = State(loadStates: .idle, pendingSides: [edge.opposite.side])
            #expect(trigger.decision(at: edge, near: true, in: otherPending) == edge.load)
            var cancelOther = otherPending
            cancelOther.bothEnds = .cancelOther
            #expect(trigger.decision(at: edge, near: true, in: cancelOther) == .skip(.loadInFlight))
            // A failed refresh does not stop the ends.
            let failedRefresh = FeedFailure(error: Offline(), side: .refresh, attempt: 1)
            #expect(trigger.decision(at: edge, near: true, in: State(loadStates: states(refresh: .failed(failedRefresh)))) == edge.load)
        }
    }

    @Test func bothEndsLoadAtOnceUnlessThePolicyCancelsTheOther() {
        let trigger = PrefetchTrigger(prefetchDistance: 5)
        let both = trigger.decisions(forVisibleRows: 0..<10, itemCount: 10, in: Self.idle)
        #expect(both == .init(start: .loadPrevious, end: .loadMore))
        #expect(both.sides == [.loadMore, .loadPrevious])
        #expect(both.summary == .loadMore)
        let oneAtATime = trigger.decisions(
            forVisibleRows: 0..<10, itemCount: 10, in: State(loadStates: .idle, bothEnds: .cancelOther))
        #expect(oneAtATime == .init(start: .skip(.loadInFlight), end: .loadMore))
        #expect(oneAtATime.sides == [.loadMore])
        let endLoading = trigger.decisions(
            forVisibleRows: 0..<10, itemCount: 10, in: State(loadStates: states(end: .loading), bothEnds: .cancelOther))
        #expect(endLoading == .init(start: .skip(.loadInFlight), end: .skip(.loadInFlight)))
    }

    @Test func theSummaryReadsLikeTheOneEndedDecision() {
        let trigger = PrefetchTrigger(prefetchDistance: 2)
        let fromTheFirstPage = State(loadStates: states(start: .reachedEnd))
        // Near a start at the start of the data: what the one-ended decision answers.
        #expect(trigger.decisions(forRow: 1, itemCount: 20, in: fromTheFirstPage).summary == .skip(.notNearEnd))
        #expect(trigger.decision(forRow: 1, itemCount: 20, status: .idle, requestPending: false) == .skip(.notNearEnd))
        // Near a start that loads, or cannot load for now: the start's answer.
        #expect(trigger.decisions(forRow: 1, itemCount: 20, in: Self.idle).summary == .loadPrevious)
        #expect(trigger.decisions(forRow: 1, itemCount: 20, in: State(loadStates: states(start: .loading))).summary
            == .skip(.loadInFlight))
        // Near the end: the end's answer first.
        #expect(trigger.decisions(forRow: 19, itemCount: 20, in: State(loadStates: states(end: .reachedEnd))).summary
            == .skip(.endOfData))
        #expect(trigger.decisions(forRow: 10, itemCount: 20, in: Self.idle).summary == .skip(.notNearEnd))
        #expect("\(trigger.decisions(forRow: 19, itemCount: 20, in: Self.idle))" == "start: skip(notNearEnd), end: loadMore")
    }
}
