@testable import AsyncPaging
import Testing

/// The paging rules of one end (refresh and load-more), tested synchronously on the pure state
/// machine: every test compares the whole list of actions, in order, as values.
@Suite("State machine: refresh and load-more")
struct FeedStateMachineTests {
    typealias Machine = MachineTest.Machine
    typealias M = MachineTest

    let error = ServerError(code: 500)

    func failure(_ side: FeedSide, attempt: Int = 1) -> FeedFailure {
        FeedFailure(error: error, side: side, attempt: attempt)
    }

    @Test func refreshStartsAFetchOfTheFirstPage() {
        var machine = Machine(configuration: M.configuration())
        let (decision, actions) = machine.refreshRequested()
        #expect(decision == .started(M.id(1)))
        #expect(actions == [M.began(.refresh), M.fetch(1, .refresh, cursor: nil)])
        #expect(machine.status == .refreshing)
        #expect(machine.loadStates == FeedLoadStates(refresh: .loading, loadPrevious: .idle, loadMore: .idle))
    }

    @Test func aPageGoesOutToBeAppliedAndItsCountsComeBackInTheOutcome() {
        var machine = Machine(configuration: M.configuration())
        _ = machine.refreshRequested()
        let page = M.page(0..<15, next: 1)
        var actions: [Machine.Action] = []
        machine.fetchSucceeded(M.id(1), attempt: 1, page: page, into: &actions)
        #expect(actions == [M.cancel(1), M.apply(1, .refresh, page)])
        #expect(machine.status == .refreshing, "the load ends only once the page is applied")
        machine.pageApplied(M.id(1), applied: 12, dropped: 3, into: &actions)
        #expect(actions == [
            M.cancel(1), M.apply(1, .refresh, page),
            M.ended(.refresh, .completed), M.resolve(1, M.completed(12, dropped: 3)),
        ])
        #expect(machine.end.cursor == 1)
        #expect(machine.status == .idle)
        #expect(machine.loadStates == FeedLoadStates(refresh: .idle, loadPrevious: .reachedEnd, loadMore: .idle))
    }

    @Test func aNewerRefreshReplacesTheOlderWithoutAnEndEvent() {
        var machine = Machine(configuration: M.configuration())
        _ = machine.refreshRequested()
        let (decision, actions) = machine.refreshRequested()
        #expect(decision == .started(M.id(2)))
        #expect(actions == [
            M.cancel(1), M.resolve(1, .cancelled(.supersededByNewerRequest)), M.fetch(2, .refresh, cursor: nil),
        ])
        #expect(machine.fetchSucceeded(M.id(1), attempt: 1, page: M.page(0..<15, next: 1)).isEmpty, "stale")
    }

    @Test func refreshDuringRefreshCanJoin() {
        var machine = Machine(configuration: M.configuration(refreshDuringRefresh: .join))
        _ = machine.refreshRequested()
        let (decision, actions) = machine.refreshRequested()
        #expect(decision == .joined(M.id(1)))
        #expect(actions.isEmpty)
    }

    @Test func aLoadMoreDuringALoadMoreJoinsIt() {
        var machine = M.loaded()
        #expect(machine.loadMoreRequested() == (.started(M.id(2)), [M.began(.loadMore), M.fetch(2, .loadMore, cursor: 1)]))
        #expect(machine.loadMoreRequested() == (.joined(M.id(2)), []))
    }

    @Test func aLoadMoreDuringALoadMoreCanRestart() {
        var machine = M.loaded(M.configuration(loadMoreDuringLoadMore: .restart))
        _ = machine.loadMoreRequested()
        let (decision, actions) = machine.loadMoreRequested()
        #expect(decision == .started(M.id(3)))
        #expect(actions == [M.cancel(2), M.resolve(2, .cancelled(.supersededByNewerRequest)), M.fetch(3, .loadMore, cursor: 1)])
    }

    @Test func aRefreshCancelsALoadMore() {
        var machine = M.loaded()
        _ = machine.loadMoreRequested()
        let (decision, actions) = machine.refreshRequested()
        #expect(decision == .started(M.id(3)))
        #expect(actions == M.cancelled(2, .loadMore, .preemptedByRefresh) + [M.began(.refresh), M.fetch(3, .refresh, cursor: nil)])
        #expect(machine.fetchSucceeded(M.id(2), attempt: 1, page: M.page(15..<30, next: 2)).isEmpty, "its page is stale")
    }

    @Test func aLoadMoreCancelsARefreshAndLoadsFromTheCurrentCursor() {
        var machine = M.loaded()
        _ = machine.refreshRequested()
        let (decision, actions) = machine.loadMoreRequested()
        #expect(decision == .started(M.id(3)))
        #expect(actions == M.cancelled(2, .refresh, .preemptedByLoadMore) + [M.began(.loadMore), M.fetch(3, .loadMore, cursor: 1)])
    }

    @Test func underIgnoreLoadMoreTheRefreshWins() {
        var machine = M.loaded(M.configuration(loadMoreDuringRefresh: .ignoreLoadMore))
        _ = machine.refreshRequested()
        #expect(machine.loadMoreRequested() == (.answered(.ignored(.refreshInFlight)), []))
        #expect(machine.refreshLoad?.id == M.id(2))
    }

    @Test func aLoadMoreWhileTheFirstPageLoadsIsIgnored() {
        var machine = Machine(configuration: M.configuration())
        _ = machine.refreshRequested()
        #expect(machine.loadMoreRequested() == (.answered(.ignored(.firstPageLoading)), []))
    }

    @Test func atTheEndOfDataALoadMoreFetchesNothing() {
        var machine = M.loaded(page: M.page(0..<5, next: nil))
        #expect(machine.status == .endOfData)
        #expect(machine.loadMoreRequested() == (.answered(.endOfData), []))
    }

    @Test func aRepeatedCursorIsAppliedOnceThenStopsTheEndWithATypedError() {
        var machine = M.loaded()
        _ = machine.loadMoreRequested()
        let page = M.page(15..<30, next: 1) // points back at the page just fetched
        let repeated = FeedFailure(error: FeedError.repeatedCursor("1"), side: .loadMore, attempt: 1)
        #expect(machine.fetchSucceeded(M.id(2), attempt: 1, page: page) == [
            M.cancel(2), M.apply(2, .loadMore, page), M.ended(.loadMore, .failed(repeated)), M.resolve(2, .failed(repeated)),
        ])
        #expect(machine.loadMoreRequested() == (.answered(.ignored(.stoppedByGuard)), []))
    }

    @Test func aCursorCycleIsCaughtToo() {
        var machine = M.loaded()
        _ = machine.loadMoreRequested()
        _ = machine.fetchSucceeded(M.id(2), attempt: 1, page: M.page(15..<30, next: 2))
        _ = machine.loadMoreRequested()
        let actions = machine.fetchSucceeded(M.id(3), attempt: 1, page: M.page(30..<45, next: 1))
        #expect(actions.last == M.resolve(3, .failed(FeedFailure(error: FeedError.repeatedCursor("1"), side: .loadMore, attempt: 1))))
    }

    @Test func oneLoadFollowsEmptyPagesUpToTheLimitThenStopsTheEnd() {
        var machine = M.loaded(M.configuration(maximumEmptyPagesFollowed: 2))
        _ = machine.loadMoreRequested()
        #expect(machine.fetchSucceeded(M.id(2), attempt: 1, step: 0, page: M.page(0..<0, next: 2)) == [
            M.cancel(2), M.fetch(2, .loadMore, cursor: 2, step: 1),
        ])
        #expect(machine.fetchSucceeded(M.id(2), attempt: 1, step: 1, page: M.page(0..<0, next: 3)) == [
            M.cancel(2), M.fetch(2, .loadMore, cursor: 3, step: 2),
        ])
        let empty = M.page(0..<0, next: 4)
        let tooMany = FeedFailure(error: FeedError.emptyPageClaimsMore, side: .loadMore, attempt: 1)
        #expect(machine.fetchSucceeded(M.id(2), attempt: 1, step: 2, page: empty) == [
            M.cancel(2), M.apply(2, .loadMore, empty), M.ended(.loadMore, .failed(tooMany)), M.resolve(2, .failed(tooMany)),
        ])
        #expect(machine.loadMoreRequested() == (.answered(.ignored(.stoppedByGuard)), []))
        #expect(machine.fetchSucceeded(M.id(2), attempt: 1, step: 1, page: M.page(0..<0, next: 3)).isEmpty, "an earlier step is stale")
    }

    @Test func anEmptyFirstPageIsFollowedAndTheRefreshReplacesTheListWithThePageItLeadsTo() {
        var machine = Machine(configuration: M.configuration())
        _ = machine.refreshRequested()
        #expect(machine.fetchSucceeded(M.id(1), attempt: 1, page: M.page(0..<0, next: 1)) == [
            M.cancel(1), M.fetch(1, .refresh, cursor: 1, step: 1),
        ])
        let page = M.page(0..<15, next: 2)
        #expect(machine.fetchSucceeded(M.id(1), attempt: 1, step: 1, page: page) == M.landed(1, .refresh, page))
    }

    @Test func afterARepeatedCursorRetryRechecksTheLastPageWithoutApplyingItAgain() {
        var machine = M.loaded()
        _ = machine.loadMoreRequested()
        _ = machine.fetchSucceeded(M.id(2), attempt: 1, page: M.page(15..<30, next: 1))
        let (decision, actions) = machine.retryRequested()
        #expect(decision == .started(M.id(3)))
        #expect(actions == [M.began(.loadMore), M.fetch(3, .loadMore, cursor: 1, attempt: 2)], "the last page's own cursor")
        #expect(machine.fetchSucceeded(M.id(3), attempt: 2, page: M.page(15..<30, next: 2)) == [
            M.cancel(3), M.ended(.loadMore, .completed), M.resolve(3, M.completed(0)),
        ])
        #expect(machine.end.cursor == 2)
    }

    @Test func aLoadMoreBeforeAnyFirstPageFetchesNothingAndKeepsTheRefreshFailure() {
        var machine = Machine(configuration: M.configuration())
        _ = machine.refreshRequested()
        _ = machine.fetchFailed(M.id(1), attempt: 1, error: error)
        #expect(machine.loadMoreRequested() == (.answered(.ignored(.noFirstPage)), []))
        #expect(machine.status == .failed(failure(.refresh)))
        #expect(machine.retryRequested() == (.started(M.id(2)), [M.began(.refresh), M.fetch(2, .refresh, cursor: nil, attempt: 2)]))
    }

    @Test func aClockThatFailsEndsTheLoad() {
        var machine = M.loaded(M.configuration(timeout: .seconds(5)))
        _ = machine.loadMoreRequested()
        var actions: [Machine.Action] = []
        #expect(machine.clockFailed(M.id(2), attempt: 1, error: error, into: &actions))
        let failed = FeedFailure(error: FeedError.clockFailed("\(error)"), side: .loadMore, attempt: 1)
        #expect(actions == [M.cancel(2), M.ended(.loadMore, .failed(failed)), M.resolve(2, .failed(failed))])
    }

    @Test func theRetryConditionDecidesWhichErrorsRetry() {
        let policy = RetryPolicy(maximumAttempts: 3, condition: .custom("server errors") { $0 is ServerError })
        var machine = M.loaded(M.configuration(retry: policy))
        _ = machine.loadMoreRequested()
        let actions = machine.fetchFailed(M.id(2), attempt: 1, error: CancellationError())
        let failed = FeedFailure(error: CancellationError(), side: .loadMore, attempt: 1)
        #expect(actions == [M.cancel(2), M.ended(.loadMore, .failed(failed)), M.resolve(2, .failed(failed))])
    }

    @Test func automaticRetriesScheduleBackoffsThenFail() {
        var machine = M.loaded(M.configuration(retry: RetryPolicy(maximumAttempts: 2)))
        _ = machine.loadMoreRequested()
        #expect(machine.fetchFailed(M.id(2), attempt: 1, error: error) == [
            M.cancel(2), .scheduleRetry(M.id(2), retryNumber: 1, failure: failure(.loadMore)),
        ])
        #expect(machine.status == .loadingMore, "waiting to retry is still loading")
        #expect(machine.backoffElapsed(M.id(2), attempt: 1) == [M.fetch(2, .loadMore, cursor: 1, attempt: 2)])
        #expect(machine.fetchFailed(M.id(2), attempt: 2, error: error) == [
            M.cancel(2), M.ended(.loadMore, .failed(failure(.loadMore, attempt: 2))),
            M.resolve(2, .failed(failure(.loadMore, attempt: 2))),
        ])
    }

    @Test func retryDuringABackoffFetchesAtOnce() {
        var machine = M.loaded(M.configuration(retry: RetryPolicy(maximumAttempts: 3)))
        _ = machine.loadMoreRequested()
        _ = machine.fetchFailed(M.id(2), attempt: 1, error: error)
        #expect(machine.retryRequested() == (.joined(M.id(2)), [M.cancel(2), M.fetch(2, .loadMore, cursor: 1, attempt: 2)]))
        #expect(machine.backoffElapsed(M.id(2), attempt: 1).isEmpty, "the backoff's timer is stale now")
    }

    @Test func retryWithNothingFailedIsIgnored() {
        var machine = M.loaded()
        #expect(machine.retryRequested() == (.answered(.ignored(.nothingToRetry)), []))
    }

    @Test func closeEndsTheLoadsAndIgnoresEverythingAfter() {
        var machine = M.loaded()
        _ = machine.loadMoreRequested()
        _ = machine.loadPreviousRequested() // at the start of the data: answered, nothing runs
        #expect(machine.closeRequested() == M.cancelled(2, .loadMore, .closed) + [.finishOutputs])
        #expect(machine.status == .closed)
        #expect(machine.refreshRequested() == (.answered(.ignored(.closed)), []))
        #expect(machine.loadMoreRequested() == (.answered(.ignored(.closed)), []))
        #expect(machine.loadPreviousRequested() == (.answered(.ignored(.closed)), []))
        #expect(machine.retryRequested() == (.answered(.ignored(.closed)), []))
        #expect(machine.closeRequested().isEmpty)
    }

    @Test func aRefreshClearsEndOfDataAndFailures() {
        var machine = M.loaded(page: M.page(0..<5, next: nil))
        _ = machine.refreshRequested()
        _ = machine.fetchFailed(M.id(2), attempt: 1, error: error)
        #expect(machine.status == .failed(failure(.refresh)))
        _ = machine.refreshRequested()
        #expect(machine.status == .refreshing)
        _ = machine.fetchSucceeded(M.id(3), attempt: 1, page: M.page(0..<15, next: 1))
        #expect(machine.status == .idle)
        #expect(machine.failures.isEmpty)
    }

    @Test func aTimeoutFailsTheFetchInFlightOnly() {
        var machine = M.loaded(M.configuration(timeout: .seconds(5)))
        _ = machine.loadMoreRequested()
        #expect(machine.timeoutElapsed(M.id(2), attempt: 1, step: 1).isEmpty, "another step's timer")
        let timedOut = FeedFailure(error: FeedError.timedOut(after: .seconds(5)), side: .loadMore, attempt: 1)
        #expect(machine.timeoutElapsed(M.id(2), attempt: 1) == [
            M.cancel(2), M.ended(.loadMore, .failed(timedOut)), M.resolve(2, .failed(timedOut)),
        ])
    }
}
