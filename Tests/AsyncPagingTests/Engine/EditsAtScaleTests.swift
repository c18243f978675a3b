import AsyncPaging
import AsyncPagingTesting
import Testing

/// Edits found through the duplicate filter: on a feed given ids by key path (items that are
/// not `Identifiable`), past the 1,024th distinct edit (where edits were once folded into the
/// list), after the bound dropped pages and after a restore. On the test clock.
@Suite("Edits by key path and at scale")
struct EditsAtScaleTests {
    /// Not `Identifiable`: the feed knows its id by key path.
    struct Row: Sendable, Equatable, CustomStringConvertible {
        let key: String
        var text: String
        var description: String { "\(key):\(text)" }
    }

    typealias RowFeed = FeedController<Row, Int>

    let clock = TestClock()

    static func key(_ number: Int) -> String { "r\(number)" }

    /// Page `c` holds rows `pageSize·c..<pageSize·(c+1)` (text "v0"), previous `c - 1`, next
    /// `c + 1`, pages 0...99; ids by key path.
    func rowFeed(
        pageSize: Int = 10, maximumItems: Int? = nil, duplicates: DuplicatePolicy = .drop,
        restoring state: FeedState<Row, Int>? = nil
    ) async -> RowFeed {
        let configuration: FeedConfiguration
        do {
            configuration = try FeedConfiguration(pageSize: pageSize, duplicates: duplicates, maximumItems: maximumItems)
        } catch { fatalError("\(error)") }
        let source = ClosurePageSource<Row, Int> { request in
            let page = request.cursor ?? 0
            return Page(
                items: (page * pageSize..<(page + 1) * pageSize).map { Row(key: Self.key($0), text: "v0") },
                previous: page > 0 ? page - 1 : nil, next: page < 99 ? page + 1 : nil)
        }
        let feed = RowFeed(
            source: source, clock: clock, configuration: configuration, restoring: state, restorePolicy: .never,
            id: \.key)
        if state == nil { await initialLoadEnded(feed) }
        return feed
    }

    @Test("a feed with key-path ids updates, removes and inserts by its ids")
    func keyPathEdits() async throws {
        let feed = await rowFeed()
        _ = await feed.loadMore()
        #expect(try await feed.update(Row(key: "r13", text: "edited")) == 13)
        #expect(feed.currentSnapshot.change == .updated([13]))
        #expect(try await feed.update(id: "r13") { $0.text += "!" } == 13)
        #expect(feed.currentSnapshot[13].text == "edited!")
        #expect(try await feed.remove(ids: ["r15", "r3", "nope", "r3"]) == [3, 15])
        #expect(feed.currentSnapshot.change == .removed([3, 15]))
        try await feed.insertAtTop([Row(key: "new", text: "written")])
        #expect(feed.currentSnapshot.map(\.key) == ["new"] + (0..<20).filter { $0 != 3 && $0 != 15 }.map(Self.key))
        #expect(try await feed.update(Row(key: "new", text: "edited")) == 0)
        #expect(feed.currentSnapshot[13] == Row(key: "r13", text: "edited!"))
        // A removed id can come back with a page: it left the duplicate filter.
        _ = await feed.refresh()
        #expect(feed.currentSnapshot.map(\.key) == (0..<10).map(Self.key))
    }

    @Test("key-path edits that cannot apply throw typed errors and change nothing")
    func keyPathRefusals() async throws {
        let feed = await rowFeed()
        let version = feed.currentSnapshot.version
        await #expect(throws: FeedEditError.notFound("r500")) { try await feed.update(Row(key: "r500", text: "x")) }
        await #expect(throws: FeedEditError.notFound("r500")) { try await feed.update(id: "r500") { $0.text = "x" } }
        await #expect(throws: FeedEditError.notFound("3"), "an id of another type than the feed's") {
            try await feed.update(id: 3) { $0.text = "x" }
        }
        #expect(try await feed.remove(ids: [3, 4]) == [], "ids of another type are not in the list")
        await #expect(throws: FeedEditError.idChanged("r3")) { try await feed.update(id: "r3") { $0 = Row(key: "r4", text: "x") } }
        await #expect(throws: FeedEditError.idChanged("r3")) { try await feed.update(id: "r3") { $0 = Row(key: "zz", text: "x") } }
        await #expect(throws: FeedEditError.duplicateID("r5")) { try await feed.insertAtTop([Row(key: "r5", text: "x")]) }
        await #expect(throws: FeedEditError.duplicateID("n")) {
            try await feed.insertAtTop([Row(key: "n", text: "x"), Row(key: "n", text: "y")])
        }
        #expect(feed.currentSnapshot.version == version)
        #expect(feed.currentSnapshot.map(\.key) == (0..<10).map(Self.key))
        let keeping = await rowFeed(duplicates: .keep)
        await #expect(throws: FeedEditError.requiresUniqueIDs) { try await keeping.update(Row(key: "r1", text: "x")) }
        await #expect(throws: FeedEditError.requiresUniqueIDs) { try await keeping.remove(ids: ["r1"]) }
        // A feed without ids at all.
        let anonymous = FeedController<Row, Int>(clock: clock) { _ in Page(items: [Row(key: "a", text: "")], next: nil) }
        await initialLoadEnded(anonymous)
        await #expect(throws: FeedEditError.requiresUniqueIDs) { try await anonymous.update(Row(key: "a", text: "x")) }
        await feed.close()
        await #expect(throws: FeedEditError.closed) { try await feed.remove(ids: ["r1"]) }
    }

    @Test("past the 1,024th distinct edit every edit still applies, and loads land around them")
    func editsPastTheOldFoldLimit() async throws {
        let feed = await rowFeed(pageSize: 100)
        for _ in 0..<29 { _ = await feed.loadMore() } // 3,000 rows
        var expected = (0..<3_000).map { Row(key: Self.key($0), text: "v0") }
        var edits = 0
        var step = 0
        while edits < RowFeed.editsFoldedAt + 300 {
            let number = (step * 7_919) % 3_000
            step += 1
            guard let index = expected.firstIndex(where: { $0.key == Self.key(number) }) else { continue }
            if step % 5 == 0 {
                #expect(try await feed.remove(ids: [Self.key(number)]) == [index])
                expected.remove(at: index)
            } else {
                #expect(try await feed.update(Row(key: Self.key(number), text: "e\(step)")) == index)
                expected[index].text = "e\(step)"
            }
            edits += 1
            if edits % 256 == 0 || (edits >= 1_020 && edits <= 1_030) {
                #expect(Array(feed.currentSnapshot) == expected, "after \(edits) edits")
            }
        }
        #expect(Array(feed.currentSnapshot) == expected)
        // Every edited item can be edited again (found at its position), and a page lands after them.
        let again = expected[expected.count / 2]
        #expect(try await feed.update(id: again.key) { $0.text = "again" } == expected.count / 2)
        expected[expected.count / 2].text = "again"
        _ = await feed.loadMore()
        expected += (3_000..<3_100).map { Row(key: Self.key($0), text: "v0") }
        #expect(Array(feed.currentSnapshot) == expected)
    }

    @Test("edits after the bound dropped pages: dropped ids are gone, kept ones edit at their new indices")
    func editsAfterTheBoundDropped() async throws {
        let feed = await rowFeed(maximumItems: 30)
        for _ in 0..<2 { _ = await feed.loadMore() } // r0..<r30
        try await feed.update(Row(key: "r2", text: "gone with page 0"))
        try await feed.remove(ids: ["r14"])
        for _ in 0..<2 { _ = await feed.loadMore() } // pages 0 and 1 go: r20..<r50
        #expect(feed.currentSnapshot.map(\.key) == (20..<50).map(Self.key))
        await #expect(throws: FeedEditError.notFound("r2")) { try await feed.update(Row(key: "r2", text: "x")) }
        #expect(try await feed.remove(ids: ["r5", "r14"]) == [], "ids the bound dropped are skipped")
        #expect(try await feed.update(Row(key: "r25", text: "edited")) == 5)
        #expect(try await feed.remove(ids: ["r21"]) == [1])
        _ = await feed.loadPrevious() // page 1 comes back (r14 with it, as the source has it); page 4 goes
        var expected = (10..<40).filter { $0 != 21 }.map { Row(key: Self.key($0), text: "v0") }
        expected[expected.firstIndex { $0.key == "r25" }!].text = "edited"
        #expect(Array(feed.currentSnapshot) == expected)
        #expect(try await feed.update(id: "r14") { $0.text = "back" } == 4)
    }

    @Test("edits after a restore find the restored items, and the export keeps them")
    func editsAfterARestore() async throws {
        let original = await rowFeed()
        _ = await original.loadMore()
        try await original.remove(ids: ["r4"])
        try await original.update(Row(key: "r7", text: "edited"))
        let state = try #require(try await original.exportState())
        let restored = await rowFeed(restoring: state)
        #expect(Array(restored.currentSnapshot) == Array(original.currentSnapshot))
        #expect(try await restored.update(id: "r7") { $0.text += "!" } == 6)
        #expect(try await restored.remove(ids: ["r0", "r4"]) == [0])
        try await restored.insertAtTop([Row(key: "top", text: "")])
        await #expect(throws: FeedEditError.duplicateID("r9")) { try await restored.insertAtTop([Row(key: "r9", text: "x")]) }
        _ = await restored.loadMore()
        var expected = [Row(key: "top", text: "")] + (1..<30).filter { $0 != 4 }.map { Row(key: Self.key($0), text: "v0") }
        expected[expected.firstIndex { $0.key == "r7" }!].text = "edited!"
        #expect(Array(restored.currentSnapshot) == expected)
        let again = try #require(try await restored.exportState())
        #expect(again.pages.flatMap(\.items) == expected)
    }
}
