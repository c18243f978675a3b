@testable import AsyncPaging
import Testing

/// ``RefreshMode/mergeAtHead`` on the pure machine: a refresh that may keep the list, merging
/// new items in at the head, and replacing the list (cancelling a load at the end) only when
/// the controller finds no overlap.
@Suite("State machine: merge at the head")
struct HeadMergeMachineTests {
    typealias Machine = MachineTest.Machine
    typealias M = MachineTest

    /// A list loaded from the first page (nothing before it), items identified, merging at the head.
    func merging(identifiesItems: Bool = true) -> Machine {
        M.loaded(M.configuration(refreshMode: .mergeAtHead), identifiesItems: identifiesItems)
    }

    @Test func aHeadMergingRefreshLetsALoadAtTheEndRunOnBothWays() {
        var machine = merging()
        _ = machine.loadMoreRequested()
        #expect(machine.refreshRequested() == (.started(M.id(3)), [M.began(.refresh), M.fetch(3, .refresh, cursor: nil)]))
        #expect(machine.loadMoreRequested() == (.joined(M.id(2)), []), "the end is not cancelled")
        #expect(machine.loadStates == FeedLoadStates(refresh: .loading, loadPrevious: .reachedEnd, loadMore: .loading))
    }

    @Test func aLoadAtTheEndDuringAHeadMergingRefreshDoesNotCancelIt() {
        var machine = merging()
        _ = machine.refreshRequested()
        #expect(machine.loadMoreRequested() == (.started(M.id(3)), [M.began(.loadMore), M.fetch(3, .loadMore, cursor: 1)]))
        #expect(machine.refreshLoad?.id == M.id(2))
    }

    @Test func anOverlappingPageIsMergedAndTheEndRunsOn() {
        var machine = merging()
        _ = machine.loadMoreRequested()
        _ = machine.refreshRequested()
        let newest = M.page(-5..<10, next: 1)
        var actions: [Machine.Action] = []
        machine.fetchSucceeded(M.id(3), attempt: 1, page: newest, into: &actions)
        #expect(actions == [M.cancel(3), .mergePageAtHead(M.id(3))])
        #expect(machine.takeLandedPage() == newest)
        machine.headMergeApplied(M.id(3), merged: true, applied: 5, dropped: 10, into: &actions)
        #expect(Array(actions.dropFirst(2)) == [M.ended(.refresh, .completed), M.resolve(3, M.completed(5, dropped: 10))])
        #expect(machine.endLoad?.id == M.id(2) && machine.end.cursor == 1)
        let next = M.page(15..<30, next: 2)
        #expect(machine.fetchSucceeded(M.id(2), attempt: 1, page: next) == M.landed(2, .loadMore, next))
    }

    @Test func aPageSharingNoIdReplacesTheListAndCancelsTheEnd() {
        var machine = merging()
        _ = machine.loadMoreRequested()
        _ = machine.refreshRequested()
        let fresh = M.page(100..<115, next: 7)
        var actions: [Machine.Action] = []
        machine.fetchSucceeded(M.id(3), attempt: 1, page: fresh, into: &actions)
        machine.headMergeApplied(M.id(3), merged: false, applied: 15, dropped: 0, into: &actions)
        #expect(Array(actions.dropFirst(2)) == M.cancelled(2, .loadMore, .preemptedByRefresh)
            + [M.ended(.refresh, .completed), M.resolve(3, M.completed(15))])
        #expect(machine.end.cursor == 7)
        #expect(machine.fetchSucceeded(M.id(2), attempt: 1, page: M.page(15..<30, next: 2)).isEmpty, "the old list's page is stale")
    }

    @Test("without ids, from a cursor, or in a list opened in the middle, a refresh replaces", arguments: [0, 1, 2])
    func otherwiseARefreshReplaces(situation: Int) {
        var machine = switch situation {
        case 0: merging(identifiesItems: false)
        case 1: merging()
        default: M.loaded(M.configuration(refreshMode: .mergeAtHead), from: 5, page: M.page(50..<60, previous: 4, next: 6), identifiesItems: true)
        }
        _ = machine.loadMoreRequested()
        let (_, actions) = situation == 1 ? machine.refreshRequested(from: 3) : machine.refreshRequested()
        #expect(Array(actions.prefix(3)) == M.cancelled(2, .loadMore, .preemptedByRefresh))
        #expect(machine.refreshLoad?.mergesAtHead == false)
    }

    @Test func aReplacingRefreshThatSupersedesAMergingOneCancelsTheEnd() {
        var machine = merging()
        _ = machine.loadMoreRequested()
        _ = machine.refreshRequested()
        #expect(machine.refreshRequested(from: 4).1 == [M.cancel(3), M.resolve(3, .cancelled(.supersededByNewerRequest))]
            + M.cancelled(2, .loadMore, .preemptedByRefresh) + [M.fetch(4, .refresh, cursor: 4)])
    }
}
