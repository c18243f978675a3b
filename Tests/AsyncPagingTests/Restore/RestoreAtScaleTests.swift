import AsyncPaging
import AsyncPagingTesting
import Testing

/// A restore of a large list (issue 24): the items go into the store and the duplicate filter
/// records their ids in one pass over a table made to size; a state with repeated ids is
/// restored page by page instead. Either way the restored controller must then behave as the
/// controller that loaded the pages: later pages' repeats dropped, edits finding restored items,
/// the bound dropping and reloading pages.
@Suite("Restore at scale")
struct RestoreAtScaleTests {
    let clock = TestClock()

    /// `count` pages of `size` posts from post `first`: page `k` holds posts
    /// `first + k·size ..< first + (k+1)·size`, cursors are page numbers from `firstPage`.
    static func pages(_ count: Int, size: Int = 10, first: Int = 0, firstPage: Int = 0) -> [Page<Post, Int>] {
        (0..<count).map { index in
            let cursor = firstPage + index
            let lower = first + index * size
            return Page(items: posts(lower..<lower + size), previous: cursor > 0 ? cursor - 1 : nil, next: cursor + 1)
        }
    }

    @Test(
        "a restored list knows every id: repeats of any restored post are dropped, new posts kept",
        arguments: [1, 4, 37, 300, 2_500])
    func restoredIDsAreKnown(pageCount: Int) async throws {
        let state = try PostState(pages: Self.pages(pageCount), anchorIndex: pageCount * 5)
        let itemCount = pageCount * 10
        // The next page repeats posts from everywhere in the list, and brings 5 new ones.
        let repeated = [0, itemCount / 3, itemCount / 2, itemCount - 2, itemCount - 1]
        let source = PostSource { request in
            .page(Page(items: repeated.map(Post.init(id:)) + posts(itemCount..<itemCount + 5), previous: nil, next: nil))
        }
        let feed = PostFeed(source: source, clock: clock, restoring: state, restorePolicy: .never)
        #expect(feed.currentSnapshot.ids == Array(0..<itemCount))
        #expect(feed.restoredAnchorIndex == pageCount * 5)
        #expect(await feed.loadMore() == .completed(.loadMore, applied: 5, dropped: 5, reachedEnd: true))
        #expect(feed.currentSnapshot.ids == Array(0..<itemCount + 5))
        #expect(source.requests.map(\.cursor) == [pageCount])
    }

    @Test("edits after a restore find restored posts by id, anywhere in the list, and keep the filter right")
    func editsAfterRestore() async throws {
        let state = try PostState(pages: Self.pages(400))
        let source = PostSource { _ in .page(Page(items: posts(3_999..<4_010), previous: nil, next: nil)) }
        let feed = PostFeed(source: source, clock: clock, restoring: state, restorePolicy: .never)
        #expect(try await feed.update(Post(id: 2_718)) == 2_718)
        #expect(try await feed.remove(ids: [0, 1_234, 3_999, 77_777]) == [0, 1_234, 3_999])
        #expect(try await feed.update(id: 3_998) { _ in } == 3_996)
        #expect(feed.currentSnapshot.count == 3_997)
        // A removed post is no longer listed: it comes back with the next page; the rest of
        // that page's repeats stay dropped.
        #expect(await feed.loadMore() == .completed(.loadMore, applied: 11, reachedEnd: true))
        var expected = Array(0..<4_010)
        expected.removeAll { [0, 1_234].contains($0) }
        #expect(feed.currentSnapshot.ids == expected)
        let again = try #require(try await feed.exportState(savedBy: clock))
        #expect(again.items.map(\.id) == expected)
    }

    @Test("a state repeating an id far into the list is restored page by page: the first stays, the anchor follows its item")
    func repeatedIDFarIn() async throws {
        var pages = Self.pages(300)
        // Page 250 repeats post 7 in its middle, and page 299 repeats post 2,000.
        pages[250] = Page(
            items: posts(2_500..<2_505) + [Post(id: 7)] + posts(2_505..<2_509), previous: 249, next: 251)
        pages[299] = Page(items: posts(2_990..<2_999) + [Post(id: 2_000)], previous: 298, next: 300)
        let state = try PostState(pages: pages, anchorIndex: 2_990) // post 2,990, after the first repeat
        // A bound larger than the list: the export keeps the pages one by one.
        let feed = PostFeed(
            source: Fixtures.source(), clock: clock, configuration: Fixtures.configuration(maximumItems: 10_000),
            restoring: state, restorePolicy: .never)
        var expected = Array(0..<2_509)
        expected += Array(2_510..<2_999)
        #expect(feed.currentSnapshot.ids == expected)
        #expect(feed.restoredAnchorIndex == 2_989)
        #expect(feed.currentSnapshot[2_989].id == 2_990)
        let again = try #require(try await feed.exportState(savedBy: clock))
        #expect(again.items.map(\.id) == expected)
        #expect(again.pages.map(\.items.count).reduce(0, +) == expected.count)
        #expect(again.pages[250].items.count == 9 && again.pages[299].items.count == 9)
    }

    @Test("a restored bounded feed drops pages at the far end and forgets their ids, which a reload brings back")
    func boundedAfterRestore() async throws {
        // 200 pages of 10 from page 100; a bound of 2,000 holds them all.
        let state = try PostState(pages: Self.pages(200, first: 1_000, firstPage: 100))
        let source = PostSource { request in
            let cursor = request.cursor ?? 0
            return .page(Page(items: posts(cursor * 10..<cursor * 10 + 10), previous: cursor - 1, next: cursor + 1))
        }
        let feed = PostFeed(
            source: source, clock: clock, configuration: Fixtures.configuration(maximumItems: 2_000),
            restoring: state, restorePolicy: .never)
        #expect(feed.currentSnapshot.count == 2_000)
        // Two pages at the end: the two first pages (posts 1,000..<1,020) go.
        #expect(await feed.loadMore() == .completed(.loadMore, applied: 10))
        #expect(await feed.loadMore() == .completed(.loadMore, applied: 10))
        #expect(feed.currentSnapshot.ids == Array(1_020..<3_020))
        // Loading them again at the start: their ids were forgotten, so nothing is a duplicate
        // (and the far end's pages go instead).
        #expect(await feed.loadPrevious() == .completed(.loadPrevious, applied: 10))
        #expect(await feed.loadPrevious() == .completed(.loadPrevious, applied: 10))
        #expect(feed.currentSnapshot.ids == Array(1_000..<3_000))
        #expect(source.requests.map(\.cursor) == [300, 301, 101, 100])
    }

    @Test("a feed given ids by key path or by closure restores in bulk too, and its edits find restored items")
    func keyPathAndClosureIDs() async throws {
        struct Row: Sendable, Equatable { let key: Int32; var text: String }
        let rows = (0..<1_500).map { Row(key: Int32($0) - 700, text: "row \($0)") }
        let pages = stride(from: 0, to: rows.count, by: 50).map { start in
            Page<Row, Int>(items: Array(rows[start..<start + 50]), previous: start > 0 ? start / 50 - 1 : nil, next: start / 50 + 1)
        }
        let state = try FeedState(pages: pages)
        let repeats = [rows[0], rows[749], rows[1_499], Row(key: 9_999, text: "new")]
        let source = ScriptedPageSource<Row, Int> { _ in .page(Page(items: repeats, previous: nil, next: nil)) }
        let byKeyPath = FeedController(source: source, clock: clock, restoring: state, restorePolicy: .never, id: \.key)
        let byClosure = FeedController(
            source: source, clock: clock, restoring: state, restorePolicy: .never, id: { (row: Row) in Int64(row.key) })
        for feed in [byKeyPath, byClosure] {
            #expect(feed.currentSnapshot.count == 1_500)
            #expect(await feed.loadMore() == .completed(.loadMore, applied: 1, dropped: 3, reachedEnd: true))
            #expect(feed.currentSnapshot.count == 1_501)
        }
        #expect(try await byKeyPath.update(id: Int32(-700)) { $0.text = "edited" } == 0)
        #expect(byKeyPath.currentSnapshot[0].text == "edited")
        #expect(try await byClosure.remove(ids: [Int64(799), Int64(-1)]) == [699, 1_499])
        #expect(byClosure.currentSnapshot.count == 1_499)
    }
}

private typealias Fixtures = RestoreFixtures
