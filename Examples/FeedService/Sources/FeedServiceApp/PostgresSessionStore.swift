import AsyncPaging
import Foundation
import PostgresNIO

/// Sessions in PostgreSQL, shared by every instance that uses the same database: a
/// ``SharedFeedSessionStore`` through postgres-nio's `PostgresClient`.
///
/// Tables (created by ``migrate()`` at start, see ``migrations``):
/// - `feed_sessions`: one row per session — `version` (0 while a first request holds the row
///   and nothing is saved yet), the list's `generation`, scroll anchor and save time, the
///   positions of its first and last page, its item count and whether its last page has a
///   `next`.
/// - `feed_pages`: one row per page — `(session_key, position)`, the items as JSON text, the
///   page's cursors. Deleting a session deletes its pages.
///
/// Rules:
/// - **Compare-and-swap.** Every save is `UPDATE feed_sessions SET version = $new … WHERE
///   session_key = $key AND version = $expected` (for a first save, an insert that only
///   replaces a placeholder row of version 0); no row updated means another writer saved
///   first: nothing is written and the save throws ``FeedSessionStoreError/versionConflict(expected:found:)``.
/// - **O(page) saves.** A load-more (``FeedSessionRecord/appended(_:)``) updates the session row
///   and inserts one page row; only ``FeedSessionRecord/replaced(_:)`` (a first page, a
///   refresh) deletes and rewrites the pages.
/// - **One session, one writer at a time, across instances.** ``withSessionLock(_:_:)`` opens a
///   transaction, makes sure the session's row exists (a placeholder of version 0) and locks it
///   with `SELECT … FOR UPDATE`; reads and saves for that key inside run in that transaction, so
///   they commit together when the body returns, and roll back — releasing the lock — when it
///   throws or the process dies.
///
/// Each lock holds one of the client's connections while the request runs (up to
/// `--store-connections` at once per instance; more requests wait for a connection).
public final class PostgresSessionStore: SharedFeedSessionStore {
    /// The client, to run as a service next to the application (``buildApplication(options:onServerRunning:)``
    /// passes it to Hummingbird's service group).
    public let client: PostgresClient
    private let logger: Logger

    /// The transaction of ``withSessionLock(_:_:)``, for the reads and saves of its key.
    private struct LockedTransaction: Sendable {
        let key: String
        let connection: PostgresConnection
    }

    @TaskLocal private static var lockedTransaction: LockedTransaction?

    /// Creates a store on the database at `location`; nothing connects until the client runs.
    public init(location: PostgresLocation, maximumConnections: Int, logger: Logger) {
        let tls: PostgresClient.Configuration.TLS = switch location.tls {
        case .disable: .disable
        case .prefer: .prefer(.makeClientConfiguration())
        case .require: .require(.makeClientConfiguration())
        }
        var configuration = PostgresClient.Configuration(
            host: location.host, port: location.port, username: location.username, password: location.password,
            database: location.database, tls: tls)
        configuration.options.maximumConnections = max(1, maximumConnections)
        self.client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.logger = logger
    }

    // MARK: Schema

    /// The schema, one migration per version (each a list of statements), applied in order by
    /// ``migrate()``. Never edit one that shipped: add the next.
    public static let migrations: [[String]] = [
        [
            """
            CREATE TABLE feed_sessions (
                session_key text PRIMARY KEY,
                version bigint NOT NULL DEFAULT 0,
                generation bigint NOT NULL DEFAULT 0,
                anchor_index bigint,
                saved_at_seconds bigint,
                saved_at_attoseconds bigint,
                first_position bigint NOT NULL DEFAULT 0,
                last_position bigint NOT NULL DEFAULT -1,
                item_count bigint NOT NULL DEFAULT 0,
                last_has_next boolean NOT NULL DEFAULT false,
                updated_at timestamptz NOT NULL DEFAULT now()
            )
            """,
            """
            CREATE TABLE feed_pages (
                session_key text NOT NULL REFERENCES feed_sessions (session_key) ON DELETE CASCADE,
                position bigint NOT NULL,
                items text NOT NULL,
                previous_cursor text,
                next_cursor text,
                PRIMARY KEY (session_key, position)
            )
            """,
        ],
    ]

    /// An arbitrary number naming the advisory lock that serialises migrations.
    static let migrationLock: Int64 = 0x4665_6564_5365_7276  // "FeedServ"

    /// Brings the schema to the newest version: in one transaction under an advisory lock (so
    /// instances starting together migrate once), creates `feed_schema_migrations` if needed
    /// and applies the migrations it has not recorded. Needs the client running.
    public func migrate() async throws {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.migrationLock))", logger: logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS feed_schema_migrations (
                    version bigint PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())
                """, logger: logger)
            var applied: Int64 = 0
            let rows = try await connection.query(
                "SELECT coalesce(max(version), 0)::bigint FROM feed_schema_migrations", logger: logger)
            for try await version in rows.decode(Int64.self) { applied = version }
            for (index, statements) in Self.migrations.enumerated() where Int64(index + 1) > applied {
                for statement in statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query(
                    "INSERT INTO feed_schema_migrations (version) VALUES (\(Int64(index + 1)))", logger: logger)
            }
        }
    }

    // MARK: SharedFeedSessionStore

    /// Runs `body` in a transaction that holds session `key`'s row lock (`SELECT … FOR UPDATE`,
    /// after inserting a placeholder row if there is none, so that a new session is locked
    /// too). Commits when `body` returns, rolls back when it throws.
    public func withSessionLock<Result: Sendable>(
        _ key: String, _ body: () async throws -> Result
    ) async throws -> Result {
        do {
            return try await client.withTransaction(logger: logger) { connection in
                try await connection.query(
                    "INSERT INTO feed_sessions (session_key) VALUES (\(key)) ON CONFLICT (session_key) DO NOTHING",
                    logger: logger)
                try await connection.query(
                    "SELECT 1 FROM feed_sessions WHERE session_key = \(key) FOR UPDATE", logger: logger)
                return try await Self.$lockedTransaction.withValue(LockedTransaction(key: key, connection: connection)) {
                    try await body()
                }
            }
        } catch let error as PostgresTransactionError {
            // What the body threw (a conflict, a service error), or the database's failure.
            if let thrown = error.closureError, !(thrown is PSQLError) { throw thrown }
            throw FeedSessionStoreError.unavailable(String(reflecting: error))
        } catch let error as PSQLError {
            throw FeedSessionStoreError.unavailable(String(reflecting: error))
        }
    }

    /// The saved version of `key` (`version > 0`).
    public func version(of key: String) async throws(FeedSessionStoreError) -> FeedSessionVersion? {
        try await inTransaction(for: key) { connection in
            try await Self.savedVersion(of: key, on: connection, logger: self.logger)
        }
    }

    /// The saved session `key`: its row (locked for share) and its pages in order.
    public func load(_ key: String) async throws(FeedSessionStoreError) -> StoredFeedSession<FeedItem, String>? {
        try await inTransaction(for: key) { connection in
            let head = try await connection.query(
                """
                SELECT version, generation, anchor_index, saved_at_seconds, saved_at_attoseconds
                FROM feed_sessions WHERE session_key = \(key) AND version > 0 FOR SHARE
                """, logger: self.logger)
            var found: (Int64, Int64, Int64?, Int64?, Int64?)?
            for try await row in head.decode((Int64, Int64, Int64?, Int64?, Int64?).self) { found = row }
            guard let (version, generation, anchor, seconds, attoseconds) = found else { return nil }
            let rows = try await connection.query(
                """
                SELECT items, previous_cursor, next_cursor FROM feed_pages
                WHERE session_key = \(key) ORDER BY position
                """, logger: self.logger)
            let decoder = JSONDecoder()
            var pages: [Page<FeedItem, String>] = []
            for try await (items, previous, next) in rows.decode((String, String?, String?).self) {
                pages.append(Page(
                    items: try decoder.decode([FeedItem].self, from: Data(items.utf8)), previous: previous, next: next))
            }
            let savedAt = seconds.map { Duration(secondsComponent: $0, attosecondsComponent: attoseconds ?? 0) }
            do {
                let state = try FeedState(
                    pages: pages, generation: UInt64(bitPattern: generation), anchorIndex: anchor.map { Int($0) },
                    savedAt: savedAt)
                return StoredFeedSession(state: state, version: FeedSessionVersion(rawValue: UInt64(bitPattern: version)))
            } catch {
                throw FeedSessionStoreError.invalidRecord("session \(key): \(error)")
            }
        }
    }

    /// Writes `record` if the saved version is `expectedVersion` (see the type's rules).
    public func save(
        _ record: FeedSessionRecord<FeedItem, String>, for key: String, expectedVersion: FeedSessionVersion?
    ) async throws(FeedSessionStoreError) -> FeedSessionVersion {
        let version = expectedVersion?.next ?? .first
        let new = Int64(bitPattern: version.rawValue)
        let expected = Int64(bitPattern: expectedVersion?.rawValue ?? 0)
        return try await inTransaction(for: key) { connection in
            let logger = self.logger
            switch record {
            case .replaced(let state):
                let anchor = state.anchorIndex.map { Int64($0) }
                let seconds = state.savedAt?.components.seconds
                let attoseconds = state.savedAt?.components.attoseconds
                let generation = Int64(bitPattern: state.generation)
                let hasNext = state.pages.last?.next != nil
                let rows = try await connection.query(
                    """
                    INSERT INTO feed_sessions AS s (session_key, version, generation, anchor_index, saved_at_seconds,
                        saved_at_attoseconds, first_position, last_position, item_count, last_has_next)
                    VALUES (\(key), \(new), \(generation), \(anchor), \(seconds), \(attoseconds), 0,
                        \(Int64(state.pages.count - 1)), \(Int64(state.itemCount)), \(hasNext))
                    ON CONFLICT (session_key) DO UPDATE SET version = EXCLUDED.version,
                        generation = EXCLUDED.generation, anchor_index = EXCLUDED.anchor_index,
                        saved_at_seconds = EXCLUDED.saved_at_seconds, saved_at_attoseconds = EXCLUDED.saved_at_attoseconds,
                        first_position = 0, last_position = EXCLUDED.last_position, item_count = EXCLUDED.item_count,
                        last_has_next = EXCLUDED.last_has_next, updated_at = now()
                    WHERE s.version = \(expected)
                    RETURNING 1
                    """, logger: logger)
                guard try await Self.returnedRow(rows) else {
                    throw try await Self.conflict(key, expectedVersion, on: connection, logger: logger)
                }
                try await connection.query("DELETE FROM feed_pages WHERE session_key = \(key)", logger: logger)
                for (position, page) in state.pages.enumerated() {
                    try await Self.insert(page, at: Int64(position), for: key, on: connection, logger: logger)
                }
            case .appended(let page):
                let rows = try await connection.query(
                    """
                    UPDATE feed_sessions SET version = \(new), last_position = last_position + 1,
                        item_count = item_count + \(Int64(page.items.count)), last_has_next = \(page.next != nil),
                        updated_at = now()
                    WHERE session_key = \(key) AND version = \(expected) AND version > 0 AND last_has_next
                    RETURNING last_position
                    """, logger: logger)
                guard let position = try await Self.returnedPosition(rows) else {
                    throw try await Self.refusal(key, expectedVersion, on: connection, logger: logger,
                                                 invalid: "a page appended after the end of the data")
                }
                try await Self.insert(page, at: position, for: key, on: connection, logger: logger)
            case .prepended(let page):
                let count = Int64(page.items.count)
                let rows = try await connection.query(
                    """
                    UPDATE feed_sessions SET version = \(new), first_position = first_position - 1,
                        item_count = item_count + \(count), anchor_index = anchor_index + \(count), updated_at = now()
                    WHERE session_key = \(key) AND version = \(expected) AND version > 0
                    RETURNING first_position
                    """, logger: logger)
                guard let position = try await Self.returnedPosition(rows) else {
                    throw try await Self.refusal(key, expectedVersion, on: connection, logger: logger,
                                                 invalid: "a page record on a session with no saved list")
                }
                try await Self.insert(page, at: position, for: key, on: connection, logger: logger)
            case .dropped(let pageCount, let itemCount, let end):
                let pages = Int64(pageCount)
                let items = Int64(itemCount)
                let rows: PostgresRowSequence
                switch end {
                case .start:
                    rows = try await connection.query(
                        """
                        UPDATE feed_sessions SET version = \(new), first_position = first_position + \(pages),
                            item_count = item_count - \(items),
                            anchor_index = CASE WHEN anchor_index >= \(items) THEN anchor_index - \(items) END,
                            updated_at = now()
                        WHERE session_key = \(key) AND version = \(expected) AND version > 0
                            AND \(pages) >= 0 AND last_position - first_position + 1 > \(pages)
                        RETURNING first_position
                        """, logger: logger)
                case .end:
                    rows = try await connection.query(
                        """
                        UPDATE feed_sessions SET version = \(new), last_position = last_position - \(pages),
                            item_count = item_count - \(items),
                            anchor_index = CASE WHEN anchor_index < item_count - \(items) THEN anchor_index END,
                            last_has_next = last_has_next OR \(pages) > 0, updated_at = now()
                        WHERE session_key = \(key) AND version = \(expected) AND version > 0
                            AND \(pages) >= 0 AND last_position - first_position + 1 > \(pages)
                        RETURNING last_position
                        """, logger: logger)
                }
                guard let bound = try await Self.returnedPosition(rows) else {
                    throw try await Self.refusal(key, expectedVersion, on: connection, logger: logger,
                                                 invalid: "\(pageCount) pages dropped from a shorter list")
                }
                let outside: PostgresQuery = end == .start
                    ? "DELETE FROM feed_pages WHERE session_key = \(key) AND position < \(bound)"
                    : "DELETE FROM feed_pages WHERE session_key = \(key) AND position > \(bound)"
                try await connection.query(outside, logger: logger)
            }
            return version
        }
    }

    /// Deletes session `key` and its pages; answers whether something was saved.
    @discardableResult
    public func remove(_ key: String) async throws(FeedSessionStoreError) -> Bool {
        try await inTransaction(for: key) { connection in
            let rows = try await connection.query(
                "DELETE FROM feed_sessions WHERE session_key = \(key) RETURNING version", logger: self.logger)
            var saved = false
            for try await version in rows.decode(Int64.self) where version > 0 { saved = true }
            return saved
        }
    }

    /// How many sessions are saved.
    public func savedSessionCount() async throws(FeedSessionStoreError) -> Int {
        do {
            let rows = try await client.query("SELECT count(*)::bigint FROM feed_sessions WHERE version > 0", logger: logger)
            var count: Int64 = 0
            for try await value in rows.decode(Int64.self) { count = value }
            return Int(count)
        } catch {
            throw .unavailable(String(reflecting: error))
        }
    }

    // MARK: Statements

    /// Runs `body` in the locked transaction of `key` when this task holds it, else in a
    /// transaction of its own; maps the database's errors to ``FeedSessionStoreError/unavailable(_:)``.
    private func inTransaction<Result: Sendable>(
        for key: String, _ body: (PostgresConnection) async throws -> Result
    ) async throws(FeedSessionStoreError) -> Result {
        do {
            if let locked = Self.lockedTransaction, locked.key == key {
                return try await body(locked.connection)
            }
            return try await client.withTransaction(logger: logger) { connection in
                try await body(connection)
            }
        } catch let error as FeedSessionStoreError {
            throw error
        } catch let error as PostgresTransactionError {
            if let thrown = error.closureError as? FeedSessionStoreError { throw thrown }
            throw .unavailable(String(reflecting: error))
        } catch {
            throw .unavailable(String(reflecting: error))
        }
    }

    private static func insert(
        _ page: Page<FeedItem, String>, at position: Int64, for key: String, on connection: PostgresConnection,
        logger: Logger
    ) async throws {
        let items = String(decoding: try JSONEncoder().encode(page.items), as: UTF8.self)
        try await connection.query(
            """
            INSERT INTO feed_pages (session_key, position, items, previous_cursor, next_cursor)
            VALUES (\(key), \(position), \(items), \(page.previous), \(page.next))
            """, logger: logger)
    }

    private static func savedVersion(
        of key: String, on connection: PostgresConnection, logger: Logger
    ) async throws -> FeedSessionVersion? {
        let rows = try await connection.query(
            "SELECT version FROM feed_sessions WHERE session_key = \(key) AND version > 0", logger: logger)
        var version: FeedSessionVersion?
        for try await value in rows.decode(Int64.self) { version = FeedSessionVersion(rawValue: UInt64(bitPattern: value)) }
        return version
    }

    private static func returnedRow(_ rows: PostgresRowSequence) async throws -> Bool {
        var any = false
        for try await _ in rows { any = true }
        return any
    }

    private static func returnedPosition(_ rows: PostgresRowSequence) async throws -> Int64? {
        var position: Int64?
        for try await value in rows.decode(Int64.self) { position = value }
        return position
    }

    /// The conflict to throw when a save on `expected` updated no row.
    private static func conflict(
        _ key: String, _ expected: FeedSessionVersion?, on connection: PostgresConnection, logger: Logger
    ) async throws -> FeedSessionStoreError {
        .versionConflict(expected: expected, found: try await savedVersion(of: key, on: connection, logger: logger))
    }

    /// Why a page record updated no row: the version moved (a conflict), or it is on the saved
    /// version and cannot be applied (`invalid`).
    private static func refusal(
        _ key: String, _ expected: FeedSessionVersion?, on connection: PostgresConnection, logger: Logger,
        invalid: String
    ) async throws -> FeedSessionStoreError {
        let found = try await savedVersion(of: key, on: connection, logger: logger)
        if let expected, found == expected { return .invalidRecord(invalid) }
        if expected == nil && found == nil { return .invalidRecord("a page record on a session with no saved list") }
        return .versionConflict(expected: expected, found: found)
    }
}
