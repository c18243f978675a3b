/// The feed controllers of a service, one per client session.
///
/// A session's controller is created by the factory on first use (restored from the
/// ``store`` when it holds the session), and closed when the session leaves: after
/// ``idleTimeout`` without use on the registry's clock, when a new session would go beyond
/// ``maximumCount`` (the least recently used one that is not in use leaves), on
/// ``remove(_:)``, or on ``closeAll()``. Every departure is sent on ``evictions``, after the
/// controller was closed (and its last changes saved).
///
/// ```swift
/// let sessions = try FeedSessionRegistry<String, Post, Int>(
///     idleTimeout: .seconds(300), maximumCount: 10_000
/// ) { sessionID in
///     FeedController(source: PostsSource(user: sessionID), id: \.id)
/// }
/// let result = try await sessions.withSession(for: "session-42") { feed in
///     await feed.loadMore()
/// }
/// ```
///
/// The rules (the DocC article "Durable sessions" has them at length):
/// - **Least recently used, in O(1).** The sessions are kept in a doubly linked list in order
///   of use: a use moves a session to the end, a new session beyond ``maximumCount`` evicts
///   from the front. Two uses at one instant of the clock are ordered as they happened.
/// - **A session in use is not evicted.** It is in use while a caller is inside
///   ``withSession(for:_:)`` for it, or while one of its loads runs
///   (``FeedController/currentLoadStates``). Eviction and the idle timer pass over a session
///   in use and count it as used now. When the registry is at ``maximumCount`` and every
///   session is in use, a new session is refused with
///   ``FeedSessionRegistryError/allSessionsInUse(maximumCount:)`` (``controller(for:)``, which
///   cannot throw, answers a closed controller then).
/// - **A quota per owner.** With ``maximumSessionsPerOwner``, a new session whose owner (the
///   `owner` closure: an account, an API key, an address) already holds that many is refused
///   with ``FeedSessionRegistryError/ownerQuotaExceeded(owner:maximum:)``: one client cannot
///   take every slot and evict everyone else.
/// - **Timers bounded like the controller's.** The idle timer never sleeps longer than about
///   100 years at once, so `.seconds(Int64.max)` means "never", not a trap.
/// - **Durable, with a store.** With a ``FeedSessionStore``, a session missing here is
///   restored from the store, and every change is saved: a page loaded at an end as one page
///   record (O(page)), a refresh or an edit as the whole list. ``withSession(for:_:)`` returns
///   after its changes are saved, so a restart loses at most the requests in flight. A save
///   that lost a race with another instance (a version conflict) drops this copy and throws.
///
/// Idle time is measured on the injected clock (a `TestClock` in tests): the registry keeps one
/// timer, for the session idle the longest (the front of the list).
// Performance note for maintainers: the paths of every request (a look-up, a new session, an
// eviction without a store) are `@inlinable` (their state `@usableFromInline`; treat it as
// private all the same), so that the service's module compiles them specialized for its `Key`,
// `Item` and `Cursor`; unspecialized, a look-up spent most of its ~4,600 instructions looking
// up generic metadata. The store's paths (which await the store) are not. Benchmarks/README.md
// ("Sessions") has the measurements.
public final actor FeedSessionRegistry<Key: Hashable & Sendable, Item: Sendable, Cursor: Hashable & Sendable> {
    /// Makes the controller of a new session.
    public typealias Factory = @Sendable (Key) -> FeedController<Item, Cursor>
    /// Makes the controller of a session: from its saved state when the ``store`` has one
    /// (pass it as `restoring:`), else a new one (`nil`).
    public typealias RestoringFactory = @Sendable (Key, FeedState<Item, Cursor>?) -> FeedController<Item, Cursor>
    /// Names the owner of a session (an account, an API key, an address), for
    /// ``maximumSessionsPerOwner``.
    public typealias Owner = @Sendable (Key) -> String

    /// A session's place in the order of use: plain numbers, so that moving a session to the
    /// end of the list touches no reference and no generic type.
    @usableFromInline struct Slot: Sendable {
        /// The neighbours in order of use (`none`: an end of the list).
        @usableFromInline var older: Int
        @usableFromInline var newer: Int
        @usableFromInline var lastUsed: Duration
        /// Callers inside `withSession` for this session.
        @usableFromInline var holds: Int

        @inlinable static var none: Int { -1 }

        @inlinable init(lastUsed: Duration, holds: Int) {
            self.older = Self.none
            self.newer = Self.none
            self.lastUsed = lastUsed
            self.holds = holds
        }
    }

    /// How long a session may go unused before it is closed, or nil for never.
    public nonisolated let idleTimeout: Duration?
    /// How many sessions may be open at once, or nil for no limit.
    public nonisolated let maximumCount: Int?
    /// How many sessions one owner may hold at once, or nil for no limit.
    public nonisolated let maximumSessionsPerOwner: Int?
    /// The clock of idle time.
    public nonisolated let clock: any Clock<Duration>
    /// Where sessions are saved and restored from, or nil to keep them only in memory.
    public nonisolated let store: (any FeedSessionStore<Key, Item, Cursor>)?

    @usableFromInline let factory: RestoringFactory
    @usableFromInline let owner: Owner?
    /// The time elapsed on ``clock`` since the registry was made.
    @usableFromInline let elapsed: @Sendable () -> Duration

    // The sessions: at an index of the arrays (its place in the order of use, its controller,
    // its key, and its owner when there is a quota; freed indices reused), found by key, linked
    // in order of use;
    // and the sessions being restored from the store (`opening`: counted against the limits,
    // joined by other callers for the same key).
    //
    // Their accesses are checked for exclusivity at run time in debug builds (the test suite),
    // not in release builds, as the controller's state is (FeedController.swift: each check
    // costs ~70 instructions; a new session made ~25 of them). Unchecked is safe for the same
    // reasons: every access runs on the actor, and no access overlaps another within one turn
    // (no inout access to one of them while a closure or call it passes reaches it), which the
    // checked debug builds enforce on every test.
    #if DEBUG
    @usableFromInline var slots: [Slot] = []
    @usableFromInline var controllers: [FeedController<Item, Cursor>?] = []
    @usableFromInline var sessionKeys: [Key?] = []
    @usableFromInline var owners: [String?] = []
    @usableFromInline var freeSlots: [Int] = []
    @usableFromInline var slotOfKey: [Key: Int] = [:]
    @usableFromInline var leastRecent = Slot.none
    @usableFromInline var mostRecent = Slot.none
    @usableFromInline var sessionsOfOwner: [String: Int] = [:]
    @usableFromInline var opening: [Key: [CheckedContinuation<Void, Never>]] = [:]
    @usableFromInline var idleTimer: Task<Void, Never>?
    @usableFromInline var isClosed = false
    #else
    @exclusivity(unchecked) @usableFromInline var slots: [Slot] = []
    @exclusivity(unchecked) @usableFromInline var controllers: [FeedController<Item, Cursor>?] = []
    @exclusivity(unchecked) @usableFromInline var sessionKeys: [Key?] = []
    @exclusivity(unchecked) @usableFromInline var owners: [String?] = []
    @exclusivity(unchecked) @usableFromInline var freeSlots: [Int] = []
    @exclusivity(unchecked) @usableFromInline var slotOfKey: [Key: Int] = [:]
    @exclusivity(unchecked) @usableFromInline var leastRecent = Slot.none
    @exclusivity(unchecked) @usableFromInline var mostRecent = Slot.none
    @exclusivity(unchecked) @usableFromInline var sessionsOfOwner: [String: Int] = [:]
    @exclusivity(unchecked) @usableFromInline var opening: [Key: [CheckedContinuation<Void, Never>]] = [:]
    @exclusivity(unchecked) @usableFromInline var idleTimer: Task<Void, Never>?
    @exclusivity(unchecked) @usableFromInline var isClosed = false
    #endif
    /// The saved version of each open session (absent: nothing saved yet).
    @usableFromInline var savedVersions: [Key: FeedSessionVersion] = [:]
    /// Keys whose saves (or restore) are running, with the callers waiting their turn: one at
    /// a time per key, so that each save is made on the version the previous one answered.
    @usableFromInline var storeTurns: [Key: [CheckedContinuation<Void, Never>]] = [:]

    @usableFromInline let evictionSubscribers = Locked(EvictionSubscribers())

    @usableFromInline struct EvictionSubscribers: Sendable {
        @usableFromInline var next = 0
        @usableFromInline var continuations: [Int: AsyncStream<FeedSessionEviction<Key>>.Continuation] = [:]
        @usableFromInline var finished = false

        @inlinable init() {}
    }

    /// Creates a registry.
    ///
    /// - Parameters:
    ///   - clock: The clock idle time is measured on.
    ///   - idleTimeout: How long a session may go unused; nil: sessions never idle out. A
    ///     timeout beyond about 100 years is waited for in steps of 100 years (never a trap).
    ///   - maximumCount: How many sessions may be open; nil: no limit.
    ///   - maximumSessionsPerOwner: How many sessions one owner may hold; nil: no limit
    ///     (ignored without `owner`).
    ///   - owner: Names the owner of a session's key; nil: no quota.
    ///   - store: Where sessions are saved and restored from; nil: memory only.
    ///   - factory: Makes the controller of a session, from its saved state if any. It runs
    ///     on the registry, so it should only create the controller.
    /// - Throws: ``FeedSessionRegistryError`` for a non-positive timeout or a count below 1.
    public init(
        clock: any Clock<Duration> = ContinuousClock(),
        idleTimeout: Duration?,
        maximumCount: Int?,
        maximumSessionsPerOwner: Int? = nil,
        owner: Owner? = nil,
        store: (any FeedSessionStore<Key, Item, Cursor>)? = nil,
        factory: @escaping RestoringFactory
    ) throws(FeedSessionRegistryError) {
        if let idleTimeout, idleTimeout <= .zero { throw .nonPositiveIdleTimeout(idleTimeout) }
        if let maximumCount, maximumCount < 1 { throw .invalidMaximumCount(maximumCount) }
        if let maximumSessionsPerOwner, maximumSessionsPerOwner < 1 {
            throw .invalidMaximumSessionsPerOwner(maximumSessionsPerOwner)
        }
        self.clock = clock
        self.idleTimeout = idleTimeout
        self.maximumCount = maximumCount
        self.maximumSessionsPerOwner = owner == nil ? nil : maximumSessionsPerOwner
        self.owner = maximumSessionsPerOwner == nil ? nil : owner
        self.store = store
        self.factory = factory
        if let continuous = clock as? ContinuousClock {
            // The usual clock, read without generic code (a look-up reads it).
            let start = continuous.now
            self.elapsed = { start.duration(to: .now) }
        } else {
            self.elapsed = Self.elapsedTime(on: clock)
        }
    }

    /// Creates a registry without a store, whose factory makes new controllers only.
    ///
    /// - Parameters:
    ///   - clock: The clock idle time is measured on.
    ///   - idleTimeout: How long a session may go unused; nil: sessions never idle out.
    ///   - maximumCount: How many sessions may be open; nil: no limit.
    ///   - factory: Makes the controller of a new session. It runs on the registry, so it
    ///     should only create the controller.
    /// - Throws: ``FeedSessionRegistryError`` for a non-positive timeout or a count below 1.
    public init(
        clock: any Clock<Duration> = ContinuousClock(),
        idleTimeout: Duration?,
        maximumCount: Int?,
        factory: @escaping Factory
    ) throws(FeedSessionRegistryError) {
        try self.init(
            clock: clock, idleTimeout: idleTimeout, maximumCount: maximumCount,
            factory: { key, _ in factory(key) } as RestoringFactory)
    }

    private static func elapsedTime<C: Clock<Duration>>(on clock: C) -> @Sendable () -> Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
    }

    deinit {
        idleTimer?.cancel()
        let continuations = evictionSubscribers.withLock { subscribers in
            subscribers.finished = true
            defer { subscribers.continuations = [:] }
            return Array(subscribers.continuations.values)
        }
        for continuation in continuations { continuation.finish() }
        for controller in controllers { controller?.send(.close) }
    }

    // MARK: Sessions

    /// Runs `body` with the controller of session `key` — the open one, one restored from the
    /// ``store``, or a new one — keeping the session in use (never evicted) until `body`
    /// returns, then saves its changes to the store before returning.
    ///
    /// - Throws: ``FeedSessionRegistryError`` when the session is refused (every session in
    ///   use at ``maximumCount``, the owner's quota, the registry closed) or the store fails
    ///   (`.store(_:)`; on a version conflict the session was dropped here: answer "conflict"
    ///   or call again, which restores the saved list); else what `body` throws.
    @inlinable public func withSession<Value: Sendable>(
        for key: Key, _ body: (FeedController<Item, Cursor>) async throws -> Value
    ) async throws -> Value {
        let controller: FeedController<Item, Cursor>
        if let open = usedIfOpen(key, hold: true) { controller = open } else { controller = try await acquire(key, hold: true) }
        let result: Value
        do {
            result = try await body(controller)
        } catch {
            release(key, controller)
            if store != nil { try await saveChanges(of: key, controller) }
            throw error
        }
        release(key, controller)
        if store != nil { try await saveChanges(of: key, controller) }
        return result
    }

    /// The controller of session `key`: the open one (now the most recently used), one
    /// restored from the ``store``, or a new one from the factory. A new session at
    /// ``maximumCount`` closes the least recently used session that is not in use first.
    ///
    /// The session is in use only while one of its loads runs: a caller that awaits other
    /// work with it should use ``withSession(for:_:)``. Changes are saved in the background.
    /// - Throws: ``FeedSessionRegistryError`` when the session is refused or its restore
    ///   failed.
    @inlinable public func openController(for key: Key) async throws(FeedSessionRegistryError) -> FeedController<Item, Cursor> {
        if let controller = usedIfOpen(key, hold: false) { return controller }
        return try await acquire(key, hold: false)
    }

    /// The controller of session `key`, as ``openController(for:)`` answers it; when the
    /// session is refused (``FeedSessionRegistryError``: every session in use, the owner's
    /// quota, a store failure) or the registry is closed, a controller that is closed at once
    /// and kept nowhere, so a late or refused request gets a closed feed rather than a trap.
    @inlinable public func controller(for key: Key) async -> FeedController<Item, Cursor> {
        if let controller = usedIfOpen(key, hold: false) { return controller }
        do {
            return try await acquire(key, hold: false)
        } catch {
            let controller = factory(key, nil)
            await controller.close()
            return controller
        }
    }

    /// The controller of session `key` if it is open here (now the most recently used),
    /// without creating or restoring one.
    @inlinable public func existingController(for key: Key) -> FeedController<Item, Cursor>? {
        guard let index = slotOfKey[key] else { return nil }
        touch(index)
        return controllers[index]
    }

    /// Closes and removes session `key`, here and in the ``store``, even while it is in use
    /// (its loads end cancelled by close). Returns false when it was neither open nor saved.
    @discardableResult
    public func remove(_ key: Key) async -> Bool {
        var removed = false
        if let index = slotOfKey[key] {
            await evict(index, reason: .removed, save: false)
            removed = true
        }
        if let store {
            await takeStoreTurn(key)
            if (try? await store.remove(key)) == true { removed = true }
            savedVersions[key] = nil
            giveUpStoreTurn(key)
        }
        return removed
    }

    /// Closes every session, in use or not (saving their last changes), and the registry: ``evictions`` ends
    /// after the last event, and later calls are refused (``controller(for:)`` answers closed
    /// controllers).
    public func closeAll() async {
        guard !isClosed else { return }
        isClosed = true
        idleTimer?.cancel()
        idleTimer = nil
        while leastRecent != Slot.none {
            await evict(leastRecent, reason: .registryClosed, save: true)
        }
        let continuations = evictionSubscribers.withLock { subscribers in
            subscribers.finished = true
            defer { subscribers.continuations = [:] }
            return Array(subscribers.continuations.values)
        }
        for continuation in continuations { continuation.finish() }
    }

    /// How many sessions are open.
    public var count: Int { slotOfKey.count }

    /// The keys of the open sessions, least recently used first (O(sessions)).
    public var keys: [Key] {
        var keys: [Key] = []
        keys.reserveCapacity(slotOfKey.count)
        var index = leastRecent
        while index != Slot.none, let key = sessionKeys[index] {
            keys.append(key)
            index = slots[index].newer
        }
        return keys
    }

    /// How many sessions `owner` holds (opening ones included).
    public func sessionCount(ofOwner owner: String) -> Int { sessionsOfOwner[owner] ?? 0 }

    // MARK: Acquiring

    /// The controller of session `key` when it is open (now the most recently used; held when
    /// `hold`), without a suspension: the path of most requests.
    @inlinable func usedIfOpen(_ key: Key, hold: Bool) -> FeedController<Item, Cursor>? {
        guard !isClosed, let index = slotOfKey[key], let controller = controllers[index] else { return nil }
        touch(index)
        if hold { slots[index].holds += 1 }
        return controller
    }

    @inlinable func acquire(_ key: Key, hold: Bool) async throws(FeedSessionRegistryError) -> FeedController<Item, Cursor> {
        while true {
            if isClosed { throw .closed }
            if let controller = usedIfOpen(key, hold: hold) { return controller }
            if opening[key] != nil {
                // Being opened by another caller: wait, then look again (it is open, or its
                // restore failed and this caller tries).
                await withCheckedContinuation { opening[key]?.append($0) }
                continue
            }
            return try await open(key, hold: hold)
        }
    }

    /// Opens a session missing here: checks the limits (evicting the least recently used
    /// session not in use at the cap), restores it from the store or creates it. While it
    /// awaits, the session is counted against the limits, and other callers for `key` wait.
    @inlinable func open(_ key: Key, hold: Bool) async throws(FeedSessionRegistryError) -> FeedController<Item, Cursor> {
        let owner = owner?(key)
        if let owner, let maximumSessionsPerOwner, sessionsOfOwner[owner, default: 0] >= maximumSessionsPerOwner {
            throw .ownerQuotaExceeded(owner: owner, maximum: maximumSessionsPerOwner)
        }
        var victim: Int?
        if let maximumCount, slotOfKey.count + opening.count >= maximumCount {
            victim = leastRecentlyUsedNotInUse()
            if victim == nil { throw .allSessionsInUse(maximumCount: maximumCount) }
        }
        guard store == nil else { return try await open(key, hold: hold, owner: owner, evicting: victim) }
        guard let victim else {
            // Below the cap and nothing to restore: no await, nothing to reserve.
            let controller = factory(key, nil)
            insert(key, controller, owner: owner, hold: hold)
            return controller
        }
        // Nobody else holds the victim's controller (no caller, no load, whose task would hold
        // it): it leaves the books at once, the new session takes its place, and it is closed
        // here, in this specialized code, so that its (generic, unspecialized) deinit finds it
        // closed and has nothing left to do. Otherwise it is closed on the awaiting path.
        guard isKnownUniquelyReferenced(&controllers[victim]!) else {
            return try await open(key, hold: hold, owner: owner, evicting: victim)
        }
        let evicted = detach(victim)
        let controller = factory(key, nil)
        insert(key, controller, owner: owner, hold: hold)
        await evicted.controller.close()
        announceEviction(of: evicted.key, reason: .overCapacity)
        return controller
    }

    /// The part of ``open(_:hold:)`` that awaits: evicting a session whose controller must be
    /// closed on its actor or saved, restoring from the store.
    @usableFromInline func open(
        _ key: Key, hold: Bool, owner: String?, evicting victim: Int?
    ) async throws(FeedSessionRegistryError) -> FeedController<Item, Cursor> {
        opening[key] = []
        if let owner { sessionsOfOwner[owner, default: 0] += 1 }
        defer {
            if let owner { decrementOwner(owner) }
            for waiting in opening.removeValue(forKey: key) ?? [] { waiting.resume() }
        }
        if let victim { await evict(victim, reason: .overCapacity, save: true) }
        var stored: StoredFeedSession<Item, Cursor>?
        if let store {
            await takeStoreTurn(key)
            do {
                stored = try await store.load(key)
            } catch {
                giveUpStoreTurn(key)
                throw .store(error)
            }
            savedVersions[key] = stored?.version
            giveUpStoreTurn(key)
        }
        if isClosed { throw .closed }
        let controller = factory(key, stored?.state)
        if store != nil {
            await controller._attachSessionJournal(restoredGeneration: stored?.state.generation) { [weak self] in
                Task { await self?.saveInBackground(key) }
            }
            if isClosed {
                await controller.close()
                throw .closed
            }
        }
        insert(key, controller, owner: owner, hold: hold)
        return controller
    }

    @inlinable func release(_ key: Key, _ controller: FeedController<Item, Cursor>) {
        guard let index = slotOfKey[key], controllers[index] === controller else { return }
        slots[index].holds -= 1
        touch(index)
    }

    // MARK: The list in order of use

    @inlinable func insert(_ key: Key, _ controller: FeedController<Item, Cursor>, owner: String?, hold: Bool) {
        let slot = Slot(lastUsed: elapsed(), holds: hold ? 1 : 0)
        let index: Int
        if let free = freeSlots.popLast() {
            index = free
            slots[index] = slot
            controllers[index] = controller
            sessionKeys[index] = key
            if self.owner != nil { owners[index] = owner }
        } else {
            index = slots.count
            slots.append(slot)
            controllers.append(controller)
            sessionKeys.append(key)
            if self.owner != nil { owners.append(owner) }
        }
        slotOfKey[key] = index
        if let owner { sessionsOfOwner[owner, default: 0] += 1 }
        link(index)
        if idleTimer == nil { scheduleIdleTimer() }
    }

    /// Marks session `index` used now: it moves to the end of the list.
    @inlinable func touch(_ index: Int) {
        slots[index].lastUsed = elapsed()
        guard index != mostRecent else { return }
        unlink(index)
        link(index)
    }

    @inlinable func link(_ index: Int) {
        slots[index].older = mostRecent
        slots[index].newer = Slot.none
        if mostRecent != Slot.none { slots[mostRecent].newer = index } else { leastRecent = index }
        mostRecent = index
    }

    @inlinable func unlink(_ index: Int) {
        let older = slots[index].older
        let newer = slots[index].newer
        if older != Slot.none { slots[older].newer = newer } else { leastRecent = newer }
        if newer != Slot.none { slots[newer].older = older } else { mostRecent = older }
    }

    /// The least recently used session not in use, from the front of the list; each session
    /// in use passed on the way is counted as used now (moved to the end), so the next search
    /// does not pass it again. At most one pass over the sessions.
    @inlinable func leastRecentlyUsedNotInUse() -> Int? {
        var remaining = slotOfKey.count
        while remaining > 0, leastRecent != Slot.none {
            if !isInUse(leastRecent) { return leastRecent }
            touch(leastRecent)
            remaining -= 1
        }
        return nil
    }

    /// Takes session `index` out of the registry's books (list, keys, owner count).
    @inlinable func detach(_ index: Int) -> (key: Key, controller: FeedController<Item, Cursor>) {
        unlink(index)
        let controller = controllers[index].take()!
        let key = sessionKeys[index].take()!
        freeSlots.append(index)
        slotOfKey[key] = nil
        if self.owner != nil, let owner = owners[index].take() { decrementOwner(owner) }
        return (key, controller)
    }

    /// Whether session `index` is in use: held by a caller, or one of its loads runs.
    @inlinable func isInUse(_ index: Int) -> Bool {
        slots[index].holds > 0 || controllers[index]!.currentLoadStates.isLoading
    }

    @inlinable func decrementOwner(_ owner: String) {
        let left = sessionsOfOwner[owner, default: 0] - 1
        sessionsOfOwner[owner] = left > 0 ? left : nil
    }

    // MARK: Evictions

    /// A new subscription to eviction events: every session that leaves from now on. Ends
    /// after ``closeAll()`` (at once if the registry is already closed).
    public nonisolated var evictions: AsyncStream<FeedSessionEviction<Key>> {
        let (stream, continuation) = AsyncStream.makeStream(of: FeedSessionEviction<Key>.self)
        let id: Int? = evictionSubscribers.withLock { subscribers in
            guard !subscribers.finished else { return nil }
            let id = subscribers.next
            subscribers.next += 1
            subscribers.continuations[id] = continuation
            return id
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        // The closure holds the subscriber table, which holds the continuation: the cycle ends
        // when the stream terminates (this closure runs once and is released) or is finished.
        let subscribers = evictionSubscribers
        continuation.onTermination = { _ in
            _ = subscribers.withLock { $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    @inlinable func evict(_ index: Int, reason: FeedSessionEviction<Key>.Reason, save: Bool) async {
        let (key, controller) = detach(index)
        await finishEviction(of: key, controller, reason: reason, save: save)
    }

    /// Closes a detached session's controller, saves its last changes (when `save`), forgets
    /// its version, and sends the event.
    @usableFromInline func finishEviction(
        of key: Key, _ controller: consuming FeedController<Item, Cursor>, reason: FeedSessionEviction<Key>.Reason, save: Bool
    ) async {
        var controller: FeedController<Item, Cursor>? = controller
        if store == nil && isKnownUniquelyReferenced(&controller) {
            // Nobody else holds it (no caller, no load, whose task would hold it): releasing it
            // closes it as `close()` does (FeedController.deinit), without a hop to its actor.
            controller = nil
        } else if let controller {
            // With a store, callers for `key` wait until its last changes are saved (as for a
            // session being restored): a restore before that would read a list without them.
            let marksKey = store != nil && opening[key] == nil
            if marksKey { opening[key] = [] }
            await controller.close()
            if let store {
                await takeStoreTurn(key)
                if save { _ = try? await saveRecords(of: key, controller, to: store) }
                savedVersions[key] = nil
                giveUpStoreTurn(key)
            }
            if marksKey {
                for waiting in opening.removeValue(forKey: key) ?? [] { waiting.resume() }
            }
        }
        announceEviction(of: key, reason: reason)
    }

    /// Sends the eviction of `key` to every subscriber of ``evictions``.
    @inlinable func announceEviction(of key: Key, reason: FeedSessionEviction<Key>.Reason) {
        let continuations = evictionSubscribers.withLock { subscribers in
            subscribers.continuations.isEmpty ? [] : Array(subscribers.continuations.values)
        }
        guard !continuations.isEmpty else { return }
        let event = FeedSessionEviction(key: key, reason: reason)
        for continuation in continuations { continuation.yield(event) }
    }

    // MARK: Saving

    /// Waits for `key`'s turn at the store: one restore or save at a time per key.
    @usableFromInline func takeStoreTurn(_ key: Key) async {
        if storeTurns[key] == nil {
            storeTurns[key] = []
            return
        }
        await withCheckedContinuation { storeTurns[key]?.append($0) }
    }

    /// Hands `key`'s turn to the next caller waiting, if any.
    @usableFromInline func giveUpStoreTurn(_ key: Key) {
        guard var waiting = storeTurns[key] else { return }
        if waiting.isEmpty {
            storeTurns[key] = nil
            return
        }
        let next = waiting.removeFirst()
        storeTurns[key] = waiting
        next.resume()
    }

    /// Saves what changed in session `key` since its last save, in its turn at the store.
    /// On failure the session is dropped here (a conflict: another writer is ahead; another
    /// failure: what is saved is unknown) and the error thrown.
    @usableFromInline func saveChanges(of key: Key, _ controller: FeedController<Item, Cursor>) async throws(FeedSessionRegistryError) {
        guard let store else { return }
        await takeStoreTurn(key)
        guard let index = slotOfKey[key], controllers[index] === controller else {
            giveUpStoreTurn(key) // evicted meanwhile: its eviction saved it
            return
        }
        do {
            try await saveRecords(of: key, controller, to: store)
            giveUpStoreTurn(key)
        } catch {
            giveUpStoreTurn(key)
            if let index = slotOfKey[key], controllers[index] === controller {
                let reason: FeedSessionEviction<Key>.Reason
                if case .versionConflict = error { reason = .storeConflict } else { reason = .storeFailed }
                await evict(index, reason: reason, save: false)
            }
            throw .store(error)
        }
    }

    /// Saves a session's changes that nobody waits for (a page that landed outside
    /// ``withSession(for:_:)``). A held session is saved when its holder returns.
    @usableFromInline func saveInBackground(_ key: Key) async {
        guard let index = slotOfKey[key], slots[index].holds == 0, let controller = controllers[index] else { return }
        try? await saveChanges(of: key, controller)
    }

    /// Writes the records taken from the controller, each on the version the previous one
    /// answered. Run in `key`'s store turn.
    @usableFromInline func saveRecords(
        of key: Key, _ controller: FeedController<Item, Cursor>, to store: any FeedSessionStore<Key, Item, Cursor>
    ) async throws(FeedSessionStoreError) {
        let records = try await controller._takeSessionRecords(wholeList: savedVersions[key] == nil)
        for record in records {
            savedVersions[key] = try await store.save(record, for: key, expectedVersion: savedVersions[key])
        }
    }

    // MARK: Idle timer

    /// Keeps one timer, for when the session idle the longest (the front of the list) reaches
    /// the timeout; never longer than the controller's longest timer (about 100 years).
    @usableFromInline func scheduleIdleTimer() {
        guard let idleTimeout, !isClosed, idleTimer == nil else { return }
        guard leastRecent != Slot.none else { return }
        let oldest = slots[leastRecent].lastUsed
        let idleFor = max(.zero, elapsed() - oldest)
        let delay = idleFor >= idleTimeout ? .zero : (idleTimeout - idleFor).boundedForTimers
        let clock = self.clock
        idleTimer = Task { [weak self] in
            do {
                try await clock.sleep(for: delay)
            } catch {
                return
            }
            await self?.idleTimerFired()
        }
    }

    @usableFromInline func idleTimerFired() async {
        idleTimer = nil
        guard let idleTimeout, !isClosed else { return }
        // From the front while idle long enough; a session in use is counted as used now.
        var remaining = slotOfKey.count
        while remaining > 0, leastRecent != Slot.none, elapsed() - slots[leastRecent].lastUsed >= idleTimeout {
            remaining -= 1
            if isInUse(leastRecent) {
                touch(leastRecent)
            } else {
                await evict(leastRecent, reason: .idle, save: true)
            }
        }
        scheduleIdleTimer()
    }
}
