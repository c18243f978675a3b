import AsyncPaging
import AsyncPagingTesting
import OfflineFeedKit
import Testing

/// Paging 3's `RemoteMediatorAccessorTest`, translated: the rules by which the mediator's loads
/// run (one at a time, conflated, a refresh first, a required refresh blocking the ends, the end
/// of pagination). Gated mediators make each step a rendezvous: the test waits for a load to
/// start, checks, then answers it.
@Suite("Remote mediator accessor (Paging 3 RemoteMediatorAccessorTest)")
struct RemoteMediatorAccessorTests {
    @Test("ignoreAppendPrependWhenRefreshIsRequired: with launchInitialRefresh the ends wait for a refresh; the mediator is not asked")
    func ignoreAppendPrependWhenRefreshIsRequired() async throws {
        let test = try TestDatabase()
        defer { test.remove() }
        let mediator = ScriptedMediator(database: test.database)
        let accessor = RemoteMediatorAccessor(mediator: mediator, initialAction: .launchInitialRefresh)
        await #expect(throws: OfflineFeedError.refreshRequired) { try await accessor.load(.append) }
        await #expect(throws: OfflineFeedError.refreshRequired) { try await accessor.load(.prepend) }
        #expect(mediator.loads.isEmpty)
        _ = try await accessor.load(.refresh)
        _ = try await accessor.load(.append)
        #expect(mediator.loads == [.refresh, .append])
    }

    @Test("allowAppendPrependWhenRefreshIsNotRequired: with skipInitialRefresh the ends go to the network at once")
    func allowAppendPrependWhenRefreshIsNotRequired() async throws {
        let test = try TestDatabase()
        defer { test.remove() }
        let mediator = ScriptedMediator(database: test.database, refreshStart: 50)
        let accessor = RemoteMediatorAccessor(mediator: mediator, initialAction: .skipInitialRefresh)
        _ = try await accessor.load(.append)
        _ = try await accessor.load(.prepend)
        #expect(mediator.loads == [.append, .prepend])
    }

    @Test("load_conflatesAppend (and Refresh): a load of the type already running joins it; the network is asked once")
    func loadConflates() async throws {
        for type in [MediatorLoadType.append, .refresh] {
            let test = try TestDatabase()
            defer { test.remove() }
            let mediator = ScriptedMediator(database: test.database, gated: true)
            let accessor = RemoteMediatorAccessor(mediator: mediator, initialAction: .skipInitialRefresh)
            var started = mediator.started.makeAsyncIterator()
            let first = Task { try await accessor.load(type) }
            #expect(await started.next() == type)
            let second = Task { try await accessor.load(type) }
            // The second call reaches the accessor before the answer: wait for it to join.
            await accessor.waitForCallers(2)
            mediator.answer(type)
            #expect(try await first.value == second.value)
            #expect(mediator.loads == [type])
            #expect(await accessor.loadsStarted == 1)
        }
    }

    @Test("load_concurrentBoundaryJobsRunsSerially: a prepend and an append asked together run one after the other")
    func loadConcurrentBoundaryJobsRunsSerially() async throws {
        let test = try TestDatabase()
        defer { test.remove() }
        let mediator = ScriptedMediator(database: test.database, refreshStart: 50, gated: true)
        try await test.database.storeRefresh(mediator.items(50..<60), previous: "50", next: "60")
        let accessor = RemoteMediatorAccessor(mediator: mediator, initialAction: .skipInitialRefresh)
        var started = mediator.started.makeAsyncIterator()
        let prepend = Task { try await accessor.load(.prepend) }
        #expect(await started.next() == .prepend)
        let append = Task { try await accessor.load(.append) }
        await accessor.waitForCallers(2)
        #expect(mediator.loads == [.prepend])  // the append waits its turn
        mediator.answer(.prepend)
        #expect(await started.next() == .append)
        mediator.answer(.append)
        _ = try await (prepend.value, append.value)
        #expect(mediator.maximumConcurrent == 1)
        #expect(try await test.database.allRows().map(\.id) == Array(40..<70))
    }

    @Test("requestLoad_cancelledBoundaryRetriesAfterRefresh (dropAppendPrependIfRefreshIsTriggered): a refresh cancels a running append, which runs again after it")
    func cancelledBoundaryRetriesAfterRefresh() async throws {
        let test = try TestDatabase()
        defer { test.remove() }
        let mediator = ScriptedMediator(database: test.database, gated: true)
        let accessor = RemoteMediatorAccessor(mediator: mediator, initialAction: .skipInitialRefresh)
        var started = mediator.started.makeAsyncIterator()
        let append = Task { try await accessor.load(.append) }
        #expect(await started.next() == .append)
        let refresh = Task { try await accessor.load(.refresh) }
        #expect(await started.next() == .refresh)  // the append was cancelled first
        #expect(mediator.maximumConcurrent == 1)
        mediator.answer(.refresh)
        _ = try await refresh.value
        #expect(await started.next() == .append)  // the cancelled append runs again
        mediator.answer(.append)
        _ = try await append.value
        #expect(mediator.loads == [.append, .refresh, .append])
        #expect(try await test.database.allRows().map(\.id) == Array(0..<20))
    }

    @Test("requestLoad_queuesBoundaryAfterRefreshFails: after a failed refresh the ends wait for a refresh that succeeds")
    func queuesBoundaryAfterRefreshFails() async throws {
        let test = try TestDatabase()
        defer { test.remove() }
        let mediator = ScriptedMediator(database: test.database)
        let accessor = RemoteMediatorAccessor(mediator: mediator, initialAction: .skipInitialRefresh)
        mediator.failNext(.refresh)
        await #expect(throws: ScriptedMediator.Failure(label: "test")) { try await accessor.load(.refresh) }
        #expect(await accessor.states.refresh == .failed("network down (test)"))
        await #expect(throws: OfflineFeedError.refreshRequired) { try await accessor.load(.append) }
        #expect(await accessor.states.append == .idle)
        _ = try await accessor.load(.refresh)
        _ = try await accessor.load(.append)
        #expect(mediator.loads == [.refresh, .refresh, .append])
        #expect(await accessor.states == MediatorLoadStates(refresh: .idle, prepend: .idle, append: .idle))
    }

    @Test("requestLoad_refreshEndOfPaginationReachedClearsBoundaryCalls: a refresh that reached the end answers the ends without the network")
    func refreshEndOfPaginationReachedClearsBoundaryCalls() async throws {
        let test = try TestDatabase()
        defer { test.remove() }
        let mediator = ScriptedMediator(database: test.database, count: 5)
        let accessor = RemoteMediatorAccessor(mediator: mediator, initialAction: .launchInitialRefresh)
        #expect(try await accessor.load(.refresh) == MediatorResult(endOfPaginationReached: true))
        #expect(try await accessor.load(.append) == MediatorResult(endOfPaginationReached: true))
        #expect(try await accessor.load(.prepend) == MediatorResult(endOfPaginationReached: true))
        #expect(mediator.loads == [.refresh])
        #expect(await accessor.states == MediatorLoadStates(refresh: .idle, prepend: .complete, append: .complete))
    }

    @Test("load_reportsAppendLoadState: loading while it runs, idle after, complete at the end of pagination")
    func loadReportsAppendLoadState() async throws {
        let test = try TestDatabase()
        defer { test.remove() }
        let mediator = ScriptedMediator(database: test.database, count: 15, gated: true)
        let accessor = RemoteMediatorAccessor(mediator: mediator, initialAction: .skipInitialRefresh)
        var started = mediator.started.makeAsyncIterator()
        #expect(await accessor.states == .idle)
        let first = Task { try await accessor.load(.append) }
        #expect(await started.next() == .append)
        #expect(await accessor.states.append == .loading)
        mediator.answer(.append)
        #expect(try await first.value == MediatorResult(endOfPaginationReached: false))
        #expect(await accessor.states.append == .idle)
        mediator.answer(.append)  // answered before it starts: runs through
        #expect(try await accessor.load(.append) == MediatorResult(endOfPaginationReached: true))
        #expect(await accessor.states.append == .complete)
        #expect(await accessor.states.prepend == .idle)
    }
}
