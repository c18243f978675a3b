import Testing
import AsyncPaging
import AsyncPagingTesting

/// The session registry's rules on the test clock: no sleeps, rendezvous only (the eviction
/// stream and the clock's sleeper count).
@Suite("session registry")
struct FeedSessionRegistryTests {
    typealias Registry = FeedSessionRegistry<String, Post, Int>

    /// A registry whose controllers never load by themselves, and a count of factory calls.
    static func makeRegistry(
        clock: TestClock, idleTimeout: Duration? = .seconds(60), maximumCount: Int? = nil
    ) throws -> (Registry, Locked<Int>) {
        let created = Locked(0)
        let registry = try Registry(clock: clock, idleTimeout: idleTimeout, maximumCount: maximumCount) { _ in
            created.withLock { $0 += 1 }
            return FeedController(source: PostSource(), clock: clock, configuration: configuration(loadsInitialPage: false))
        }
        return (registry, created)
    }

    @Test("a session's controller is created on first use and reused after")
    func createdOnFirstUse() async throws {
        let clock = TestClock()
        let (registry, created) = try Self.makeRegistry(clock: clock, idleTimeout: nil)
        let first = await registry.controller(for: "a")
        let again = await registry.controller(for: "a")
        let other = await registry.controller(for: "b")
        #expect(first === again)
        #expect(first !== other)
        #expect(created.withLock { $0 } == 2)
        #expect(await registry.count == 2)
        #expect(await registry.existingController(for: "c") == nil)
        #expect(await registry.count == 2)
    }

    @Test("an idle session is closed after the idle timeout on the clock; a used one is kept")
    func idleEviction() async throws {
        let clock = TestClock()
        let (registry, _) = try Self.makeRegistry(clock: clock, idleTimeout: .seconds(60))
        var evictions = registry.evictions.makeAsyncIterator()
        let a = await registry.controller(for: "a")
        await clock.waitForSleepers(1)                       // the idle timer, for a at t+60
        clock.advance(by: .seconds(30))
        _ = await registry.controller(for: "b")               // b last used at t+30
        clock.advance(by: .seconds(30))                       // t+60: a is idle
        #expect(await evictions.next() == FeedSessionEviction(key: "a", reason: .idle))
        #expect(a.currentStatus == .closed)
        #expect(await registry.keys == ["b"])
        await clock.waitForSleepers(1)                       // the timer again, for b at t+90
        #expect(clock.nextDeadline == TestClock.Instant(offset: .seconds(90)))
        clock.advance(by: .seconds(30))
        #expect(await evictions.next() == FeedSessionEviction(key: "b", reason: .idle))
        #expect(await registry.count == 0)
    }

    @Test("using a session restarts its idle time")
    func useRestartsIdleTime() async throws {
        let clock = TestClock()
        let (registry, _) = try Self.makeRegistry(clock: clock, idleTimeout: .seconds(60))
        var evictions = registry.evictions.makeAsyncIterator()
        _ = await registry.controller(for: "a")
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(50))
        #expect(await registry.existingController(for: "a") != nil)   // used at t+50
        clock.advance(by: .seconds(10))                                  // t+60: the timer finds a in use
        await clock.waitForSleepers(1)
        #expect(clock.nextDeadline == TestClock.Instant(offset: .seconds(110)))
        #expect(await registry.count == 1)
        clock.advance(by: .seconds(50))
        #expect(await evictions.next() == FeedSessionEviction(key: "a", reason: .idle))
    }

    @Test("beyond the maximum count, the least recently used session is closed")
    func capacityEvictsLeastRecentlyUsed() async throws {
        let clock = TestClock()
        let (registry, _) = try Self.makeRegistry(clock: clock, idleTimeout: nil, maximumCount: 2)
        var evictions = registry.evictions.makeAsyncIterator()
        _ = await registry.controller(for: "a")
        clock.advance(by: .seconds(1))
        let b = await registry.controller(for: "b")
        clock.advance(by: .seconds(1))
        _ = await registry.controller(for: "a")           // a is now the most recently used
        clock.advance(by: .seconds(1))
        _ = await registry.controller(for: "c")
        #expect(await evictions.next() == FeedSessionEviction(key: "b", reason: .overCapacity))
        #expect(b.currentStatus == .closed)
        #expect(await registry.keys == ["a", "c"])
        #expect(await registry.count == 2)
    }

    @Test("remove closes the session once")
    func remove() async throws {
        let clock = TestClock()
        let (registry, _) = try Self.makeRegistry(clock: clock)
        var evictions = registry.evictions.makeAsyncIterator()
        let a = await registry.controller(for: "a")
        #expect(await registry.remove("a"))
        #expect(await evictions.next() == FeedSessionEviction(key: "a", reason: .removed))
        #expect(a.currentStatus == .closed)
        #expect(await registry.remove("a") == false)
        #expect(await registry.controller(for: "a") !== a)  // a new session under the same key
    }

    @Test("closeAll closes every session, ends the eviction stream, and later sessions are closed")
    func closeAll() async throws {
        let clock = TestClock()
        let (registry, _) = try Self.makeRegistry(clock: clock)
        let recorder = StreamRecorder(registry.evictions)
        _ = await registry.controller(for: "a")
        _ = await registry.controller(for: "b")
        await registry.closeAll()
        let events = await recorder.waitForFinish()
        #expect(Set(events) == [
            FeedSessionEviction(key: "a", reason: .registryClosed),
            FeedSessionEviction(key: "b", reason: .registryClosed),
        ])
        #expect(await registry.count == 0)
        let late = await registry.controller(for: "c")
        #expect(late.currentStatus == .closed)
        #expect(await registry.count == 0)
        var after = registry.evictions.makeAsyncIterator()
        #expect(await after.next() == nil)
    }

    @Test("limits that cannot work are typed errors")
    func invalidLimits() {
        #expect(throws: FeedSessionRegistryError.nonPositiveIdleTimeout(.zero)) {
            _ = try Self.makeRegistry(clock: TestClock(), idleTimeout: .zero)
        }
        #expect(throws: FeedSessionRegistryError.invalidMaximumCount(0)) {
            _ = try Self.makeRegistry(clock: TestClock(), maximumCount: 0)
        }
    }
}
