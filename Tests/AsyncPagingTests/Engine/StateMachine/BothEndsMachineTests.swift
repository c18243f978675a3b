@testable import AsyncPaging
import Testing

/// The paging rules at both ends of a list opened in the middle of its data: load-previous
/// beside load-more and refresh, tested synchronously on the pure state machine with whole
/// action lists compared as values.
@Suite("State machine: both ends")
struct BothEndsMachineTests {
    typealias Machine = MachineTest.Machine
    typealias M = MachineTest

    /// A list opened at cursor 50: items 500..<510, page 49 before it, page 51 after it.
    static let middle = M.page(500..<510, previous: 49, next: 51)

    func opened(_ configuration: FeedConfiguration = M.configuration()) -> Machine {
        M.loaded(configuration, from: 50, page: Self.middle)
    }

    @Test func aRefreshFromACursorOpensTheListThereWithBothEndsLoadable() {
        var machine = Machine(configuration: M.configuration())
        #expect(machine.refreshRequested(from: 50) == (.started(M.id(1)), [M.began(.refresh), M.fetch(1, .refresh, cursor: 50)]))
        #expect(machine.fetchSucceeded(M.id(1), attempt: 1, page: Self.middle) == M.landed(1, .refresh, Self.middle))
        #expect(machine.start.cursor == 49 && machine.end.cursor == 51)
        #expect(machine.loadStates == FeedLoadStates(refresh: .idle, loadPrevious: .idle, loadMore: .idle))
    }

    @Test func aLoadPreviousFetchesThePageBeforeTheFirstAndPrependsIt() {
        var machine = opened()
        #expect(machine.loadPreviousRequested() == (.started(M.id(2)), [M.began(.loadPrevious), M.fetch(2, .loadPrevious, cursor: 49)]))
        #expect(machine.status == .loadingPrevious)
        let older = M.page(490..<500, previous: 48, next: 50)
        #expect(machine.fetchSucceeded(M.id(2), attempt: 1, page: older) == M.landed(2, .loadPrevious, older))
        #expect(machine.start.cursor == 48)
        #expect(machine.end.cursor == 51, "the other end is untouched")
    }

    @Test func theStartOfTheDataEndsTheStartSideOnly() {
        var machine = opened()
        _ = machine.loadPreviousRequested()
        let first = M.page(490..<500, previous: nil, next: 50)
        #expect(machine.fetchSucceeded(M.id(2), attempt: 1, page: first) == [
            M.cancel(2), M.apply(2, .loadPrevious, first), M.ended(.loadPrevious, .endOfData),
            M.resolve(2, M.completed(10, reachedEnd: true)),
        ])
        #expect(machine.loadPreviousRequested() == (.answered(.endOfData), []))
        #expect(machine.loadStates == FeedLoadStates(refresh: .idle, loadPrevious: .reachedEnd, loadMore: .idle))
        #expect(machine.status == .idle, "the summary speaks of the end of the list")
        #expect(machine.loadMoreRequested().0 == .started(M.id(3)))
    }

    @Test func aListFromAForwardOnlySourceStartsAtItsFirstPage() {
        var machine = M.loaded() // Page(items:next:): no previous
        #expect(machine.loadPreviousRequested() == (.answered(.endOfData), []))
        #expect(machine.loadStates.loadPrevious == .reachedEnd)
    }

    @Test func bothEndsLoadAtOnceAndLandInEitherOrder() {
        var machine = opened()
        #expect(machine.loadMoreRequested().0 == .started(M.id(2)))
        #expect(machine.loadPreviousRequested() == (.started(M.id(3)), [M.began(.loadPrevious), M.fetch(3, .loadPrevious, cursor: 49)]))
        #expect(machine.loadStates == FeedLoadStates(refresh: .idle, loadPrevious: .loading, loadMore: .loading))
        #expect(machine.status == .loadingMore)
        let older = M.page(490..<500, previous: 48, next: 50)
        let newer = M.page(510..<520, previous: 50, next: 52)
        #expect(machine.fetchSucceeded(M.id(3), attempt: 1, page: older) == M.landed(3, .loadPrevious, older))
        #expect(machine.fetchSucceeded(M.id(2), attempt: 1, page: newer) == M.landed(2, .loadMore, newer))
        #expect(machine.start.cursor == 48 && machine.end.cursor == 52)
    }

    @Test func eachEndJoinsRepeatedRequestsForItself() {
        var machine = opened()
        _ = machine.loadPreviousRequested()
        _ = machine.loadMoreRequested()
        #expect(machine.loadPreviousRequested() == (.joined(M.id(2)), []))
        #expect(machine.loadMoreRequested() == (.joined(M.id(3)), []))
    }

    @Test func underCancelOtherTheNewerEndCancelsTheOlder() {
        var machine = opened(M.configuration(bothEnds: .cancelOther))
        _ = machine.loadMoreRequested()
        let (decision, actions) = machine.loadPreviousRequested()
        #expect(decision == .started(M.id(3)))
        #expect(actions == M.cancelled(2, .loadMore, .preemptedByLoadPrevious) + [M.began(.loadPrevious), M.fetch(3, .loadPrevious, cursor: 49)])
        #expect(machine.loadMoreRequested().1 == M.cancelled(3, .loadPrevious, .preemptedByLoadMore) + [M.began(.loadMore), M.fetch(4, .loadMore, cursor: 51)])
    }

    @Test func aRetryAtOneEndCancelsTheOtherUnderCancelOtherToo() {
        var machine = opened(M.configuration(bothEnds: .cancelOther))
        _ = machine.loadMoreRequested()
        _ = machine.fetchFailed(M.id(2), attempt: 1, error: ServerError(code: 1))
        _ = machine.loadPreviousRequested()
        #expect(machine.retryRequested(.loadMore) == (.started(M.id(4)),
            M.cancelled(3, .loadPrevious, .preemptedByLoadMore) + [M.began(.loadMore), M.fetch(4, .loadMore, cursor: 51, attempt: 2)]))
    }

    @Test func aRefreshCancelsBothEndsAndTheirPagesAreStale() {
        var machine = opened()
        _ = machine.loadMoreRequested()
        _ = machine.loadPreviousRequested()
        let (decision, actions) = machine.refreshRequested()
        #expect(decision == .started(M.id(4)))
        #expect(actions == M.cancelled(2, .loadMore, .preemptedByRefresh) + M.cancelled(3, .loadPrevious, .preemptedByRefresh)
            + [M.began(.refresh), M.fetch(4, .refresh, cursor: nil)])
        #expect(machine.fetchSucceeded(M.id(2), attempt: 1, page: M.page(510..<520, previous: 50, next: 52)).isEmpty)
        #expect(machine.fetchSucceeded(M.id(3), attempt: 1, page: M.page(490..<500, previous: 48, next: 50)).isEmpty)
        #expect(machine.fetchFailed(M.id(3), attempt: 1, error: ServerError(code: 1)).isEmpty)
    }

    @Test func aLoadPreviousDuringARefreshCancelsItByDefault() {
        var machine = opened()
        _ = machine.refreshRequested(from: 50)
        #expect(machine.loadPreviousRequested().1 == M.cancelled(2, .refresh, .preemptedByLoadPrevious) + [M.began(.loadPrevious), M.fetch(3, .loadPrevious, cursor: 49)])
    }

    @Test func underIgnoreLoadPreviousTheRefreshWins() {
        var machine = opened(M.configuration(loadPreviousDuringRefresh: .ignoreLoadPrevious))
        _ = machine.refreshRequested()
        #expect(machine.loadPreviousRequested() == (.answered(.ignored(.refreshInFlight)), []))
        #expect(machine.loadMoreRequested().0 == .started(M.id(3)), "the end keeps its own policy")
    }

    @Test func aLoadPreviousBeforeTheFirstPageIsIgnored() {
        var machine = Machine(configuration: M.configuration())
        #expect(machine.loadPreviousRequested() == (.answered(.ignored(.noFirstPage)), []))
        _ = machine.refreshRequested(from: 50)
        #expect(machine.loadPreviousRequested() == (.answered(.ignored(.firstPageLoading)), []))
    }

    @Test func aRefreshFromAnotherCursorReplacesOneInFlightEvenUnderJoin() {
        var machine = Machine(configuration: M.configuration(refreshDuringRefresh: .join))
        _ = machine.refreshRequested(from: 50)
        #expect(machine.refreshRequested(from: 50) == (.joined(M.id(1)), []))
        #expect(machine.refreshRequested(from: 70) == (.started(M.id(2)), [
            M.cancel(1), M.resolve(1, .cancelled(.supersededByNewerRequest)), M.fetch(2, .refresh, cursor: 70),
        ]))
    }

    @Test func aRepeatedCursorAtTheStartStopsTheStartOnly() {
        var machine = opened()
        _ = machine.loadPreviousRequested()
        let looping = M.page(490..<500, previous: 50, next: 50) // points back at the opened page
        let repeated = FeedFailure(error: FeedError.repeatedCursor("50"), side: .loadPrevious, attempt: 1)
        #expect(machine.fetchSucceeded(M.id(2), attempt: 1, page: looping) == [
            M.cancel(2), M.apply(2, .loadPrevious, looping), M.ended(.loadPrevious, .failed(repeated)),
            M.resolve(2, .failed(repeated)),
        ])
        #expect(machine.loadPreviousRequested() == (.answered(.ignored(.stoppedByGuard)), []))
        #expect(machine.loadStates == FeedLoadStates(refresh: .idle, loadPrevious: .failed(repeated), loadMore: .idle))
        #expect(machine.loadMoreRequested().0 == .started(M.id(3)), "the end still loads")
    }

    @Test func retryOfTheStartAfterARepeatedCursorRechecksItsEdgePage() {
        var machine = opened()
        _ = machine.loadPreviousRequested()
        _ = machine.fetchSucceeded(M.id(2), attempt: 1, page: M.page(490..<500, previous: 50, next: 50))
        #expect(machine.retryRequested(.loadPrevious) == (.started(M.id(3)), [M.began(.loadPrevious), M.fetch(3, .loadPrevious, cursor: 49, attempt: 2)]))
        #expect(machine.fetchSucceeded(M.id(3), attempt: 2, page: M.page(490..<500, previous: 48, next: 50)) == [
            M.cancel(3), M.ended(.loadPrevious, .completed), M.resolve(3, M.completed(0)),
        ])
        #expect(machine.start.cursor == 48)
    }

    @Test func aCursorFetchedAtOneEndRepeatedAtTheOtherIsCaught() {
        var machine = opened()
        _ = machine.loadMoreRequested()
        _ = machine.fetchSucceeded(M.id(2), attempt: 1, page: M.page(510..<520, previous: 50, next: 52))
        _ = machine.loadPreviousRequested()
        let actions = machine.fetchSucceeded(M.id(3), attempt: 1, page: M.page(490..<500, previous: 51, next: 50))
        #expect(actions.last == M.resolve(3, .failed(FeedFailure(error: FeedError.repeatedCursor("51"), side: .loadPrevious, attempt: 1))))
    }

    @Test func emptyPagesAtTheStartAreFollowedTowardOlderPages() {
        var machine = opened(M.configuration(maximumEmptyPagesFollowed: 1))
        _ = machine.loadPreviousRequested()
        #expect(machine.fetchSucceeded(M.id(2), attempt: 1, page: M.page(0..<0, previous: 48, next: 50)) == [
            M.cancel(2), M.fetch(2, .loadPrevious, cursor: 48, step: 1),
        ])
        let empty = M.page(0..<0, previous: 47, next: 49)
        let tooMany = FeedFailure(error: FeedError.emptyPageClaimsMore, side: .loadPrevious, attempt: 1)
        #expect(machine.fetchSucceeded(M.id(2), attempt: 1, step: 1, page: empty) == [
            M.cancel(2), M.apply(2, .loadPrevious, empty), M.ended(.loadPrevious, .failed(tooMany)), M.resolve(2, .failed(tooMany)),
        ])
        #expect(machine.loadPreviousRequested() == (.answered(.ignored(.stoppedByGuard)), []))
    }

    @Test func failuresArePerSideAndRetryPicksTheNewestOrTheOneNamed() {
        var machine = opened()
        _ = machine.loadPreviousRequested()
        _ = machine.loadMoreRequested()
        _ = machine.fetchFailed(M.id(2), attempt: 1, error: ServerError(code: 1))
        _ = machine.fetchFailed(M.id(3), attempt: 1, error: ServerError(code: 2))
        let start = FeedFailure(error: ServerError(code: 1), side: .loadPrevious, attempt: 1)
        let end = FeedFailure(error: ServerError(code: 2), side: .loadMore, attempt: 1)
        #expect(machine.loadStates == FeedLoadStates(refresh: .idle, loadPrevious: .failed(start), loadMore: .failed(end)))
        #expect(machine.status == .failed(end), "the summary shows the newest failure")
        #expect(machine.retryRequested(.loadPrevious) == (.started(M.id(4)), [M.began(.loadPrevious), M.fetch(4, .loadPrevious, cursor: 49, attempt: 2)]))
        #expect(machine.loadStates.loadMore == .failed(end), "the other end's failure stands")
        #expect(machine.retryRequested().0 == .joined(M.id(4)), "with a load in flight, retry() joins it")
    }

    @Test func aBackoffAtTheStartRunsAtOnceOnRetryOfThatSide() {
        var machine = opened(M.configuration(retry: RetryPolicy(maximumAttempts: 3)))
        _ = machine.loadPreviousRequested()
        let failure = FeedFailure(error: ServerError(code: 1), side: .loadPrevious, attempt: 1)
        #expect(machine.fetchFailed(M.id(2), attempt: 1, error: ServerError(code: 1)) == [
            M.cancel(2), .scheduleRetry(M.id(2), retryNumber: 1, failure: failure),
        ])
        #expect(machine.retryRequested(.loadMore) == (.answered(.ignored(.nothingToRetry)), []))
        #expect(machine.retryRequested(.loadPrevious) == (.joined(M.id(2)), [M.cancel(2), M.fetch(2, .loadPrevious, cursor: 49, attempt: 2)]))
    }

    @Test func aFailedRefreshFromACursorRetriesFromThatCursor() {
        var machine = Machine(configuration: M.configuration())
        _ = machine.refreshRequested(from: 50)
        _ = machine.fetchFailed(M.id(1), attempt: 1, error: ServerError(code: 1))
        #expect(machine.retryRequested() == (.started(M.id(2)), [M.began(.refresh), M.fetch(2, .refresh, cursor: 50, attempt: 2)]))
    }

    @Test func closeEndsBothEnds() {
        var machine = opened()
        _ = machine.loadMoreRequested()
        _ = machine.loadPreviousRequested()
        #expect(machine.closeRequested() == M.cancelled(2, .loadMore, .closed) + M.cancelled(3, .loadPrevious, .closed) + [.finishOutputs])
    }

    @Test func duplicatesLeftOutOfAPrependAreCountedInItsOutcome() {
        var machine = opened()
        _ = machine.loadPreviousRequested()
        let older = M.page(495..<505, previous: 48, next: 50)
        #expect(machine.fetchSucceeded(M.id(2), attempt: 1, page: older, applied: 5, dropped: 5)
            == M.landed(2, .loadPrevious, older, applied: 5, dropped: 5))
    }
}
