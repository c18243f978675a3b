@testable import AsyncPaging
import Testing

/// The paging rules, tested synchronously on the pure state machine.
@Suite("State machine")
struct FeedStateMachineTests {
    typealias Machine = FeedStateMachine<Int>

    func machine(_ configuration: FeedConfiguration = configuration(loadsInitialPage: false)) -> Machine {
        Machine(configuration: configuration)
    }

    /// A machine whose first page (15 items, next cursor 1) has been applied.
    func loadedMachine(_ configuration: FeedConfiguration = configuration(loadsInitialPage: false)) -> Machine {
        var machine = machine(configuration)
        if case .started(let id) = machine.refreshRequested().0 {
            _ = machine.fetchSucceeded(id, attempt: 1, itemCount: 15, next: 1)
        }
        return machine
    }

    /// The id a decision started or joined.
    func loadID(_ decision: Machine.Decision) -> Machine.LoadID? {
        switch decision {
        case .started(let id), .joined(let id): id
        case .answered: nil
        }
    }

    func events(_ actions: [Machine.Action]) -> [FeedEvent] {
        actions.compactMap { if case .emit(let event) = $0 { event } else { nil } }
    }

    func fetches(_ actions: [Machine.Action]) -> [(side: FeedSide, cursor: Int?, attempt: Int)] {
        actions.compactMap {
            if case .startFetch(_, let side, let cursor, let attempt, _) = $0 { (side, cursor, attempt) } else { nil }
        }
    }

    @Test func refreshStartsAFetchOfTheFirstPage() {
        var machine = machine()
        let (decision, actions) = machine.refreshRequested()
        #expect(loadID(decision) != nil)
        #expect(events(actions) == [.began(.refresh)])
        #expect(fetches(actions).map(\.cursor) == [nil])
        #expect(machine.status == .refreshing)
    }

    @Test func aSuccessfulPageIsAppliedAndEnds() throws {
        var machine = machine()
        let id = try #require(loadID(machine.refreshRequested().0))
        let actions = machine.fetchSucceeded(id, attempt: 1, itemCount: 15, next: 1)
        #expect(actions.contains { if case .applyPage(id, replacing: true) = $0 { true } else { false } })
        #expect(events(actions) == [.ended(.refresh, .completed)])
        #expect(machine.nextCursor == 1)
        #expect(machine.status == .idle)
    }

    @Test func aNewerRefreshReplacesTheOlderWithoutAnEndEvent() throws {
        var machine = machine()
        let first = try #require(loadID(machine.refreshRequested().0))
        let (decision, actions) = machine.refreshRequested()
        let second = try #require(loadID(decision))
        #expect(first != second)
        #expect(events(actions).isEmpty)
        #expect(actions.contains { if case .cancelLoad(first) = $0 { true } else { false } })
        #expect(actions.contains {
            if case .resolveCallers(first, .cancelled(.supersededByNewerRequest)) = $0 { true } else { false }
        })
        // The older fetch's late page is stale.
        #expect(machine.fetchSucceeded(first, attempt: 1, itemCount: 15, next: 1).isEmpty)
    }

    @Test func refreshDuringRefreshCanJoin() throws {
        var machine = machine(configuration(loadsInitialPage: false, refreshDuringRefresh: .join))
        let first = try #require(loadID(machine.refreshRequested().0))
        let (decision, actions) = machine.refreshRequested()
        #expect(decision == .joined(first))
        #expect(actions.isEmpty)
    }

    @Test func aLoadMoreDuringALoadMoreJoinsIt() throws {
        var machine = loadedMachine()
        let id = try #require(loadID(machine.loadMoreRequested().0))
        #expect(machine.loadMoreRequested().0 == .joined(id))
    }

    @Test func aLoadMoreDuringALoadMoreCanRestart() throws {
        var machine = loadedMachine(configuration(loadsInitialPage: false, loadMoreDuringLoadMore: .restart))
        let first = try #require(loadID(machine.loadMoreRequested().0))
        let (decision, actions) = machine.loadMoreRequested()
        #expect(loadID(decision) != first)
        #expect(events(actions).isEmpty)
        #expect(fetches(actions).count == 1)
    }

    @Test func aRefreshCancelsALoadMore() throws {
        var machine = loadedMachine()
        let loadMore = try #require(loadID(machine.loadMoreRequested().0))
        let actions = machine.refreshRequested().1
        #expect(events(actions) == [.ended(.loadMore, .cancelled(.preemptedByRefresh)), .began(.refresh)])
        #expect(machine.fetchSucceeded(loadMore, attempt: 1, itemCount: 15, next: 2).isEmpty)
    }

    @Test func aLoadMoreCancelsARefreshAndLoadsFromTheCurrentCursor() throws {
        var machine = machine()
        let first = try #require(loadID(machine.refreshRequested().0))
        _ = machine.fetchSucceeded(first, attempt: 1, itemCount: 15, next: 1)
        _ = machine.refreshRequested()
        let actions = machine.loadMoreRequested().1
        #expect(events(actions) == [.ended(.refresh, .cancelled(.preemptedByLoadMore)), .began(.loadMore)])
        #expect(fetches(actions).map(\.cursor) == [1])
    }

    @Test func underIgnoreLoadMoreTheRefreshWins() throws {
        var machine = machine(configuration(loadsInitialPage: false, loadMoreDuringRefresh: .ignoreLoadMore))
        let first = try #require(loadID(machine.refreshRequested().0))
        _ = machine.fetchSucceeded(first, attempt: 1, itemCount: 15, next: 1)
        _ = machine.refreshRequested()
        #expect(machine.loadMoreRequested().0 == .answered(.ignored(.refreshInFlight)))
        #expect(machine.status == .refreshing)
    }

    @Test func aLoadMoreWhileTheFirstPageLoadsIsIgnored() {
        var machine = machine()
        _ = machine.refreshRequested()
        #expect(machine.loadMoreRequested().0 == .answered(.ignored(.firstPageLoading)))
    }

    @Test func atTheEndOfDataALoadMoreFetchesNothing() throws {
        var machine = machine()
        let id = try #require(loadID(machine.refreshRequested().0))
        #expect(events(machine.fetchSucceeded(id, attempt: 1, itemCount: 3, next: nil)) == [.ended(.refresh, .endOfData)])
        #expect(machine.loadMoreRequested() .0 == .answered(.endOfData))
        #expect(machine.status == .endOfData)
    }

    @Test func aRepeatedCursorStopsWithATypedError() throws {
        var machine = machine()
        let refresh = try #require(loadID(machine.refreshRequested().0))
        _ = machine.fetchSucceeded(refresh, attempt: 1, itemCount: 15, next: 1)
        let loadMore = try #require(loadID(machine.loadMoreRequested().0))
        let actions = machine.fetchSucceeded(loadMore, attempt: 1, itemCount: 15, next: 1)
        let failure = FeedFailure(error: FeedError.repeatedCursor("1"), side: .loadMore, attempt: 1)
        #expect(actions.contains { if case .applyPage(loadMore, replacing: false) = $0 { true } else { false } })
        #expect(events(actions) == [.ended(.loadMore, .failed(failure))])
        #expect(machine.nextCursor == 1)
    }

    @Test func aCursorCycleIsCaughtToo() throws {
        var machine = machine()
        let refresh = try #require(loadID(machine.refreshRequested().0))
        _ = machine.fetchSucceeded(refresh, attempt: 1, itemCount: 15, next: 1)
        let second = try #require(loadID(machine.loadMoreRequested().0))
        _ = machine.fetchSucceeded(second, attempt: 1, itemCount: 15, next: 2)
        let third = try #require(loadID(machine.loadMoreRequested().0))
        let actions = machine.fetchSucceeded(third, attempt: 1, itemCount: 15, next: 1)
        #expect(events(actions) == [
            .ended(.loadMore, .failed(FeedFailure(error: FeedError.repeatedCursor("1"), side: .loadMore, attempt: 1))),
        ])
    }

    @Test func oneLoadFollowsEmptyPagesUpToTheLimitThenStopsTheEndSide() throws {
        var machine = loadedMachine(configuration(loadsInitialPage: false, maximumEmptyPagesFollowed: 2))
        let loadMore = try #require(loadID(machine.loadMoreRequested().0))
        // Two empty pages are followed within the same load, applying nothing.
        let first = machine.fetchSucceeded(loadMore, attempt: 1, step: 0, itemCount: 0, next: 2)
        #expect(events(first).isEmpty)
        #expect(fetches(first).map(\.cursor) == [2])
        #expect(!first.contains { if case .applyPage = $0 { true } else { false } })
        let second = machine.fetchSucceeded(loadMore, attempt: 1, step: 1, itemCount: 0, next: 3)
        #expect(fetches(second).map(\.cursor) == [3])
        // A late answer of an earlier fetch of the same load is stale.
        #expect(machine.fetchSucceeded(loadMore, attempt: 1, step: 0, itemCount: 5, next: 9).isEmpty)
        #expect(machine.timeoutElapsed(loadMore, attempt: 1, step: 1).isEmpty)
        // The third empty page is one too many: the load fails and the end side stops.
        let third = machine.fetchSucceeded(loadMore, attempt: 1, step: 2, itemCount: 0, next: 4)
        let failure = FeedFailure(error: FeedError.emptyPageClaimsMore, side: .loadMore, attempt: 1)
        #expect(events(third) == [.ended(.loadMore, .failed(failure))])
        #expect(machine.nextCursor == 4)
        // However often the UI asks, nothing is fetched until retry() (issue 11, bug 6).
        for _ in 0..<100 {
            let (decision, actions) = machine.loadMoreRequested()
            #expect(decision == .answered(.ignored(.stoppedByGuard)))
            #expect(actions.isEmpty)
        }
        #expect(fetches(machine.retryRequested().1).map(\.cursor) == [4])
    }

    @Test func anEmptyPageFollowedInARefreshReplacesTheListWithThePageItLeadsTo() throws {
        var machine = machine()
        let refresh = try #require(loadID(machine.refreshRequested().0))
        #expect(fetches(machine.fetchSucceeded(refresh, attempt: 1, step: 0, itemCount: 0, next: 5)).map(\.cursor) == [5])
        let actions = machine.fetchSucceeded(refresh, attempt: 1, step: 1, itemCount: 15, next: 6)
        #expect(actions.contains { if case .applyPage(refresh, replacing: true) = $0 { true } else { false } })
        #expect(events(actions) == [.ended(.refresh, .completed)])
        #expect(machine.nextCursor == 6)
    }

    @Test func afterARepeatedCursorNeitherLoadMoreNorRetryFetchesTheAppliedPageAgain() throws {
        var machine = loadedMachine()
        let loadMore = try #require(loadID(machine.loadMoreRequested().0))
        _ = machine.fetchSucceeded(loadMore, attempt: 1, itemCount: 15, next: 1) // page 1 points back at itself
        #expect(machine.loadMoreRequested().0 == .answered(.ignored(.stoppedByGuard)))
        // retry() asks for the last page again (cursor 1) only to get a fresh `next`.
        let (decision, retry) = machine.retryRequested()
        let recheck = try #require(loadID(decision))
        #expect(fetches(retry).map(\.cursor) == [1])
        let still = machine.fetchSucceeded(recheck, attempt: 2, itemCount: 15, next: 1)
        #expect(!still.contains { if case .applyPage = $0 { true } else { false } }) // bug 5: never appended again
        #expect(events(still).count == 1)
        #expect(machine.loadMoreRequested().0 == .answered(.ignored(.stoppedByGuard)))
        // The server fixed its cursors: the recheck follows the fresh `next`, still applying nothing.
        let again = try #require(loadID(machine.retryRequested().0))
        let fixed = machine.fetchSucceeded(again, attempt: 3, itemCount: 15, next: 2)
        #expect(!fixed.contains { if case .applyPage = $0 { true } else { false } })
        #expect(events(fixed) == [.ended(.loadMore, .completed)])
        #expect(fetches(machine.loadMoreRequested().1).map(\.cursor) == [2])
    }

    @Test func aLoadMoreBeforeAnyFirstPageFetchesNothingAndKeepsTheRefreshFailure() throws {
        var machine = machine()
        #expect(machine.loadMoreRequested().0 == .answered(.ignored(.noFirstPage)))
        let refresh = try #require(loadID(machine.refreshRequested().0))
        _ = machine.fetchFailed(refresh, attempt: 1, error: ServerError(code: 1))
        // Issue 11, bug 7: the load request fetches nothing and retry() runs the refresh again.
        let (decision, actions) = machine.loadMoreRequested()
        #expect(decision == .answered(.ignored(.noFirstPage)))
        #expect(actions.isEmpty)
        #expect(machine.lastFailure?.side == .refresh)
        #expect(fetches(machine.retryRequested().1).map(\.side) == [.refresh])
    }

    @Test func aClockThatFailsEndsTheLoad() throws {
        var machine = machine(configuration(loadsInitialPage: false, retry: RetryPolicy(maximumAttempts: 3)))
        let id = try #require(loadID(machine.refreshRequested().0))
        _ = machine.fetchFailed(id, attempt: 1, error: ServerError(code: 1)) // waits for its backoff
        var actions: [Machine.Action] = []
        #expect(machine.clockFailed(id, attempt: 1, error: ServerError(code: 9), into: &actions))
        #expect(events(actions) == [
            .ended(.refresh, .failed(FeedFailure(error: FeedError.clockFailed("\(ServerError(code: 9))"), side: .refresh, attempt: 1))),
        ])
        #expect(machine.active == nil)
    }

    @Test func theRetryConditionDecidesWhichErrorsRetry() throws {
        struct NotFound: PageSourceError { var isRetryable: Bool { false } }
        var machine = machine(configuration(loadsInitialPage: false, retry: RetryPolicy(maximumAttempts: 3)))
        let id = try #require(loadID(machine.refreshRequested().0))
        let actions = machine.fetchFailed(id, attempt: 1, error: NotFound())
        #expect(!actions.contains { if case .scheduleRetry = $0 { true } else { false } })
        #expect(events(actions).count == 1)
    }

    @Test func aFailureWaitsForRetryAndRetryContinuesTheAttempts() throws {
        var machine = machine()
        let id = try #require(loadID(machine.refreshRequested().0))
        let actions = machine.fetchFailed(id, attempt: 1, error: ServerError(code: 1))
        #expect(events(actions) == [
            .ended(.refresh, .failed(FeedFailure(error: ServerError(code: 1), side: .refresh, attempt: 1))),
        ])
        let retry = machine.retryRequested()
        #expect(fetches(retry.1).map(\.attempt) == [2])
        #expect(events(retry.1) == [.began(.refresh)])
        #expect(machine.retryRequested().0 == .joined(try #require(loadID(retry.0))))
    }

    @Test func retryWithNothingFailedIsIgnored() {
        var machine = machine()
        #expect(machine.retryRequested().0 == .answered(.ignored(.nothingToRetry)))
    }

    @Test func automaticRetriesScheduleBackoffsThenFail() throws {
        var machine = machine(configuration(loadsInitialPage: false, retry: RetryPolicy(maximumAttempts: 2)))
        let id = try #require(loadID(machine.refreshRequested().0))
        let first = machine.fetchFailed(id, attempt: 1, error: ServerError(code: 1))
        #expect(first.contains { if case .scheduleRetry(id, retryNumber: 1, _) = $0 { true } else { false } })
        #expect(events(first).isEmpty)
        #expect(machine.status == .refreshing)
        // A late result of the failed try, or a timeout of it, is stale.
        #expect(machine.fetchSucceeded(id, attempt: 1, itemCount: 15, next: 1).isEmpty)
        #expect(machine.timeoutElapsed(id, attempt: 1).isEmpty)
        #expect(fetches(machine.backoffElapsed(id, attempt: 1)).map(\.attempt) == [2])
        let last = machine.fetchFailed(id, attempt: 2, error: ServerError(code: 2))
        #expect(events(last) == [
            .ended(.refresh, .failed(FeedFailure(error: ServerError(code: 2), side: .refresh, attempt: 2))),
        ])
    }

    @Test func retryDuringABackoffFetchesAtOnce() throws {
        var machine = machine(configuration(loadsInitialPage: false, retry: RetryPolicy(maximumAttempts: 3)))
        let id = try #require(loadID(machine.refreshRequested().0))
        _ = machine.fetchFailed(id, attempt: 1, error: ServerError(code: 1))
        let (decision, actions) = machine.retryRequested()
        #expect(decision == .joined(id))
        #expect(fetches(actions).map(\.attempt) == [2])
        // The backoff timer that was cancelled is stale if it still fires.
        #expect(machine.backoffElapsed(id, attempt: 1).isEmpty)
    }

    @Test func closeEndsTheLoadAndIgnoresEverythingAfter() throws {
        var machine = loadedMachine()
        let id = try #require(loadID(machine.loadMoreRequested().0))
        let actions = machine.closeRequested()
        #expect(events(actions) == [.ended(.loadMore, .cancelled(.closed))])
        #expect(actions.contains { if case .finishOutputs = $0 { true } else { false } })
        #expect(machine.fetchSucceeded(id, attempt: 1, itemCount: 1, next: nil).isEmpty)
        #expect(machine.refreshRequested().0 == .answered(.ignored(.closed)))
        #expect(machine.loadMoreRequested().0 == .answered(.ignored(.closed)))
        #expect(machine.retryRequested().0 == .answered(.ignored(.closed)))
        #expect(machine.closeRequested().isEmpty)
        #expect(machine.status == .closed)
    }

    @Test func aRefreshClearsEndOfDataAndFailure() throws {
        var machine = machine()
        let id = try #require(loadID(machine.refreshRequested().0))
        _ = machine.fetchSucceeded(id, attempt: 1, itemCount: 1, next: nil)
        let again = try #require(loadID(machine.refreshRequested().0))
        _ = machine.fetchSucceeded(again, attempt: 1, itemCount: 15, next: 1)
        #expect(machine.status == .idle)
        #expect(machine.reachedEnd == false)
    }
}
