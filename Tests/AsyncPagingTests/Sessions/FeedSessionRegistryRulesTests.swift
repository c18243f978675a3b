import Testing
import AsyncPaging
import AsyncPagingTesting

/// Issue 23: the registry's order of use, sessions in use, the cap with every session in use,
/// the quota per owner and the bounded idle timer, on the test clock.
@Suite("session registry: order of use, in use, quota, timers")
struct FeedSessionRegistryRulesTests {
    typealias Registry = FeedSessionRegistry<String, Post, Int>

    static func idleController(_ clock: TestClock) -> PostFeed {
        FeedController(source: PostSource(), clock: clock, configuration: configuration(loadsInitialPage: false))
    }

    @Test("bug 3: ties at one clock instant are broken by order of use (a, b, c, a, then d evicts b)")
    func tieBrokenByOrderOfUse() async throws {
        let clock = TestClock() // never advanced: every use at one instant
        let registry = try Registry(clock: clock, idleTimeout: nil, maximumCount: 3) { _ in Self.idleController(clock) }
        var evictions = registry.evictions.makeAsyncIterator()
        let a = await registry.controller(for: "a")
        let b = await registry.controller(for: "b")
        _ = await registry.controller(for: "c")
        #expect(await registry.controller(for: "a") === a)
        _ = await registry.controller(for: "d")
        #expect(await evictions.next() == FeedSessionEviction(key: "b", reason: .overCapacity))
        #expect(b.currentStatus == .closed)
        #expect(a.currentStatus != .closed)
        #expect(await registry.keys == ["c", "a", "d"])
        // existingController counts as use too.
        #expect(await registry.existingController(for: "c") != nil)
        _ = await registry.controller(for: "e")
        #expect(await evictions.next() == FeedSessionEviction(key: "a", reason: .overCapacity))
        #expect(await registry.keys == ["d", "c", "e"])
    }

    @Test("bug 4: a session with a load in flight is not evicted; it leaves once its load ended")
    func loadInFlightIsNotEvicted() async throws {
        let clock = TestClock()
        let source = PostSource()
        source.enqueue(pageResponse(0, latency: .seconds(2)))
        let registry = try Registry(clock: clock, idleTimeout: nil, maximumCount: 1) { key in
            key == "a" ? FeedController(source: source, clock: clock, configuration: configuration())
                : Self.idleController(clock)
        }
        var evictions = registry.evictions.makeAsyncIterator()
        let a = await registry.controller(for: "a")
        #expect(await source.waitForRequests(1))
        #expect(a.currentLoadStates.isLoading)
        // The cap is reached and a is loading: b is refused, a keeps loading.
        await #expect(throws: FeedSessionRegistryError.allSessionsInUse(maximumCount: 1)) {
            _ = try await registry.openController(for: "b")
        }
        let refused = await registry.controller(for: "b")
        #expect(refused.currentStatus == .closed)
        #expect(a.currentStatus != .closed)
        #expect(await registry.keys == ["a"])
        clock.advance(by: .seconds(2))
        let first = await a.waitForFirstPage()
        guard case .completed = first.outcome else { Issue.record("\(first)"); return }
        // Its load ended: now a is the least recently used session not in use.
        let b = try await registry.openController(for: "b")
        #expect(await evictions.next() == FeedSessionEviction(key: "a", reason: .overCapacity))
        #expect(b.currentStatus != .closed)
        #expect(await registry.keys == ["b"])
    }

    @Test("a caller inside withSession keeps the session in use; the next one not in use leaves")
    func heldSessionIsNotEvicted() async throws {
        let clock = TestClock()
        let registry = try Registry(clock: clock, idleTimeout: nil, maximumCount: 2) { _ in Self.idleController(clock) }
        var evictions = registry.evictions.makeAsyncIterator()
        let entered = AsyncStream.makeStream(of: Void.self)
        let leave = AsyncStream.makeStream(of: Void.self)
        let holder = Task {
            try await registry.withSession(for: "a") { _ in
                entered.continuation.yield()
                for await _ in leave.stream { break }
            }
        }
        var enteredIterator = entered.stream.makeAsyncIterator()
        _ = await enteredIterator.next()
        clock.advance(by: .seconds(1))
        _ = try await registry.openController(for: "b")     // a is older, but held
        clock.advance(by: .seconds(1))
        _ = try await registry.openController(for: "c")
        #expect(await evictions.next() == FeedSessionEviction(key: "b", reason: .overCapacity))
        #expect(await registry.keys == ["a", "c"])
        leave.continuation.yield()
        try await holder.value
        _ = try await registry.openController(for: "d")
        // a was released after c was opened: c is now the least recently used.
        #expect(await evictions.next() == FeedSessionEviction(key: "c", reason: .overCapacity))
        #expect(await registry.keys == ["a", "d"])
    }

    @Test("the idle timer passes over a session in use and counts it as used")
    func idleTimerKeepsLoadingSession() async throws {
        let clock = TestClock()
        let source = PostSource()
        source.enqueue(pageResponse(0, latency: .seconds(90)))
        let registry = try Registry(clock: clock, idleTimeout: .seconds(60), maximumCount: nil) { _ in
            FeedController(source: source, clock: clock, configuration: configuration())
        }
        var evictions = registry.evictions.makeAsyncIterator()
        let a = await registry.controller(for: "a")
        #expect(await source.waitForRequests(1))
        #expect(await clock.waitForSleepers(2))                        // the page's latency, the idle timer
        clock.advance(by: .seconds(60))                                 // idle for 60 s, but loading
        #expect(await clock.waitForSleepers(2))                         // the timer again
        #expect(await registry.keys == ["a"])
        #expect(clock.pendingDeadlines.contains(TestClock.Instant(offset: .seconds(120))))
        clock.advance(by: .seconds(30))                                 // the page lands at t+90
        let first = await a.waitForFirstPage()
        guard case .completed = first.outcome else { Issue.record("\(first)"); return }
        clock.advance(by: .seconds(30))                                 // t+120: idle since t+60
        #expect(await evictions.next() == FeedSessionEviction(key: "a", reason: .idle))
    }

    @Test("bug 5: an idle timeout of Int64.max seconds sleeps at most the controller's longest delay")
    func idleTimerIsBounded() async throws {
        let clock = TestClock()
        let registry = try Registry(clock: clock, idleTimeout: .seconds(Int64.max), maximumCount: nil) { _ in
            Self.idleController(clock)
        }
        _ = await registry.controller(for: "a")
        #expect(await clock.waitForSleepers(1))
        let longest = Duration.seconds(100 * 365 * 24 * 3_600)
        #expect(clock.nextDeadline == TestClock.Instant(offset: longest))
        clock.advance(by: longest)                                      // wakes, sleeps again
        #expect(await clock.waitForSleepers(1))
        #expect(clock.nextDeadline == TestClock.Instant(offset: longest * 2))
        #expect(await registry.keys == ["a"])
        await registry.closeAll()
    }

    @Test("a quota per owner refuses the owner's next session, not other owners'")
    func quotaPerOwner() async throws {
        let clock = TestClock()
        let registry = try Registry(
            clock: clock, idleTimeout: nil, maximumCount: 10, maximumSessionsPerOwner: 2,
            owner: { key in String(key.prefix { $0 != "/" }) }
        ) { _, _ in Self.idleController(clock) }
        _ = try await registry.openController(for: "alice/1")
        _ = try await registry.openController(for: "alice/2")
        _ = try await registry.openController(for: "alice/1")               // an open session: no new slot
        await #expect(throws: FeedSessionRegistryError.ownerQuotaExceeded(owner: "alice", maximum: 2)) {
            _ = try await registry.openController(for: "alice/3")
        }
        _ = try await registry.openController(for: "bob/1")
        #expect(await registry.sessionCount(ofOwner: "alice") == 2)
        #expect(await registry.sessionCount(ofOwner: "bob") == 1)
        #expect(await registry.remove("alice/1"))
        _ = try await registry.openController(for: "alice/3")               // a slot of hers is free again
        #expect(await registry.keys == ["alice/2", "bob/1", "alice/3"])
        #expect(throws: FeedSessionRegistryError.invalidMaximumSessionsPerOwner(0)) {
            _ = try Registry(clock: clock, idleTimeout: nil, maximumCount: nil, maximumSessionsPerOwner: 0, owner: { $0 }) { _, _ in
                Self.idleController(clock)
            }
        }
    }

    @Test("at the cap, each new session evicts the least recently used, in order")
    func capEvictsInOrder() async throws {
        let clock = TestClock()
        let registry = try Registry(clock: clock, idleTimeout: nil, maximumCount: 100) { _ in Self.idleController(clock) }
        let recorder = StreamRecorder(registry.evictions)
        for index in 0..<300 { _ = await registry.controller(for: "s\(index)") }
        let events = await recorder.waitForCount(200)
        #expect(events.map(\.key) == (0..<200).map { "s\($0)" })
        #expect(await registry.keys == (200..<300).map { "s\($0)" })
        await registry.closeAll()
    }

    @Test("at the cap, a victim nobody else holds is closed (its outputs end with closed) before the new session is answered, then its eviction is sent")
    func unsharedVictimIsClosedBeforeTheNewSession() async throws {
        let clock = TestClock()
        let registry = try Registry(clock: clock, idleTimeout: nil, maximumCount: 2) { _ in Self.idleController(clock) }
        var evictions = registry.evictions.makeAsyncIterator()
        // Only the registry holds a's controller: the subscriptions hold its outputs, not it.
        let statuses = StreamRecorder(await registry.controller(for: "a").statuses)
        let events = StreamRecorder(await registry.controller(for: "a").events)
        _ = await registry.controller(for: "b")
        let c = await registry.controller(for: "c")
        let eviction = await evictions.next()
        #expect(eviction == FeedSessionEviction(key: "a", reason: .overCapacity))
        let lastStatuses = await statuses.waitForFinish()
        #expect(lastStatuses.last == .closed)
        #expect(lastStatuses.filter { $0 == .closed }.count == 1)
        #expect(await events.waitForFinish().isEmpty) // it never loaded: no event, and the stream ended
        #expect(c.currentStatus != .closed)
        #expect(await registry.keys == ["b", "c"])
        // Reopened, a is a new session.
        let a = await registry.controller(for: "a")
        #expect(a.currentStatus != .closed)
        #expect(await evictions.next() == FeedSessionEviction(key: "b", reason: .overCapacity))
        await registry.closeAll()
    }

    @Test("a closed registry refuses sessions with a typed error")
    func closedRegistryRefuses() async throws {
        let clock = TestClock()
        let registry = try Registry(clock: clock, idleTimeout: nil, maximumCount: nil) { _ in Self.idleController(clock) }
        await registry.closeAll()
        await #expect(throws: FeedSessionRegistryError.closed) { _ = try await registry.openController(for: "a") }
        await #expect(throws: FeedSessionRegistryError.closed) {
            try await registry.withSession(for: "a") { _ in }
        }
    }
}
