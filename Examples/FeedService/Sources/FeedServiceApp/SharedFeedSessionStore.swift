import AsyncPaging

/// A ``FeedSessionStore`` of this service's sessions that several instances may share, with a
/// lock per session that every instance respects.
///
/// The engine's store rule — every write names the version it was made on, and a write on an
/// older version is refused (compare-and-swap) — keeps a lost race from being applied. The lock
/// keeps races from happening: ``FeedSessions`` runs each request for a session inside
/// ``withSessionLock(_:_:)``, so two instances never load pages for one session at once; the
/// second waits, then finds the version moved and restores the saved list before running its
/// own request on it.
///
/// Inside the lock, ``version(of:)``, ``FeedSessionStore/load(_:)`` and
/// ``FeedSessionStore/save(_:for:expectedVersion:)`` for that key belong to the locked unit
/// (for PostgreSQL, the same transaction: its writes commit when the body returns and roll back
/// when it throws or the process dies).
public protocol SharedFeedSessionStore: FeedSessionStore where Key == String, Item == FeedItem, Cursor == String {
    /// Runs `body` while holding session `key`'s lock: no other holder of this store, in this
    /// process or another, runs a body for `key` at the same time. The lock is released when
    /// `body` returns or throws, and when the process holding it dies.
    func withSessionLock<Result: Sendable>(
        _ key: String, _ body: () async throws -> Result
    ) async throws -> Result

    /// The saved version of session `key`, or `nil` when none is saved: what
    /// ``FeedSessionStore/load(_:)`` would answer with, without reading the list.
    func version(of key: String) async throws(FeedSessionStoreError) -> FeedSessionVersion?

    /// How many sessions are saved.
    func savedSessionCount() async throws(FeedSessionStoreError) -> Int
}
