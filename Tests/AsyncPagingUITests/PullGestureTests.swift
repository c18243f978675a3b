import AsyncPaging
import AsyncPagingUI
import Testing

@Suite("Pull gesture: state machine")
struct PullGestureTests {
    @Test func aNewGestureIsStoppedAndAvailable() {
        let gesture = PullGesture.header()
        #expect(gesture.state == .stopped)
        #expect(gesture.progress == 0)
        #expect(gesture.side == .refresh)
        #expect(PullGesture.footer().side == .loadMore)
    }

    @Test func pullingReportsProgressAndTriggersAtTheThreshold() {
        var gesture = PullGesture.header(threshold: 80)
        gesture.pull(by: 40)
        #expect(gesture.state == .stopped)
        #expect(gesture.progress == 0.5)
        gesture.pull(by: 80)
        #expect(gesture.state == .triggered)
        #expect(gesture.progress == 1)
        gesture.pull(by: 200)
        #expect(gesture.progress == 1)
        gesture.pull(by: 79)
        #expect(gesture.state == .stopped)
    }

    @Test(arguments: [-30.0, .nan, -.infinity])
    func negativeAndNaNPullsCountAsZero(distance: Double) {
        var gesture = PullGesture.header()
        gesture.pull(by: distance)
        #expect(gesture.progress == 0)
        #expect(gesture.state == .stopped)
    }

    @Test func anInfinitePullTriggers() {
        var gesture = PullGesture.footer()
        gesture.pull(by: .infinity)
        #expect(gesture.state == .triggered)
    }

    @Test func releasingBeforeTheThresholdStartsNothing() {
        var gesture = PullGesture.header(threshold: 80)
        gesture.pull(by: 60)
        #expect(gesture.release() == nil)
        #expect(gesture.state == .stopped)
        #expect(gesture.progress == 0)
    }

    @Test(arguments: [(PullGesture.header(), FeedRequest.refresh), (.footer(), .loadMore)])
    func releasingWhileTriggeredStartsTheSidesRequest(gesture: PullGesture, request: FeedRequest) {
        var gesture = gesture
        gesture.pull(by: 100)
        #expect(gesture.release() == request)
        #expect(gesture.state == .loading)
        #expect(gesture.progress == 0)
        #expect(gesture.isRequestPending)
    }

    @Test func theMatchingEndEventStopsTheLoad() {
        var gesture = PullGesture.header()
        gesture.pull(by: 100)
        _ = gesture.release()
        gesture.handle(.began(.refresh))
        #expect(gesture.state == .loading)
        #expect(!gesture.isRequestPending)
        gesture.pull(by: 100)
        #expect(gesture.state == .loading)
        #expect(gesture.release() == nil)
        gesture.handle(.ended(.refresh, .completed))
        #expect(gesture.state == .stopped)
        #expect(gesture.progress == 0)
    }

    @Test func eventsOfTheOtherSideChangeNothing() {
        var gesture = PullGesture.footer()
        gesture.pull(by: 100)
        _ = gesture.release()
        gesture.handle(.began(.refresh))
        gesture.handle(.ended(.refresh, .completed))
        #expect(gesture.state == .loading)
        #expect(gesture.isRequestPending)
        gesture.handle(.began(.loadMore))
        gesture.handle(.ended(.loadMore, .cancelled(.preemptedByRefresh)))
        #expect(gesture.state == .stopped)
    }

    @Test func aLoadStartedElsewhereShowsAsLoading() {
        var gesture = PullGesture.header()
        gesture.handle(.began(.refresh))
        #expect(gesture.state == .loading)
        gesture.handle(.ended(.refresh, .failed(FeedFailure(error: Offline(), side: .refresh, attempt: 1))))
        #expect(gesture.state == .stopped)
    }

    @Test func anAnswerThatStartedNoLoadStopsTheGesture() {
        var gesture = PullGesture.footer()
        gesture.pull(by: 100)
        _ = gesture.release()
        gesture.requestAnswered()
        #expect(gesture.state == .stopped)
    }

    @Test func theStatusCanDriveTheLoadInsteadOfEvents() {
        var gesture = PullGesture.header()
        gesture.pull(by: 100)
        _ = gesture.release()
        gesture.setLoading(false) // the request has not reached the feed yet: no change
        #expect(gesture.state == .loading)
        gesture.setLoading(true)
        #expect(!gesture.isRequestPending)
        gesture.setLoading(true)
        #expect(gesture.state == .loading)
        gesture.setLoading(false)
        #expect(gesture.state == .stopped)
    }

    @Test func theEndOfALoadDropsAPullMadeDuringIt() {
        var gesture = PullGesture.header()
        gesture.setLoading(true)
        gesture.pull(by: 100)
        gesture.setLoading(false)
        #expect(gesture.progress == 0)
        #expect(gesture.state == .stopped)
    }

    @Test func anUnavailableGestureIsInvalidAndCannotTrigger() {
        var gesture = PullGesture.footer()
        gesture.setAvailable(false)
        #expect(gesture.state == .invalid)
        gesture.pull(by: 100)
        #expect(gesture.state == .invalid)
        #expect(gesture.progress == 0)
        #expect(gesture.release() == nil)
        gesture.setAvailable(true)
        #expect(gesture.state == .stopped)
    }

    @Test func aLoadingGestureStaysLoadingUntilItsEndThenBecomesInvalid() {
        var gesture = PullGesture.footer()
        gesture.handle(.began(.loadMore))
        gesture.setAvailable(false)
        #expect(gesture.state == .loading)
        gesture.handle(.ended(.loadMore, .endOfData))
        #expect(gesture.state == .invalid)
    }

    static let failure = FeedFailure(error: Offline(), side: .loadMore, attempt: 1)

    @Test(arguments: [
        (FeedStatus.idle, true), (.loadingMore, true), (.refreshing, true), (.endOfData, true),
        (.failed(failure), true), (.closed, false),
    ])
    func aRefreshIsAvailableUntilClose(status: FeedStatus, available: Bool) {
        for policy in [LoadMoreDuringRefreshPolicy.cancelRefresh, .ignoreLoadMore] {
            for loaded in [false, true] {
                #expect(PullGesture.isAvailable(
                    .refresh, status: status, hasLoadedFirstPage: loaded,
                    configuration: configuration(loadMoreDuringRefresh: policy)) == available)
            }
        }
    }

    @Test(arguments: [
        // status, first page loaded, policy, available
        (FeedStatus.idle, true, LoadMoreDuringRefreshPolicy.cancelRefresh, true),
        (.loadingMore, true, .cancelRefresh, true),
        (.failed(failure), true, .cancelRefresh, true),
        (.endOfData, true, .cancelRefresh, false),
        (.closed, true, .cancelRefresh, false),
        (.refreshing, true, .cancelRefresh, true),
        (.refreshing, false, .cancelRefresh, false),
        (.refreshing, true, .ignoreLoadMore, false),
        (.idle, true, .ignoreLoadMore, true),
    ])
    func aLoadMoreIsUnavailableAtTheEndOrWhenTheOverlapPolicyWouldIgnoreIt(
        status: FeedStatus, loaded: Bool, policy: LoadMoreDuringRefreshPolicy, available: Bool
    ) {
        #expect(PullGesture.isAvailable(
            .loadMore, status: status, hasLoadedFirstPage: loaded,
            configuration: configuration(loadMoreDuringRefresh: policy)) == available)
    }
}
