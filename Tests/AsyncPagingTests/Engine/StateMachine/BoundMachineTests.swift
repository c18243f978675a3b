@testable import AsyncPaging
import Testing

/// The memory bound (``FeedConfiguration/maximumItems``) on the pure state machine: which pages
/// a landing drops, how the dropped end becomes loadable again, and what happens to a load in
/// flight there, with whole action lists compared as values.
@Suite("State machine: the memory bound")
struct BoundMachineTests {
    typealias Machine = MachineTest.Machine
    typealias M = MachineTest

    /// Page `c` of the data: items `10c ..< 10c + 10`, previous `c - 1`, next `c + 1`.
    static func page(_ c: Int) -> Page<Int, Int> { M.page(c * 10..<c * 10 + 10, previous: c - 1, next: c + 1) }

    /// A list opened at page 50 with a bound of `maximum` items.
    func opened(maximum: Int = 30, bothEnds: BothEndsPolicy = .runBoth) -> Machine {
        M.loaded(M.configuration(bothEnds: bothEnds, maximumItems: maximum), from: 50, page: Self.page(50))
    }

    /// Lands `page` for load `id` and applies all its items, as the controller would; returns
    /// the actions and what the bound drops.
    func land(_ machine: inout Machine, _ id: UInt64, _ page: Page<Int, Int>, step: Int = 0) -> ([M.Action], Machine.Trim) {
        var actions: [M.Action] = []
        machine.fetchSucceeded(M.id(id), attempt: 1, step: step, page: page, into: &actions)
        _ = machine.takeLandedPage()
        let trim = machine.pageApplied(M.id(id), applied: page.items.count, dropped: 0, into: &actions)
        return (actions, trim)
    }

    static func trim(atStart: Bool, pages: Int, items: Int, keptOverBound: Bool = false) -> Machine.Trim {
        var trim = Machine.Trim()
        trim.atStart = atStart
        trim.pages = pages
        trim.items = items
        trim.keptOverBound = keptOverBound
        return trim
    }

    @Test func belowTheBoundNothingIsDropped() {
        var machine = opened()
        _ = machine.loadMoreRequested()
        let (actions, trim) = land(&machine, 2, Self.page(51))
        #expect(actions == M.landed(2, .loadMore, Self.page(51)))
        #expect(trim == Machine.Trim())
        #expect(machine.pages.count == 2 && machine.pages.itemCount == 20)
    }

    @Test func aLoadMoreOverTheBoundDropsTheFirstPageAndTheStartLoadsItAgain() {
        var machine = opened()
        for (id, c) in [(2, 51), (3, 52)] {
            _ = machine.loadMoreRequested()
            _ = land(&machine, UInt64(id), Self.page(c))
        }
        _ = machine.loadMoreRequested()
        let (actions, trim) = land(&machine, 4, Self.page(53))
        #expect(actions == M.landed(4, .loadMore, Self.page(53)), "the load ends as usual")
        #expect(trim == Self.trim(atStart: true, pages: 1, items: 10))
        #expect(machine.pages.itemCount == 30 && machine.pages.map(\.fetchedWith) == [51, 52, 53])
        #expect(machine.start.cursor == 50, "the new first page's previous: the dropped page")
        #expect(machine.loadStates.loadPrevious == .idle)
        // The dropped page's cursor left the repeated-cursor guard: loading it again is no loop.
        #expect(machine.loadPreviousRequested() == (.started(M.id(5)), [M.began(.loadPrevious), M.fetch(5, .loadPrevious, cursor: 50)]))
        let (reloaded, dropsAtEnd) = land(&machine, 5, Self.page(50))
        #expect(reloaded == M.landed(5, .loadPrevious, Self.page(50)))
        #expect(dropsAtEnd == Self.trim(atStart: false, pages: 1, items: 10))
        #expect(machine.end.cursor == 53 && machine.start.cursor == 49)
    }

    @Test func aLoadPreviousOverTheBoundDropsTheLastPageAndCancelsTheLoadThere() {
        var machine = opened(maximum: 20)
        _ = machine.loadMoreRequested()
        _ = land(&machine, 2, Self.page(51))
        #expect(machine.loadMoreRequested().0 == .started(M.id(3)))
        #expect(machine.loadPreviousRequested().0 == .started(M.id(4)))
        let (actions, trim) = land(&machine, 4, Self.page(49))
        // The drop comes with the page: the load at the end ends before the load that dropped it.
        let landed = M.landed(4, .loadPrevious, Self.page(49))
        #expect(actions == Array(landed.prefix(2)) + M.cancelled(3, .loadMore, .pagesDropped) + landed.suffix(2))
        #expect(trim == Self.trim(atStart: false, pages: 1, items: 10))
        #expect(machine.end.cursor == 51 && !machine.end.reachedEnd)
        #expect(machine.endLoad == nil)
        // The cancelled load's late page is stale.
        var late: [M.Action] = []
        #expect(!machine.fetchSucceeded(M.id(3), attempt: 1, page: Self.page(52), into: &late))
    }

    @Test func droppingClearsThatEndsFailureAndHalt() {
        var machine = opened(maximum: 20)
        _ = machine.loadMoreRequested()
        _ = land(&machine, 2, Self.page(51))
        _ = machine.loadMoreRequested()
        _ = machine.fetchFailed(M.id(3), attempt: 1, error: ServerError(code: 500))
        #expect(machine.loadStates.loadMore == .failed(FeedFailure(error: ServerError(code: 500), side: .loadMore, attempt: 1)))
        _ = machine.loadPreviousRequested()
        let (_, trim) = land(&machine, 4, Self.page(49))
        #expect(trim.pages == 1)
        #expect(machine.loadStates.loadMore == .idle, "the failed end was dropped: it loads afresh")
        #expect(machine.failures.isEmpty)
    }

    @Test func pagesWithoutACursorBackAreKept() {
        var machine = M.loaded(M.configuration(maximumItems: 20), page: M.page(0..<10, next: 1))
        for id in 2...3 {
            _ = machine.loadMoreRequested()
            let next = M.page(id * 10 - 10..<id * 10, next: id) // Page(items:next:): no previous
            let (_, trim) = land(&machine, UInt64(id), next)
            if id == 3 {
                #expect(trim == Self.trim(atStart: true, pages: 0, items: 0, keptOverBound: true))
            }
        }
        #expect(machine.pages.itemCount == 30, "kept: the start could never load them again")
        #expect(machine.loadStates.loadPrevious == .reachedEnd)
    }

    @Test func thePageJustLoadedIsNeverDroppedEvenWhenItAloneIsOverTheBound() {
        var machine = opened(maximum: 5)
        #expect(machine.pages.count == 1 && machine.pages.itemCount == 10)
        _ = machine.loadMoreRequested()
        let (_, trim) = land(&machine, 2, Self.page(51))
        #expect(trim == Self.trim(atStart: true, pages: 1, items: 10))
        #expect(machine.pages.count == 1 && machine.pages.itemCount == 10 && machine.pages[0].fetchedWith == 51)
    }

    @Test func aRefreshStartsTheRecordsAfresh() {
        var machine = opened()
        _ = machine.loadMoreRequested()
        _ = land(&machine, 2, Self.page(51))
        _ = machine.refreshRequested()
        _ = land(&machine, 3, M.page(0..<10, next: 1))
        #expect(machine.pages.count == 1 && machine.pages.itemCount == 10)
    }

    @Test func pagesReachedThroughAnEmptyPageLoadAgainWithoutARepeatedCursor() {
        var machine = opened(maximum: 10)
        _ = machine.loadMoreRequested()
        // Page 51 is empty and claims more: the load follows it to page 52, and page 50 goes.
        _ = machine.fetchSucceeded(M.id(2), attempt: 1, page: M.page(0..<0, previous: 50, next: 52))
        let (_, first) = land(&machine, 2, Self.page(52), step: 1)
        #expect(first == Self.trim(atStart: true, pages: 1, items: 10))
        #expect(machine.emptyPagesBefore[52] == [51] && machine.start.cursor == 51)
        // Scrolling back: page 51 now has items; page 52 goes, and with it the cursors 52 and 51.
        _ = machine.loadPreviousRequested()
        let (_, second) = land(&machine, 3, Self.page(51))
        #expect(second == Self.trim(atStart: false, pages: 1, items: 10))
        #expect(!machine.followedCursors.contains(52))
        // And forward again: fetching 52 again is no loop.
        _ = machine.loadMoreRequested()
        let (actions, third) = land(&machine, 4, Self.page(52))
        #expect(actions == M.landed(4, .loadMore, Self.page(52)))
        #expect(third == Self.trim(atStart: true, pages: 1, items: 10))
        #expect(machine.failures.isEmpty)
    }
}
