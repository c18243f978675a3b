import AsyncPaging
import AsyncPagingTesting
import FeedServiceApp
import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

/// Instances sharing one store: several ``FeedSessions`` over one ``InProcessSessionStore``
/// behave as instances over one database (the PostgreSQL store has the same rules; pg-smoke.sh
/// runs them on PostgreSQL).
@Suite("FeedService sessions shared through a store")
struct SharedStoreTests {
    static func options(items: Int = 1_000) -> ServiceOptions {
        var options = ServiceOptions()
        options.totalItems = items
        options.pageSize = 20
        return options
    }

    static func decode<T: Decodable>(_ type: T.Type, _ buffer: ByteBuffer) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(buffer: buffer))
    }

    static func id(_ text: String) throws -> SessionID { try SessionID(validating: text) }

    static func more(_ sessions: FeedSessions, _ key: String) async throws -> LoadResult {
        try await sessions.withSession(id(key)) { feed in
            if feed.currentSnapshot.version == 0 { _ = await feed.waitForFirstPage() }
            return await feed.loadMore()
        }
    }

    static func ids(_ sessions: FeedSessions, _ key: String) async throws -> [Int] {
        try await sessions.withSession(id(key)) { feed in
            _ = await feed.waitForFirstPage()
            return feed.currentSnapshot.map(\.id)
        }
    }

    @Test("a client alternating between two instances sees one continuous list, and a load-more saves one page")
    func alternating() async throws {
        let store = InProcessSessionStore()
        let a = try makeSessions(options: Self.options(items: 95), store: store)
        let b = try makeSessions(options: Self.options(items: 95), store: store)
        var outcomes: [LoadOutcome] = []
        for round in 0..<6 {
            outcomes.append(try await Self.more(round.isMultiple(of: 2) ? a : b, "alt").outcome)
        }
        #expect(outcomes.prefix(3).allSatisfy { if case .completed = $0 { true } else { false } })
        #expect(outcomes[3] == .completed(LoadSummary(itemsApplied: 15, reachedEnd: true)))
        #expect(outcomes[4] == .endOfData && outcomes[5] == .endOfData)
        let expected = Array((1...95).reversed())
        #expect(try await Self.ids(a, "alt") == expected)
        #expect(try await Self.ids(b, "alt") == expected)
        #expect(try await store.load("alt")?.state.items.map(\.id) == expected)
        // The first request saves the session whole (its first page and its first load-more,
        // 40 items), each later load-more its own page (20, 20, 15), an end of data nothing.
        #expect(await store.sessions.writtenItemCount == 95)
        #expect(await store.sessions.writtenRecordCount == 4)
    }

    @Test("simultaneous load-mores for one session at two instances never lose a page or apply one twice")
    func simultaneous() async throws {
        let store = InProcessSessionStore()
        let instances = [
            try makeSessions(options: Self.options(), store: store), try makeSessions(options: Self.options(), store: store),
        ]
        _ = try await Self.ids(instances[0], "race")
        let completed = try await withThrowingTaskGroup(of: Int.self) { group in
            for request in 0..<40 {
                group.addTask {
                    let result = try await Self.more(instances[request % 2], "race")
                    if case .completed(let summary) = result.outcome { return summary.itemsApplied }
                    return 0
                }
            }
            return try await group.reduce(0, +)
        }
        let saved = try #require(try await store.load("race"))
        let items = saved.state.items.map(\.id)
        #expect(items == Array(((1_000 - 20 - completed + 1)...1_000).reversed()))
        #expect(completed == 40 * 20)
        #expect(try await Self.ids(instances[0], "race") == items)
        #expect(try await Self.ids(instances[1], "race") == items)
        #expect(saved.version == FeedSessionVersion(rawValue: 41))
    }

    @Test("a restarted instance resumes every session from the store, without fetching its first page again")
    func restart() async throws {
        let store = InProcessSessionStore()
        let before = try makeSessions(options: Self.options(), store: store)
        for n in 0..<20 {
            for _ in 0...(n % 4) { _ = try await Self.more(before, "s\(n)") }
        }
        await before.registry.closeAll()
        let after = try makeSessions(options: Self.options(), store: store)
        for n in 0..<20 {
            let ids = try await Self.ids(after, "s\(n)")
            #expect(ids == Array(((1_000 - 20 * (n % 4 + 2) + 1)...1_000).reversed()), "s\(n)")
            let restored = try #require(await after.existingController(for: Self.id("s\(n)")))
            // Restored, not refreshed: still the saved generation, and the first snapshot.
            #expect(restored.currentSnapshot.generation == 1 && restored.currentSnapshot.version == 1)
        }
        #expect(try await after.savedCount() == 20)
    }

    @Test("a session deleted on one instance starts again on another that still had it open")
    func deletedElsewhere() async throws {
        let store = InProcessSessionStore()
        let a = try makeSessions(options: Self.options(), store: store)
        let b = try makeSessions(options: Self.options(), store: store)
        _ = try await Self.more(a, "gone")
        #expect(try await Self.ids(b, "gone").count == 40)
        #expect(try await b.remove(Self.id("gone")))
        #expect(try await Self.ids(a, "gone").count == 20)
        #expect(try await store.load("gone")?.version == .first)
    }

    /// A store where another writer saves (bypassing the lock) just before each of the first
    /// `interference` saves on a saved session: each of those saves loses the compare-and-swap.
    final class InterferingStore: SharedFeedSessionStore {
        let base = InProcessSessionStore()
        let interference: Int
        private let done = Mutex(0)

        init(interference: Int) { self.interference = interference }

        func withSessionLock<Result: Sendable>(_ key: String, _ body: () async throws -> Result) async throws -> Result {
            try await base.withSessionLock(key, body)
        }
        func version(of key: String) async throws(FeedSessionStoreError) -> FeedSessionVersion? {
            try await base.version(of: key)
        }
        func savedSessionCount() async throws(FeedSessionStoreError) -> Int { try await base.savedSessionCount() }
        func load(_ key: String) async throws(FeedSessionStoreError) -> StoredFeedSession<FeedItem, String>? {
            try await base.load(key)
        }
        func remove(_ key: String) async throws(FeedSessionStoreError) -> Bool { try await base.remove(key) }
        func save(
            _ record: FeedSessionRecord<FeedItem, String>, for key: String, expectedVersion: FeedSessionVersion?
        ) async throws(FeedSessionStoreError) -> FeedSessionVersion {
            if let saved = try await base.load(key), done.withLock({ count in
                defer { count += 1 }
                return count < interference
            }) {
                // The other writer saves the list as it is: only the version moves.
                _ = try await base.save(.replaced(saved.state), for: key, expectedVersion: saved.version)
            }
            return try await base.save(record, for: key, expectedVersion: expectedVersion)
        }
    }

    @Test("a save that loses the compare-and-swap is not applied: the request reloads and runs again")
    func conflictRetries() async throws {
        let store = InterferingStore(interference: 2)
        let sessions = try makeSessions(options: Self.options(), store: store)
        _ = try await Self.more(sessions, "cas")   // a new session: saved whole (40 items), no interference
        // Lost twice (another writer saved first each time), applied on the third run.
        let result = try await Self.more(sessions, "cas")
        #expect(result.outcome == .completed(LoadSummary(itemsApplied: 20)))
        let saved = try #require(try await store.load("cas"))
        #expect(saved.state.items.map(\.id) == Array((941...1_000).reversed()))
        // v1 ours, v2 theirs, v3 theirs, v4 ours.
        #expect(saved.version == FeedSessionVersion(rawValue: 4))
        #expect(try await Self.ids(sessions, "cas") == saved.state.items.map(\.id))
    }

    @Test("after maximumAttempts lost compare-and-swaps the route answers 409 with the typed body; nothing is applied")
    func conflictAnswers409() async throws {
        let store = InterferingStore(interference: 100)
        let sessions = try makeSessions(options: Self.options(), store: store)
        let app = Application(router: buildRouter(sessions: sessions))
        try await app.test(.router) { client in
            #expect(try await client.execute(uri: "/sessions/c/more", method: .post) { $0.status } == .ok)
            let (status, body) = try await client.execute(uri: "/sessions/c/more", method: .post) {
                ($0.status, try Self.decode(ServiceError.Body.self, $0.body))
            }
            #expect(status == .conflict && body.error.kind == .conflict)
            // The list as saved by the first request; this instance dropped its copy.
            #expect(try await store.load("c")?.state.itemCount == 40)
            #expect(await sessions.openCount == 0)
        }
    }

    @Test("--store parses memory and postgres URLs")
    func storeOption() throws {
        let options = try ServiceOptions(arguments: [
            "--store", "postgres://feed:secret@127.0.0.1:55432/feeds?sslmode=disable", "--store-connections", "4",
            "--heartbeat-seconds", "2",
        ])
        guard case .postgres(let location) = options.store else {
            Issue.record("store \(String(describing: options.store))")
            return
        }
        #expect(location.host == "127.0.0.1" && location.port == 55432 && location.username == "feed")
        #expect(location.password == "secret" && location.database == "feeds" && location.tls == .disable)
        #expect(options.storeConnections == 4 && options.heartbeat == .seconds(2))
        #expect(try ServiceOptions(arguments: ["--store", "memory"]).store == .memory)
        #expect(throws: OptionsError.self) { try ServiceOptions(arguments: ["--store", "mysql://x@y/z"]) }
        #expect(throws: OptionsError.self) { try ServiceOptions(arguments: ["--store", "postgres://host/db"]) }
        #expect(throws: OptionsError.self) { try ServiceOptions(arguments: ["--store", "postgres://u@host/"]) }
    }
}
