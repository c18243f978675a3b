/// A ``FeedSessionStore`` in memory: for tests, and for one process that wants sessions to
/// survive eviction (not a restart).
///
/// Each session is kept as a base list and the page records written after it, so a save of a
/// page costs O(page); the log is folded into the base on ``load(_:)`` when it holds more
/// items than the base (each item is copied a bounded number of times). ``writtenItemCount``
/// and ``writtenRecordCount`` count what the saves carried, for tests of the O(page) rule.
public actor InMemoryFeedSessionStore<Key: Hashable & Sendable, Item: Sendable, Cursor: Hashable & Sendable>: FeedSessionStore {
    private struct Entry {
        var base: FeedState<Item, Cursor>
        var log: [FeedSessionRecord<Item, Cursor>] = []
        var logItemCount = 0
        var version: FeedSessionVersion
        /// The pages of the base with the log applied.
        var pageCount: Int
        /// Whether the last page (log applied) has a `next`: a page may be appended.
        var lastPageHasNext: Bool

        init(base: FeedState<Item, Cursor>, version: FeedSessionVersion) {
            self.base = base
            self.version = version
            self.pageCount = base.pages.count
            self.lastPageHasNext = base.pages.last?.next != nil
        }

        /// Folds the log into the base.
        mutating func compact() throws(FeedSessionStoreError) {
            var state = base
            for record in log { state = try record.applied(to: state) }
            base = state
            log = []
            logItemCount = 0
        }
    }

    private var entries: [Key: Entry] = [:]

    /// The number of items carried by every successful save so far.
    public private(set) var writtenItemCount = 0
    /// The number of successful saves so far.
    public private(set) var writtenRecordCount = 0

    /// Creates an empty store.
    public init() {}

    /// The saved session `key`, its log folded into its base.
    public func load(_ key: Key) throws(FeedSessionStoreError) -> StoredFeedSession<Item, Cursor>? {
        guard var entry = entries[key] else { return nil }
        if !entry.log.isEmpty {
            try entry.compact()
            entries[key] = entry
        }
        return StoredFeedSession(state: entry.base, version: entry.version)
    }

    /// Writes `record` if `key`'s saved version is `expectedVersion`.
    ///
    /// A page record is checked against the pages' count and the last page's `next` (O(1));
    /// a repeated cursor is found when the log is folded, which then throws
    /// ``FeedSessionStoreError/invalidRecord(_:)`` (on this save when it compacts, else on
    /// ``load(_:)``).
    public func save(
        _ record: FeedSessionRecord<Item, Cursor>, for key: Key, expectedVersion: FeedSessionVersion?
    ) throws(FeedSessionStoreError) -> FeedSessionVersion {
        let saved = entries[key]
        guard saved?.version == expectedVersion else {
            throw .versionConflict(expected: expectedVersion, found: saved?.version)
        }
        let version = expectedVersion?.next ?? .first
        if case .replaced(let state) = record {
            entries[key] = Entry(base: state, version: version)
        } else {
            guard var entry = saved else { throw .invalidRecord("a page record on a session with no saved list") }
            switch record {
            case .replaced:
                break
            case .appended(let page):
                guard entry.lastPageHasNext else { throw .invalidRecord("a page appended after the end of the data") }
                entry.pageCount += 1
                entry.lastPageHasNext = page.next != nil
            case .prepended:
                entry.pageCount += 1
            case .dropped(let pageCount, _, let end):
                guard pageCount >= 0, pageCount < entry.pageCount else {
                    throw .invalidRecord("\(pageCount) pages dropped from a list of \(entry.pageCount)")
                }
                entry.pageCount -= pageCount
                if end == .end && pageCount > 0 { entry.lastPageHasNext = true }
            }
            entry.log.append(record)
            entry.logItemCount += record.itemCount
            entry.version = version
            if entry.logItemCount > entry.base.itemCount || entry.log.count > 2 * entry.base.pages.count + 64 {
                // The log outgrew the base: folding it now copies each item a bounded number
                // of times over the session's life (amortized O(page) per save).
                try entry.compact()
            }
            entries[key] = entry
        }
        writtenItemCount += record.itemCount
        writtenRecordCount += 1
        return version
    }

    /// Deletes session `key`.
    @discardableResult
    public func remove(_ key: Key) -> Bool {
        entries.removeValue(forKey: key) != nil
    }

    /// The number of saved sessions.
    public var count: Int { entries.count }
}
