@testable import AsyncPaging
import Testing

/// The rules of reloads (invalidations and jumps) and refetches, on the pure state machine:
/// each test compares the whole list of actions, in order.
@Suite("State machine: reloads and refetches")
struct ReloadMachineTests {
    typealias Machine = MachineTest.Machine
    typealias M = MachineTest

    static func page(_ c: Int) -> Page<Int, Int> { M.page(c * 10..<c * 10 + 10, previous: c - 1, next: c + 1) }

    func reload(_ machine: inout Machine, from cursor: Int?, coalesces: Bool = true) -> (Machine.Decision, [Machine.Action]) {
        var actions: [Machine.Action] = []
        return (machine.reloadRequested(from: cursor, coalesces: coalesces, into: &actions), actions)
    }

    @Test func anInvalidationCancelsBothEndsAndStartsAReload() {
        var machine = M.loaded(from: 5, page: Self.page(5))
        _ = machine.loadMoreRequested()
        _ = machine.loadPreviousRequested()
        let (decision, actions) = reload(&machine, from: 5)
        #expect(decision == .started(M.id(4)))
        #expect(actions == M.cancelled(2, .loadMore, .preemptedByRefresh) + M.cancelled(3, .loadPrevious, .preemptedByRefresh)
            + [M.began(.refresh), M.fetch(4, .refresh, cursor: 5)])
        #expect(machine.refreshLoad?.isReload == true && machine.refreshLoad?.mergesAtHead == false)
        // The ends' late pages are stale.
        #expect(machine.fetchSucceeded(M.id(2), attempt: 1, page: Self.page(6)).isEmpty)
    }

    @Test func loadsAtTheEndsAreIgnoredDuringAReload() {
        var machine = M.loaded(from: 5, page: Self.page(5))
        _ = reload(&machine, from: 5)
        #expect(machine.loadMoreRequested().0 == .answered(.ignored(.refreshInFlight)))
        #expect(machine.loadPreviousRequested().0 == .answered(.ignored(.refreshInFlight)))
        #expect(machine.refreshLoad?.id == M.id(2))
    }

    @Test func invalidationsDuringAFetchCoalesceIntoOneMoreFetch() {
        var machine = M.loaded(from: 5, page: Self.page(5))
        _ = reload(&machine, from: 5)
        #expect(reload(&machine, from: 7) == (.joined(M.id(2)), []))
        #expect(reload(&machine, from: 8) == (.joined(M.id(2)), []))
        var actions: [Machine.Action] = []
        #expect(!machine.fetchSucceeded(M.id(2), attempt: 1, page: Self.page(5), into: &actions), "the answer is stale")
        #expect(actions == [M.cancel(2), M.fetch(2, .refresh, cursor: 5, step: 1)], "once more, from its origin")
        #expect(machine.takeLandedPage() == nil, "nothing to apply")
        #expect(machine.fetchSucceeded(M.id(2), attempt: 1, step: 1, page: Self.page(5)) == M.landed(2, .refresh, Self.page(5)))
    }

    @Test func aStaleFailureFetchesAgainWithoutSpendingATry() {
        var machine = M.loaded(M.configuration(retry: RetryPolicy.none), from: 5, page: Self.page(5))
        _ = reload(&machine, from: 5)
        _ = reload(&machine, from: 5)
        let actions = machine.fetchFailed(M.id(2), attempt: 1, error: ServerError(code: 500))
        #expect(actions == [M.cancel(2), M.fetch(2, .refresh, cursor: 5, step: 1)])
        #expect(machine.failures.isEmpty)
    }

    @Test func aRestartedFetchFollowsEmptyPagesAsAFirstFetchDoes() {
        var machine = M.loaded(M.configuration(maximumEmptyPagesFollowed: 1), from: 5, page: Self.page(5))
        _ = reload(&machine, from: 5)
        _ = reload(&machine, from: 5)
        _ = machine.fetchSucceeded(M.id(2), attempt: 1, page: Self.page(5)) // stale: fetched again, step 1
        let empty = M.page(0..<0, previous: 4, next: 6)
        #expect(machine.fetchSucceeded(M.id(2), attempt: 1, step: 1, page: empty)
            == [M.cancel(2), M.fetch(2, .refresh, cursor: 6, step: 2)], "one empty page followed, as allowed")
    }

    @Test func aJumpJoinsAJumpToTheSamePageAndReplacesOneElsewhere() {
        var machine = M.loaded(from: 0, page: Self.page(0))
        #expect(reload(&machine, from: 50, coalesces: false).0 == .started(M.id(2)))
        #expect(reload(&machine, from: 50, coalesces: false) == (.joined(M.id(2)), []))
        let (decision, actions) = reload(&machine, from: 100, coalesces: false)
        #expect(decision == .started(M.id(3)))
        #expect(actions == [M.cancel(2), M.resolve(2, .cancelled(.supersededByNewerRequest)), M.fetch(3, .refresh, cursor: 100)])
    }

    @Test func aReloadAfterCloseIsIgnored() {
        var machine = M.loaded()
        _ = machine.closeRequested()
        #expect(reload(&machine, from: 1) == (.answered(.ignored(.closed)), []))
    }

    @Test func aRefetchFetchesEveryLoadedPageThenAppliesThemOnce() {
        var machine = M.loaded(M.configuration(refreshMode: .refetchLoaded), from: 9, page: Self.page(9))
        _ = machine.loadMoreRequested()
        _ = machine.fetchSucceeded(M.id(2), attempt: 1, page: Self.page(10))
        #expect(machine.pages.map(\.fetchedWith) == [9, 10])
        var actions: [Machine.Action] = []
        #expect(machine.refreshOrRefetchRequested(from: nil, into: &actions) == .started(M.id(3)))
        #expect(actions == [M.began(.refresh), M.fetch(3, .refresh, cursor: 9)])
        #expect(machine.fetchSucceeded(M.id(3), attempt: 1, page: Self.page(9)) == [M.cancel(3), M.fetch(3, .refresh, cursor: 10, step: 1)])
        actions = []
        machine.fetchSucceeded(M.id(3), attempt: 1, step: 1, page: Self.page(10), into: &actions)
        #expect(actions == [M.cancel(3), .applyRefetchedPages(M.id(3))])
        #expect(machine.refetched.map(\.fetchedWith) == [9, 10])
        actions = []
        machine.refetchApplied(M.id(3), applied: [10, 9], dropped: 1, into: &actions)
        #expect(actions == [M.ended(.refresh, .completed), M.resolve(3, M.completed(19, dropped: 1))])
        #expect(machine.pages.map(\.itemCount) == [10, 9])
        #expect(machine.end.cursor == 11 && machine.start.cursor == 8)
        #expect(machine.refetched.isEmpty)
    }
}
