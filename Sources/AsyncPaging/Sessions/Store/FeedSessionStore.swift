/// Where a ``FeedSessionRegistry`` keeps its sessions' lists, so that a session outlives its
/// controller: across an eviction, a restart, or a move to another instance that shares the
/// store.
///
/// A saved session is a list with a version (``StoredFeedSession``). A write is one
/// ``FeedSessionRecord`` — the whole list, or one page added or pages dropped at an end — made
/// on the version the writer last read or wrote (`expectedVersion`). The store applies it only
/// if that is still the saved version (compare-and-swap), as one atomic step, and answers the
/// new version (`expectedVersion.next`, or ``FeedSessionVersion/first`` for a new session);
/// otherwise it writes nothing and throws ``FeedSessionStoreError/versionConflict(expected:found:)``.
/// A lost race is therefore never applied silently.
///
/// Saving a load-more writes one page (O(page)): a store keeps a base list and the page
/// records after it — a page log, or pages as rows — and answers ``load(_:)`` with the records
/// applied in order (``FeedSessionRecord/applied(to:)``). It may fold the log into a new base
/// whenever it likes (say when the log is longer than the base); that changes no version.
///
/// ``InMemoryFeedSessionStore`` keeps sessions in memory (tests, one process);
/// `FileFeedSessionStore` (module `AsyncPagingFileStore`) keeps them in files. A store shared by several instances (a
/// database) makes each write a transaction that checks the version, e.g. in SQL
/// `UPDATE … SET version = $new … WHERE key = $key AND version = $expected`, then inserts the
/// page row, and reports a conflict when no row was updated.
///
/// Calls for one key may come from several tasks (and, for a shared store, several
/// processes) at once: the version check is what keeps them apart, so a store needs no other
/// lock per key.
public protocol FeedSessionStore<Key, Item, Cursor>: Sendable {
    /// The session key (a ``FeedSessionRegistry``'s `Key`).
    associatedtype Key: Hashable & Sendable
    /// The list's item.
    associatedtype Item: Sendable
    /// The list's page cursor.
    associatedtype Cursor: Hashable & Sendable

    /// The saved session `key` — its list with every record applied, and its version — or
    /// `nil` when none is saved.
    /// - Throws: ``FeedSessionStoreError/unavailable(_:)`` when the store cannot be read;
    ///   ``FeedSessionStoreError/invalidRecord(_:)`` when the saved records do not make a list.
    func load(_ key: Key) async throws(FeedSessionStoreError) -> StoredFeedSession<Item, Cursor>?

    /// Writes `record` for session `key` if its saved version is `expectedVersion` (`nil`:
    /// only if nothing is saved for `key`), atomically, and answers the new version.
    ///
    /// A ``FeedSessionRecord/replaced(_:)`` record may be written on any version, including on
    /// none; a page record needs a saved list.
    /// - Returns: The version now saved: `expectedVersion.next`, or
    ///   ``FeedSessionVersion/first`` when `expectedVersion` is `nil`.
    /// - Throws: ``FeedSessionStoreError/versionConflict(expected:found:)`` when the saved
    ///   version is not `expectedVersion` (nothing written);
    ///   ``FeedSessionStoreError/invalidRecord(_:)`` when the record cannot be applied to the
    ///   saved list (nothing written); ``FeedSessionStoreError/unavailable(_:)`` when the store
    ///   failed (the write may or may not have happened: load before writing again).
    func save(
        _ record: FeedSessionRecord<Item, Cursor>, for key: Key, expectedVersion: FeedSessionVersion?
    ) async throws(FeedSessionStoreError) -> FeedSessionVersion

    /// Deletes session `key` whatever its version (a session the client ended). Answers
    /// whether one was saved.
    /// - Throws: ``FeedSessionStoreError/unavailable(_:)`` when the store failed.
    @discardableResult
    func remove(_ key: Key) async throws(FeedSessionStoreError) -> Bool
}
