import AsyncPaging

/// A ``SharedFeedSessionStore`` in this process: the engine's ``InMemoryFeedSessionStore``
/// with a lock per session. Sessions outlive their controllers (an eviction, `--idle-seconds`)
/// but not the process; several ``FeedSessions`` over one such store behave as instances
/// sharing a database (what the tests do). `--store memory`.
public final class InProcessSessionStore: SharedFeedSessionStore {
    /// The sessions.
    public let sessions = InMemoryFeedSessionStore<String, FeedItem, String>()
    private let locks = SessionLocks()

    /// Creates an empty store.
    public init() {}

    /// Runs `body` holding `key`'s lock (callers for one key run one at a time, in order of
    /// arrival).
    public func withSessionLock<Result: Sendable>(
        _ key: String, _ body: () async throws -> Result
    ) async throws -> Result {
        await locks.acquire(key)
        do {
            let result = try await body()
            await locks.release(key)
            return result
        } catch {
            await locks.release(key)
            throw error
        }
    }

    /// The saved session `key`.
    public func load(_ key: String) async throws(FeedSessionStoreError) -> StoredFeedSession<FeedItem, String>? {
        try await sessions.load(key)
    }

    /// Writes `record` if the saved version is `expectedVersion`.
    public func save(
        _ record: FeedSessionRecord<FeedItem, String>, for key: String, expectedVersion: FeedSessionVersion?
    ) async throws(FeedSessionStoreError) -> FeedSessionVersion {
        try await sessions.save(record, for: key, expectedVersion: expectedVersion)
    }

    /// Deletes session `key`.
    @discardableResult
    public func remove(_ key: String) async throws(FeedSessionStoreError) -> Bool {
        await sessions.remove(key)
    }

    /// The saved version of `key` (loads the session: in memory, that is cheap).
    public func version(of key: String) async throws(FeedSessionStoreError) -> FeedSessionVersion? {
        try await sessions.load(key)?.version
    }

    /// How many sessions are saved.
    public func savedSessionCount() async throws(FeedSessionStoreError) -> Int {
        await sessions.count
    }
}

/// One lock per key, handed over in order of arrival. A waiter is resumed after the actor's
/// state says it holds the lock, so a release never loses a waiter. A wait is not cancellable:
/// it ends when the holder's body ends (a request), which is bounded by the page source's
/// timeout and retries.
actor SessionLocks {
    private var waiters: [String: [CheckedContinuation<Void, Never>]] = [:]

    func acquire(_ key: String) async {
        if waiters[key] == nil {
            waiters[key] = []  // held, nobody waiting
            return
        }
        await withCheckedContinuation { waiters[key]!.append($0) }
    }

    func release(_ key: String) {
        guard var queue = waiters[key] else { return }
        if queue.isEmpty {
            waiters[key] = nil
        } else {
            let next = queue.removeFirst()
            waiters[key] = queue
            next.resume()  // the lock passes to `next` (the entry stays: held)
        }
    }
}
