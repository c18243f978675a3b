import GRDB

/// The feed's SQLite database (through GRDB): the source of truth that the screen reads.
///
/// Two tables: `post` (the rows, ordered by `position`) and `edge` (the network's cursor and
/// end at each end of the stored rows). The mediator stores pages with ``storeRefresh(_:next:)``,
/// ``storeAppend(_:next:)`` and ``storePrepend(_:previous:)``, each in one transaction: a page
/// and its cursor are stored together or not at all.
///
/// The app's own writes (``rename(id:title:)``, ``delete(id:)``) publish an invalidation on
/// ``invalidations`` once committed, which ``OfflineFeed``'s controller follows
/// (`followInvalidations(_:)`): the list reloads around the row on screen. The mediator's writes publish none: they happen inside a load of the feed,
/// which answers with the rows just stored.
public final class FeedDatabase: Sendable {
    /// The GRDB connection (serialized: one reader or writer at a time).
    public let queue: DatabaseQueue
    /// One element after each committed write of the app (the latest one is kept while nobody
    /// reads). One reader: ``OfflineFeed``'s controller follows it.
    public let invalidations: AsyncStream<Void>
    private let invalidationSink: AsyncStream<Void>.Continuation

    /// Opens (or creates) the database at `path` and brings its schema up to date.
    public init(path: String) throws {
        queue = try DatabaseQueue(path: path)
        (invalidations, invalidationSink) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        try Self.migrator.migrate(queue)
    }

    deinit { invalidationSink.finish() }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE post (
                    id INTEGER PRIMARY KEY,
                    title TEXT NOT NULL,
                    position INTEGER NOT NULL UNIQUE
                );
                CREATE TABLE edge (
                    side TEXT PRIMARY KEY CHECK (side IN ('start', 'end')),
                    cursor TEXT,
                    reached INTEGER NOT NULL
                );
                """)
        }
        return migrator
    }

    // MARK: Reading

    /// The rows of the page at `key` (`nil`: the first rows), at most `limit`, with whether
    /// rows lie beyond them and the network's edges.
    public func page(_ key: RowKey?, limit: Int) async throws -> StoredPage {
        try await queue.read { db in
            var rows: [Post]
            switch key {
            case nil:
                rows = try Post.fetchAll(db, sql: "SELECT * FROM post ORDER BY position LIMIT ?", arguments: [limit])
            case .from(let position):
                rows = try Post.fetchAll(
                    db, sql: "SELECT * FROM post WHERE position >= ? ORDER BY position LIMIT ?", arguments: [position, limit])
            case .before(let position):
                rows = try Post.fetchAll(
                    db, sql: "SELECT * FROM post WHERE position < ? ORDER BY position DESC LIMIT ?", arguments: [position, limit])
                rows.reverse()
            }
            let first: Int64? = rows.first?.position ?? {
                if case .from(let position) = key { return position } else { return nil }
            }()
            let afterLast: Int64? = rows.last.map { $0.position + 1 } ?? {
                if case .before(let position) = key { return position } else { return nil }
            }()
            let hasBefore = try first.map {
                try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM post WHERE position < ?)", arguments: [$0]) ?? false
            } ?? false
            let hasAfter = try afterLast.map {
                try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM post WHERE position >= ?)", arguments: [$0]) ?? false
            } ?? false
            return StoredPage(rows: rows, hasBefore: hasBefore, hasAfter: hasAfter, edges: try Self.edges(db))
        }
    }

    /// The network's edges of the stored rows.
    public func edges() async throws -> NetworkEdges {
        try await queue.read { db in try Self.edges(db) }
    }

    /// The number of stored rows.
    public func count() async throws -> Int {
        try await queue.read { db in try Post.fetchCount(db) }
    }

    /// Whether no row is stored (one index probe, where ``count()`` reads the whole table).
    public func isEmpty() async throws -> Bool {
        try await queue.read { db in
            try !(Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM post)") ?? false)
        }
    }

    /// Every stored row, in order (for tests and the demo).
    public func allRows() async throws -> [Post] {
        try await queue.read { db in try Post.fetchAll(db, sql: "SELECT * FROM post ORDER BY position") }
    }

    static func edges(_ db: Database) throws -> NetworkEdges {
        var edges = NetworkEdges.unknown
        for row in try Row.fetchAll(db, sql: "SELECT side, cursor, reached FROM edge") {
            let side: String = row["side"]
            if side == "start" {
                edges.startCursor = row["cursor"]
                edges.startReached = row["reached"]
            } else {
                edges.endCursor = row["cursor"]
                edges.endReached = row["reached"]
            }
        }
        return edges
    }

    // MARK: The mediator's writes

    /// Replaces every row with a page from the network (a refresh): the rows take positions
    /// 0, 1, …; `previous` is the network cursor before them (`nil`, the default: nothing comes
    /// before them) and `next` the one after them (`nil`: the network has nothing more).
    public func storeRefresh(_ items: [NetworkPost], previous: String? = nil, next: String?) async throws {
        try await queue.write { db in
            try db.execute(sql: "DELETE FROM post")
            try Self.insert(items, from: 0, step: 1, db)
            try Self.setEdge("start", cursor: previous, reached: previous == nil, db)
            try Self.setEdge("end", cursor: next, reached: next == nil, db)
        }
    }

    /// Adds a page from the network after the last row; `next` is the network cursor after it.
    /// An item already stored keeps its position and takes the new title.
    public func storeAppend(_ items: [NetworkPost], next: String?) async throws {
        try await queue.write { db in
            let last = try Int64.fetchOne(db, sql: "SELECT MAX(position) FROM post") ?? -1
            try Self.insert(items, from: last + 1, step: 1, db)
            try Self.setEdge("end", cursor: next, reached: next == nil, db)
        }
    }

    /// Adds a page from the network before the first row (`items` in feed order); `previous`
    /// is the network cursor before it.
    public func storePrepend(_ items: [NetworkPost], previous: String?) async throws {
        try await queue.write { db in
            let first = try Int64.fetchOne(db, sql: "SELECT MIN(position) FROM post") ?? 0
            try Self.insert(items.reversed(), from: first - 1, step: -1, db)
            try Self.setEdge("start", cursor: previous, reached: previous == nil, db)
        }
    }

    static func insert(_ items: some Sequence<NetworkPost>, from start: Int64, step: Int64, _ db: Database) throws {
        var position = start
        for item in items {
            try db.execute(
                sql: """
                    INSERT INTO post (id, title, position) VALUES (?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET title = excluded.title
                    """,
                arguments: [item.id, item.title, position])
            position += step
        }
    }

    static func setEdge(_ side: String, cursor: String?, reached: Bool, _ db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO edge (side, cursor, reached) VALUES (?, ?, ?)",
            arguments: [side, cursor, reached])
    }

    // MARK: The app's writes (each invalidates the list)

    /// Renames a stored row (a local edit); invalidates the list. Returns whether the row exists.
    @discardableResult
    public func rename(id: Int, title: String) async throws -> Bool {
        let changed = try await queue.write { db in
            try db.execute(sql: "UPDATE post SET title = ? WHERE id = ?", arguments: [title, id])
            return db.changesCount > 0
        }
        invalidationSink.yield()
        return changed
    }

    /// Deletes a stored row; invalidates the list. Returns whether the row existed.
    @discardableResult
    public func delete(id: Int) async throws -> Bool {
        let changed = try await queue.write { db in
            try db.execute(sql: "DELETE FROM post WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
        invalidationSink.yield()
        return changed
    }
}
