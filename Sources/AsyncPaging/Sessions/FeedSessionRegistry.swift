/// The feed controllers of a service, one per client session.
///
/// A session's controller is created by the factory on first use
/// (``controller(for:)``), and closed when the session leaves: after ``idleTimeout`` without
/// use on the registry's clock, when a new session would go beyond ``maximumCount`` (the least
/// recently used leaves first), on ``remove(_:)``, or on ``closeAll()``. Every departure is
/// sent on ``evictions``, after the controller was closed.
///
/// ```swift
/// let sessions = try FeedSessionRegistry<String, Post, Int>(
///     idleTimeout: .seconds(300), maximumCount: 10_000
/// ) { sessionID in
///     FeedController(source: PostsSource(user: sessionID), id: \.id)
/// }
/// let feed = await sessions.controller(for: "session-42")   // created, or the existing one
/// ```
///
/// Idle time is measured on the injected clock (a `TestClock` in tests): the registry keeps one
/// timer, for the session idle the longest. Finding the least recently used session is a scan
/// of the sessions, so a creation beyond the maximum costs O(sessions).
public actor FeedSessionRegistry<Key: Hashable & Sendable, Item: Sendable, Cursor: Hashable & Sendable> {
    /// Makes the controller of a new session.
    public typealias Factory = @Sendable (Key) -> FeedController<Item, Cursor>

    private struct Session {
        let controller: FeedController<Item, Cursor>
        var lastUsed: Duration
    }

    /// How long a session may go unused before it is closed, or nil for never.
    public nonisolated let idleTimeout: Duration?
    /// How many sessions may be open at once, or nil for no limit.
    public nonisolated let maximumCount: Int?
    /// The clock of idle time.
    public nonisolated let clock: any Clock<Duration>

    private let factory: Factory
    private let elapsed: @Sendable () -> Duration
    private var sessions: [Key: Session] = [:]
    private var idleTimer: Task<Void, Never>?
    private var isClosed = false
    private let evictionSubscribers = Locked(EvictionSubscribers())

    private struct EvictionSubscribers {
        var next = 0
        var continuations: [Int: AsyncStream<FeedSessionEviction<Key>>.Continuation] = [:]
        var finished = false
    }

    /// Creates a registry.
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
        if let idleTimeout, idleTimeout <= .zero { throw .nonPositiveIdleTimeout(idleTimeout) }
        if let maximumCount, maximumCount < 1 { throw .invalidMaximumCount(maximumCount) }
        self.clock = clock
        self.idleTimeout = idleTimeout
        self.maximumCount = maximumCount
        self.factory = factory
        self.elapsed = Self.elapsedTime(on: clock)
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
        for session in sessions.values { session.controller.send(.close) }
    }

    // MARK: Sessions

    /// The controller of session `key`: the existing one (now the most recently used), or a
    /// new one from the factory. A new session beyond ``maximumCount`` closes the least
    /// recently used other session first.
    ///
    /// After ``closeAll()``, every call creates a controller that is closed at once and kept
    /// nowhere, so a late request gets a closed feed rather than a trap.
    public func controller(for key: Key) async -> FeedController<Item, Cursor> {
        let now = elapsed()
        if var session = sessions[key] {
            session.lastUsed = now
            sessions[key] = session
            return session.controller
        }
        let controller = factory(key)
        if isClosed {
            await controller.close()
            return controller
        }
        sessions[key] = Session(controller: controller, lastUsed: now)
        if let maximumCount {
            while sessions.count > maximumCount, let oldest = leastRecentlyUsed(excluding: key) {
                await evict(oldest, reason: .overCapacity)
            }
        }
        scheduleIdleTimer()
        return controller
    }

    /// The controller of session `key` if it is open (now the most recently used), without
    /// creating one.
    public func existingController(for key: Key) -> FeedController<Item, Cursor>? {
        guard var session = sessions[key] else { return nil }
        session.lastUsed = elapsed()
        sessions[key] = session
        return session.controller
    }

    /// Closes and removes session `key`. Returns false when there was none.
    @discardableResult
    public func remove(_ key: Key) async -> Bool {
        guard sessions[key] != nil else { return false }
        await evict(key, reason: .removed)
        return true
    }

    /// Closes every session and the registry: ``evictions`` ends after the last event, and
    /// later ``controller(for:)`` calls get closed controllers.
    public func closeAll() async {
        guard !isClosed else { return }
        isClosed = true
        idleTimer?.cancel()
        idleTimer = nil
        for key in Array(sessions.keys) {
            await evict(key, reason: .registryClosed)
        }
        let continuations = evictionSubscribers.withLock { subscribers in
            subscribers.finished = true
            defer { subscribers.continuations = [:] }
            return Array(subscribers.continuations.values)
        }
        for continuation in continuations { continuation.finish() }
    }

    /// How many sessions are open.
    public var count: Int { sessions.count }

    /// The keys of the open sessions, least recently used first.
    public var keys: [Key] { sessions.sorted { $0.value.lastUsed < $1.value.lastUsed }.map(\.key) }

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

    private func evict(_ key: Key, reason: FeedSessionEviction<Key>.Reason) async {
        guard let session = sessions.removeValue(forKey: key) else { return }
        await session.controller.close()
        let event = FeedSessionEviction(key: key, reason: reason)
        let continuations = evictionSubscribers.withLock { Array($0.continuations.values) }
        for continuation in continuations { continuation.yield(event) }
    }

    private func leastRecentlyUsed(excluding excluded: Key) -> Key? {
        var oldest: (key: Key, lastUsed: Duration)?
        for (key, session) in sessions where key != excluded {
            if oldest == nil || session.lastUsed < oldest!.lastUsed { oldest = (key, session.lastUsed) }
        }
        return oldest?.key
    }

    // MARK: Idle timer

    /// Keeps one timer, for when the session idle the longest reaches the timeout.
    private func scheduleIdleTimer() {
        guard let idleTimeout, !isClosed, idleTimer == nil else { return }
        guard let oldest = sessions.values.map(\.lastUsed).min() else { return }
        let deadline = oldest + idleTimeout
        let delay = max(.zero, deadline - elapsed())
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

    private func idleTimerFired() async {
        idleTimer = nil
        guard let idleTimeout, !isClosed else { return }
        let now = elapsed()
        let expired = sessions.filter { now - $0.value.lastUsed >= idleTimeout }
            .sorted { $0.value.lastUsed < $1.value.lastUsed }.map(\.key)
        for key in expired {
            // Used again while an earlier eviction was closing its controller: keep it.
            guard let session = sessions[key], elapsed() - session.lastUsed >= idleTimeout else { continue }
            await evict(key, reason: .idle)
        }
        scheduleIdleTimer()
    }
}
