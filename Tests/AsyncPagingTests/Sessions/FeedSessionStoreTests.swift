import Testing
import AsyncPaging
import AsyncPagingFileStore
import AsyncPagingTesting
import Foundation

/// Issue 23, durable sessions: the store protocol's rules (compare-and-swap, page records),
/// and a registry that restores on a miss and saves each page, over the in-memory and the
/// file store, on the test clock.
@Suite("session stores and durable sessions")
struct FeedSessionStoreTests {
    typealias Registry = FeedSessionRegistry<String, Post, Int>
    typealias Record = FeedSessionRecord<Post, Int>
    typealias MemoryStore = InMemoryFeedSessionStore<String, Post, Int>

    /// Page `k` (cursor `k`, nil for 0) holds posts `15k ..< 15k+15` and points at `k + 1`.
    static func pagedSource() -> PostSource {
        PostSource { request in
            let index = request.cursor ?? 0
            return .items(posts(index * 15..<(index + 1) * 15), next: index + 1, latency: .zero)
        }
    }

    static func registry(
        _ clock: TestClock, store: any FeedSessionStore<String, Post, Int>, maximumCount: Int? = nil
    ) throws -> Registry {
        try Registry(clock: clock, idleTimeout: nil, maximumCount: maximumCount, store: store) { _, state in
            FeedController(
                source: pagedSource(), clock: clock, configuration: configuration(), restoring: state,
                restorePolicy: .never, id: \.id)
        }
    }

    static func page(_ index: Int, last: Bool = false) -> Page<Post, Int> {
        Page(items: posts(index * 15..<(index + 1) * 15), previous: index > 0 ? index - 1 : nil, next: last ? nil : index + 1)
    }

    /// Opens `key`, waits for its first page, then loads `more` pages, one request each.
    static func use(_ registry: Registry, _ key: String, loadingMore more: Int) async throws -> Int {
        _ = try await registry.withSession(for: key) { await $0.waitForFirstPage() }
        for _ in 0..<more {
            let result = try await registry.withSession(for: key) { await $0.loadMore() }
            guard case .completed = result.outcome else { throw StoreTestFailure("load-more: \(result)") }
        }
        return try await registry.withSession(for: key) { $0.currentSnapshot.count }
    }

    struct StoreTestFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    // MARK: The store's rules

    @Test("a write on another version is refused and nothing is written (compare-and-swap)")
    func compareAndSwap() async throws {
        let store = MemoryStore()
        let first = try FeedState<Post, Int>(pages: [Self.page(0)])
        #expect(try await store.save(.replaced(first), for: "a", expectedVersion: nil) == .first)
        await #expect(throws: FeedSessionStoreError.versionConflict(expected: nil, found: .first)) {
            _ = try await store.save(.replaced(first), for: "a", expectedVersion: nil)
        }
        let second = try await store.save(.appended(Self.page(1)), for: "a", expectedVersion: .first)
        #expect(second == FeedSessionVersion(rawValue: 2))
        // A writer that read version 1 lost the race: its page is not applied.
        await #expect(throws: FeedSessionStoreError.versionConflict(expected: .first, found: second)) {
            _ = try await store.save(.appended(Self.page(1)), for: "a", expectedVersion: .first)
        }
        let saved = try #require(try await store.load("a"))
        #expect(saved.version == second)
        #expect(saved.state.items == posts(0..<30))
        #expect(try await store.load("b") == nil)
        #expect(await store.remove("a"))
        #expect(try await store.load("a") == nil)
    }

    @Test("records fold in order: appended, prepended, dropped; impossible ones are typed errors")
    func recordsFold() throws {
        let base = try FeedState<Post, Int>(pages: [Self.page(1)], generation: 4, anchorIndex: 3)
        let prepended = try Record.prepended(Self.page(0)).applied(to: base)
        #expect(prepended.items == posts(0..<30))
        #expect(prepended.anchorIndex == 18)
        let appended = try Record.appended(Self.page(2)).applied(to: prepended)
        #expect(appended.items == posts(0..<45))
        #expect(appended.generation == 4)
        let dropped = try Record.dropped(pageCount: 1, itemCount: 15, from: .start).applied(to: appended)
        #expect(dropped.items == posts(15..<45))
        #expect(dropped.anchorIndex == 3)
        let trimmed = try Record.dropped(pageCount: 2, itemCount: 30, from: .end).applied(to: appended)
        #expect(trimmed.items == posts(0..<15))
        #expect(trimmed.anchorIndex == nil) // its item left with the pages
        #expect(throws: FeedSessionStoreError.self) { _ = try Record.appended(Self.page(1)).applied(to: nil) }
        #expect(throws: FeedSessionStoreError.self) {
            _ = try Record.dropped(pageCount: 3, itemCount: 45, from: .end).applied(to: appended)
        }
        let ended = try FeedState<Post, Int>(pages: [Self.page(0, last: true)])
        #expect(throws: FeedSessionStoreError.self) { _ = try Record.appended(Self.page(1)).applied(to: ended) }
        #expect(throws: FeedSessionStoreError.self) {
            _ = try Record.dropped(pageCount: -1, itemCount: 0, from: .start).applied(to: appended)
        }
    }

    @Test("records round-trip through JSON")
    func recordsCodable() throws {
        let records: [Record] = [
            .replaced(try FeedState(pages: [Self.page(0), Self.page(1)], anchorIndex: 2)),
            .appended(Self.page(2)), .prepended(Page(items: posts(0..<2), previous: nil, next: 5)),
            .dropped(pageCount: 1, itemCount: 15, from: .end),
        ]
        let data = try JSONEncoder().encode(records)
        #expect(try JSONDecoder().decode([Record].self, from: data) == records)
        #expect(throws: DecodingError.self) {
            _ = try JSONDecoder().decode(Record.self, from: Data(#"{"kind":"shuffled"}"#.utf8))
        }
    }

    // MARK: The registry over a store

    @Test("the registry saves the first list whole, then each load-more as one page: O(page) per save")
    func savesOnePagePerLoadMore() async throws {
        let clock = TestClock()
        let store = MemoryStore()
        let registry = try Self.registry(clock, store: store)
        #expect(try await Self.use(registry, "a", loadingMore: 0) == 15)
        #expect(await store.writtenRecordCount == 1)
        #expect(await store.writtenItemCount == 15)
        for more in 1...8 {
            let result = try await registry.withSession(for: "a") { await $0.loadMore() }
            guard case .completed = result.outcome else { Issue.record("\(result)"); return }
            #expect(await store.writtenRecordCount == 1 + more)
            #expect(await store.writtenItemCount == 15 + 15 * more) // one page each, not the list
        }
        let saved = try #require(try await store.load("a"))
        #expect(saved.version == FeedSessionVersion(rawValue: 9))
        #expect(saved.state.items == posts(0..<135))
        // A refresh replaces the list: saved whole.
        _ = try await registry.withSession(for: "a") { await $0.refresh() }
        #expect(await store.writtenItemCount == 135 + 15)
        #expect(try await store.load("a")?.state.items == posts(0..<15))
        await registry.closeAll()
    }

    @Test("a session missing here is restored from the store, with its list and version")
    func restoresOnMiss() async throws {
        let clock = TestClock()
        let store = MemoryStore()
        let first = try Self.registry(clock, store: store)
        #expect(try await Self.use(first, "a", loadingMore: 3) == 60)
        await first.closeAll()
        let second = try Self.registry(clock, store: store) // a restart over the same store
        let restored = try await second.withSession(for: "a") { feed in
            (feed.currentSnapshot.count, Array(feed.currentSnapshot))
        }
        #expect(restored.0 == 60)
        #expect(restored.1 == posts(0..<60))
        let result = try await second.withSession(for: "a") { await $0.loadMore() }
        guard case .completed = result.outcome else { Issue.record("\(result)"); return }
        let saved = try #require(try await store.load("a"))
        #expect(saved.version == FeedSessionVersion(rawValue: 5))
        #expect(saved.state.items == posts(0..<75))
        await second.closeAll()
    }

    @Test("a page applied outside withSession is saved on eviction")
    func savedOnEviction() async throws {
        let clock = TestClock()
        let store = MemoryStore()
        let registry = try Self.registry(clock, store: store, maximumCount: 1)
        let a = await registry.controller(for: "a")
        _ = await a.waitForFirstPage()
        _ = await a.loadMore()
        _ = await registry.controller(for: "b") // evicts a, which saves what it has
        let saved = try #require(try await store.load("a"))
        #expect(saved.state.items == posts(0..<30))
        #expect(await registry.keys == ["b"])
        await registry.closeAll()
    }

    @Test("two instances over one store: the losing writer gets a conflict, drops its copy, and resumes the saved list")
    func conflictBetweenInstances() async throws {
        let clock = TestClock()
        let store = MemoryStore()
        let one = try Self.registry(clock, store: store)
        let two = try Self.registry(clock, store: store)
        var twoEvictions = two.evictions.makeAsyncIterator()
        #expect(try await Self.use(one, "a", loadingMore: 0) == 15)            // v1
        #expect(try await two.withSession(for: "a") { $0.currentSnapshot.count } == 15)
        _ = try await one.withSession(for: "a") { await $0.loadMore() }        // v2: items 0..<30
        await #expect(throws: FeedSessionRegistryError.store(.versionConflict(
            expected: .first, found: FeedSessionVersion(rawValue: 2)))) {
            _ = try await two.withSession(for: "a") { await $0.loadMore() }     // made on v1: refused
        }
        #expect(await twoEvictions.next() == FeedSessionEviction(key: "a", reason: .storeConflict))
        #expect(try await store.load("a")?.state.items == posts(0..<30))        // not applied
        // The losing instance restores the saved list and goes on from it.
        let retried = try await two.withSession(for: "a") { await $0.loadMore() }
        guard case .completed = retried.outcome else { Issue.record("\(retried)"); return }
        let saved = try #require(try await store.load("a"))
        #expect(saved.version == FeedSessionVersion(rawValue: 3))
        #expect(saved.state.items == posts(0..<45))                             // no page lost or repeated
        await one.closeAll()
        await two.closeAll()
    }

    // MARK: The file store

    static func temporaryDirectory() -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("asyncpaging-sessions-\(UInt64.random(in: 0...UInt64.max))").path
        return path
    }

    @Test("file store: a restart (new registry, new store over the directory) resumes every session with its list and version")
    func fileStoreRestart() async throws {
        let clock = TestClock()
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try FileFeedSessionStore<String, Post, Int>(directory: directory)
        let before = try Self.registry(clock, store: store)
        for (index, key) in ["a", "b/c", "Ω"].enumerated() {
            #expect(try await Self.use(before, key, loadingMore: index * 2) == 15 + 30 * index)
        }
        await before.closeAll()
        let reopened = try FileFeedSessionStore<String, Post, Int>(directory: directory)
        let after = try Self.registry(clock, store: reopened)
        for (index, key) in ["a", "b/c", "Ω"].enumerated() {
            let saved = try #require(try await reopened.load(key))
            #expect(saved.version == FeedSessionVersion(rawValue: UInt64(1 + index * 2)))
            let items = try await after.withSession(for: key) { Array($0.currentSnapshot) }
            #expect(items == posts(0..<(15 + 30 * index)))
        }
        _ = try await after.withSession(for: "Ω") { await $0.loadMore() }
        #expect(try await reopened.load("Ω")?.state.items == posts(0..<90))
        #expect(try await reopened.load("Ω")?.version == FeedSessionVersion(rawValue: 6))
        await after.closeAll()
    }

    @Test("file store: a load-more appends O(page) bytes, not the list; compaction is amortized")
    func fileStoreBytesPerPage() async throws {
        let clock = TestClock()
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try FileFeedSessionStore<String, Post, Int>(directory: directory)
        let registry = try Self.registry(clock, store: store)
        _ = try await Self.use(registry, "a", loadingMore: 0)
        let firstList = await store.writtenByteCount
        var appendSizes: [Int] = []
        for _ in 1...12 {
            let (bytes, compactions) = (await store.writtenByteCount, await store.compactionCount)
            _ = try await registry.withSession(for: "a") { await $0.loadMore() }
            if await store.compactionCount == compactions { appendSizes.append(await store.writtenByteCount - bytes) }
        }
        #expect(appendSizes.count >= 8)
        // Every append is about one page (the ids grow from 2 to 3 digits), whatever the list's length.
        let smallest = appendSizes.min() ?? 0
        #expect(appendSizes.allSatisfy { $0 <= smallest * 3 / 2 })
        #expect(smallest <= firstList * 3 / 2)
        // All the bytes written for 195 items, compactions included, stay within a few lists.
        let listBytes = try JSONEncoder().encode(try #require(try await store.load("a")).state).count
        #expect(await store.writtenByteCount <= 4 * listBytes)
        #expect(try await store.load("a")?.state.items == posts(0..<195))
        await registry.closeAll()
    }

    @Test("file store: compare-and-swap, and a torn last line is ignored and cut off")
    func fileStoreConflictAndTornLine() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try FileFeedSessionStore<String, Post, Int>(directory: directory)
        let other = try FileFeedSessionStore<String, Post, Int>(directory: directory) // another process
        #expect(try await store.save(.replaced(try FeedState(pages: [Self.page(0)])), for: "k", expectedVersion: nil) == .first)
        #expect(try await other.save(.appended(Self.page(1)), for: "k", expectedVersion: .first) == FeedSessionVersion(rawValue: 2))
        await #expect(throws: FeedSessionStoreError.versionConflict(expected: .first, found: FeedSessionVersion(rawValue: 2))) {
            _ = try await store.save(.appended(Self.page(1)), for: "k", expectedVersion: .first)
        }
        // A crash in the middle of a line: the line has no newline.
        let file = try #require(FileHandle(forWritingAtPath: directory + "/6b.log"))
        try file.seekToEnd()
        try file.write(contentsOf: Data(#"{"record":{"kind":"appen"#.utf8))
        try file.close()
        let reread = try FileFeedSessionStore<String, Post, Int>(directory: directory)
        #expect(try await reread.load("k")?.version == FeedSessionVersion(rawValue: 2))
        #expect(try await reread.save(.appended(Self.page(2)), for: "k", expectedVersion: FeedSessionVersion(rawValue: 2))
            == FeedSessionVersion(rawValue: 3))
        #expect(try await store.load("k")?.state.items == posts(0..<45))
        #expect(try await store.remove("k"))
        #expect(try await store.load("k") == nil)
    }
}
