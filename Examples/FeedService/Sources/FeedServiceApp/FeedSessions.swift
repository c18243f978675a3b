import AsyncPaging
import Synchronization

/// The service's sessions: one ``FeedController`` per session id on this instance, kept by a
/// ``FeedSessionRegistry`` (idle timeout, maximum count), and — with a store — saved after
/// every change and shared with every instance on the same store.
///
/// Without a store, a request runs on the session's controller, made on first use.
///
/// With a ``SharedFeedSessionStore``, each request (``withSession(_:_:)``) runs under the
/// session's lock in the store (PostgreSQL: the session's row, `SELECT … FOR UPDATE` in a
/// transaction), in four steps:
/// 1. read the saved version; if it is the one this instance's controller shows, use that
///    controller; if another instance saved since (or this instance has none), restore the
///    saved list into a new controller (no refresh: ``RestorePolicy/never``); if nothing is
///    saved, start a new session (a controller left over from a session deleted elsewhere is
///    closed first);
/// 2. run the request on the controller;
/// 3. save what changed, on the version read in step 1: a load-more appends its page
///    (``FeedSessionRecord/appended(_:)``, O(page)); a first page, a refresh or anything else
///    that is not a page added at the end saves the whole list (``FeedSessionRecord/replaced(_:)``);
/// 4. release the lock (commit).
///
/// **Two instances, one session, at once.** The lock orders them: the second waits, then finds
/// the version moved, restores the list the first saved and runs its own request on it — two
/// simultaneous load-mores add two pages, each once. A write that still loses the
/// compare-and-swap (a writer that bypassed the lock) is never applied: this instance drops its
/// copy, reloads and runs the request again, up to ``maximumAttempts`` times in all, then
/// answers 409 (``ServiceError/Kind/conflict``). A save that fails for another reason drops the
/// copy too (the next request restores what was saved) and answers 503.
///
/// An instance that dies mid-request (SIGKILL) saved nothing of that request: its transaction
/// rolls back and its row lock is released, so another instance resumes from the last save.
public final class FeedSessions: Sendable {
    /// A session's controller.
    public typealias Controller = FeedController<FeedItem, String>
    /// The registry of the controllers open on this instance.
    public typealias Registry = FeedSessionRegistry<String, FeedItem, String>

    /// How many times a request runs when its save loses the compare-and-swap.
    public static let maximumAttempts = 3

    /// The controllers open on this instance.
    public let registry: Registry
    /// Where sessions are saved, or nil: in this instance's memory only.
    public let store: (any SharedFeedSessionStore)?

    /// What the store holds, as this instance last read or wrote it, per session whose
    /// controller was restored or saved here.
    private struct SavedView: Sendable {
        let controller: Controller
        var version: FeedSessionVersion
        var generation: UInt64
        var itemCount: Int
        var next: String?
    }

    private let views: SavedViews<SavedView>
    private let restores: RestoreHandOff
    private let eventStreams = Atomic<Int>(0)

    /// Creates the sessions.
    /// - Parameters:
    ///   - store: Where sessions are saved; nil: memory only.
    ///   - clock: The registry's clock (idle time).
    ///   - idleTimeout: How long a session's controller stays open unused on this instance.
    ///   - maximumCount: How many controllers stay open on this instance.
    ///   - makeController: Makes a session's controller, restoring `state` when it is not nil.
    public init(
        store: (any SharedFeedSessionStore)?,
        clock: any Clock<Duration> = ContinuousClock(),
        idleTimeout: Duration?,
        maximumCount: Int?,
        makeController: @escaping @Sendable (_ key: String, _ state: FeedState<FeedItem, String>?) -> Controller
    ) throws(FeedSessionRegistryError) {
        let restores = RestoreHandOff()
        self.restores = restores
        self.store = store
        let views = SavedViews<SavedView>()
        self.views = views
        let registry = try Registry(clock: clock, idleTimeout: idleTimeout, maximumCount: maximumCount) { key in
            makeController(key, restores.take(key))
        }
        self.registry = registry
        if store != nil {
            // A view leaves with its controller (idle, over capacity). Ends when the registry
            // finishes its evictions (closed or released).
            let evictions = registry.evictions
            Task {
                for await eviction in evictions {
                    views.withLock { views in
                        if views[eviction.key]?.controller.currentStatus == .closed {
                            views.removeValue(forKey: eviction.key)
                        }
                    }
                }
            }
        }
    }

    /// The controllers open on this instance.
    public var openCount: Int {
        get async { await registry.count }
    }

    /// Event streams being written now.
    public var openEventStreams: Int { eventStreams.load(ordering: .relaxed) }

    /// Runs `body` on session `id`'s controller — created, reused or restored — and, with a
    /// store, saves what it changed before answering (see the type's documentation).
    /// - Throws: What `body` throws; ``ServiceError`` 409 after ``maximumAttempts`` lost
    ///   compare-and-swaps, 503 when the store fails.
    public func withSession<Answer: Sendable>(
        _ id: SessionID, _ body: (Controller) async throws -> Answer
    ) async throws -> Answer {
        let key = id.rawValue
        guard let store else { return try await body(await registry.controller(for: key)) }
        var attempt = 1
        while true {
            do {
                return try await store.withSessionLock(key) {
                    try await runLocked(key, store: store, body)
                }
            } catch let error as FeedSessionStoreError {
                switch error {
                case .versionConflict where attempt < Self.maximumAttempts:
                    attempt += 1
                case .versionConflict:
                    throw ServiceError(.conflict, "session \(key) was saved by another writer \(Self.maximumAttempts) times during this request: \(error)")
                case .unavailable, .invalidRecord:
                    throw ServiceError(.storeUnavailable, "the session store failed: \(error)")
                }
            } catch let error as ServiceError {
                throw error
            } catch let error as CancellationError {
                throw error
            } catch {
                throw ServiceError(.storeUnavailable, "the session store failed: \(String(reflecting: error))")
            }
        }
    }

    /// The controller of session `id` if it is open on this instance (never creates one).
    public func existingController(for id: SessionID) async -> Controller? {
        await registry.existingController(for: id.rawValue)
    }

    /// Ends session `id`: closes its controller here and deletes what the store saved.
    /// Answers whether there was one.
    public func remove(_ id: SessionID) async throws -> Bool {
        let key = id.rawValue
        guard let store else { return await registry.remove(key) }
        do {
            return try await store.withSessionLock(key) {
                views.withLock { _ = $0.removeValue(forKey: key) }
                let open = await registry.remove(key)
                let saved = try await store.remove(key)
                return open || saved
            }
        } catch let error as FeedSessionStoreError {
            throw ServiceError(.storeUnavailable, "the session store failed: \(error)")
        }
    }

    /// How many sessions the store holds (nil without a store).
    public func savedCount() async throws -> Int? {
        guard let store else { return nil }
        do {
            return try await store.savedSessionCount()
        } catch {
            throw ServiceError(.storeUnavailable, "the session store failed: \(error)")
        }
    }

    /// Counts an event stream for ``openEventStreams`` while `body` runs.
    func countingEventStream<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        eventStreams.add(1, ordering: .relaxed)
        defer { eventStreams.subtract(1, ordering: .relaxed) }
        return try await body()
    }

    // MARK: Under the session's lock

    private func runLocked<Answer: Sendable>(
        _ key: String, store: any SharedFeedSessionStore, _ body: (Controller) async throws -> Answer
    ) async throws -> Answer {
        let savedVersion = try await store.version(of: key)
        let open = await registry.existingController(for: key)
        var view = views.withLock { $0[key] }
        if let known = view, known.controller !== open { view = nil }  // closed here since
        let feed: Controller
        if let open, let known = view, known.version == savedVersion {
            feed = open  // up to date
        } else if savedVersion == nil {
            // Saved from here once and deleted since (by another instance): start again.
            if view != nil { await forget(key) }
            view = nil
            // The session open here and not saved yet (its first page failed), or a new one.
            feed = await registry.controller(for: key)
        } else if let saved = try await store.load(key) {
            // Saved by another instance since this one last saw it, or not open here.
            await forget(key)
            restores.put(saved.state, for: key)
            feed = await registry.controller(for: key)
            restores.discard(key)  // in case the registry made no controller (closed)
            let restored = SavedView(
                controller: feed, version: saved.version, generation: feed.currentSnapshot.generation,
                itemCount: feed.currentSnapshot.count, next: await feed.cursors.next)
            views.withLock { $0[key] = restored }
            view = restored
        } else {
            // Deleted between the two reads (only possible without the lock).
            await forget(key)
            view = nil
            feed = await registry.controller(for: key)
        }

        let answer = try await body(feed)

        do {
            guard let record = try await change(of: feed, since: view) else { return answer }
            let version = try await store.save(record, for: key, expectedVersion: view?.version)
            let snapshot = feed.currentSnapshot
            let saved = SavedView(
                controller: feed, version: version, generation: snapshot.generation,
                itemCount: snapshot.count, next: await feed.cursors.next)
            views.withLock { $0[key] = saved }
        } catch {
            // This copy is ahead of the store: drop it, the next request restores the saved list.
            await forget(key)
            throw error
        }
        return answer
    }

    /// What to save after a request: nothing when the list is as saved; the new page when the
    /// list only grew at its end (same generation); else the whole list.
    /// - Throws: ``FeedSessionStoreError/invalidRecord(_:)`` when the controller cannot export
    ///   its list (a bug report from the engine, never expected).
    private func change(
        of feed: Controller, since view: SavedView?
    ) async throws(FeedSessionStoreError) -> FeedSessionRecord<FeedItem, String>? {
        let snapshot = feed.currentSnapshot
        let next = await feed.cursors.next
        if let view, snapshot.generation == view.generation, snapshot.count >= view.itemCount {
            if snapshot.count == view.itemCount && next == view.next { return nil }
            return .appended(Page(items: Array(snapshot[view.itemCount...]), next: next))
        }
        // Nothing to save before the first page (`exportState` answers nil).
        do {
            return try await feed.exportState().map { .replaced($0) }
        } catch {
            throw .invalidRecord("the list could not be exported: \(error)")
        }
    }

    /// Closes this instance's copy of session `key`.
    private func forget(_ key: String) async {
        views.withLock { _ = $0.removeValue(forKey: key) }
        await registry.remove(key)
    }
}

/// The saved views of ``FeedSessions``, by session key.
final class SavedViews<View: Sendable>: Sendable {
    private let views = Mutex<[String: View]>([:])

    func withLock<Result: Sendable>(_ body: (inout [String: View]) -> Result) -> Result {
        views.withLock { body(&$0) }
    }
}

/// The saved state a new controller restores, handed from ``FeedSessions`` to the registry's
/// factory (which takes only the key). Put and taken under the session's lock.
final class RestoreHandOff: Sendable {
    private let states = Mutex<[String: FeedState<FeedItem, String>]>([:])

    func put(_ state: FeedState<FeedItem, String>, for key: String) {
        states.withLock { $0[key] = state }
    }

    func take(_ key: String) -> FeedState<FeedItem, String>? {
        states.withLock { $0.removeValue(forKey: key) }
    }

    func discard(_ key: String) {
        states.withLock { _ = $0.removeValue(forKey: key) }
    }
}
