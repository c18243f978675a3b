import AsyncPaging
import AsyncPagingTesting
import Testing

/// Paging 3's `PagingData` transforms (`PagingDataTransformTest`, `RxPagingDataTest`,
/// `SeparatorsTest`) and TanStack Query's `select`, translated to ``FeedTransform`` on the test
/// clock. Each display name cites the peer test. Paging 3's separator tests feed the transform
/// page events by hand; here the pages come from a scripted source through a controller, and
/// each list's rows are checked as a subscriber applying the changes sees them.
@Suite("Transforms: PagingDataTransformTest, SeparatorsTest and select")
struct PeerTransformTests {
    let clock = TestClock()

    typealias LetterFeed = FeedController<String, Int>

    /// Paging 3's letter generator: the upper-cased first letter before an item whose first
    /// letter differs from the item before it (and before the first item, at the start of the
    /// data); "END" after the last item at the end.
    static let letters = FeedTransform<String, String>(separator: { before, after in
        switch (before, after) {
        case (nil, let after?): after.prefix(1).uppercased()
        case (_?, nil): "END"
        case (let before?, let after?): before.first != after.first ? after.prefix(1).uppercased() : nil
        case (nil, nil): nil
        }
    })

    /// A feed over `pages` (cursor = index): page `i` names `i - 1` and `i + 1` as its
    /// neighbours; the first names none before it only if `startDone`, the last none after it
    /// only if `endDone` (otherwise the pages beyond are empty and name further pages).
    func feed(_ pages: [[String]], at start: Int = 0, startDone: Bool = false, endDone: Bool = false) async -> LetterFeed {
        let source = ScriptedPageSource<String, Int> { request in
            let index = request.cursor ?? start
            let items = pages.indices.contains(index) ? pages[index] : []
            let previous: Int? = index <= 0 && startDone ? nil : index - 1
            let next: Int? = index >= pages.count - 1 && endDone ? nil : index + 1
            return .page(items, previous: previous, next: next)
        }
        let feed = LetterFeed(source: source, clock: clock, configuration: try! FeedConfiguration(pageSize: 2, duplicates: .keep), initialCursor: start)
        await initialLoadEnded(feed)
        return feed
    }

    /// Follows `feed` through `transform`, checking each change against an array of rows.
    final class Follower {
        let transformer: FeedRowsTransformer<String, String>
        var mirror: [String] = []
        init(_ transform: FeedTransform<String, String>) { transformer = FeedRowsTransformer(transform) }

        func rows(_ feed: LetterFeed, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
            let rows = transformer.apply(
                FeedUpdate(snapshot: feed.currentSnapshot, status: feed.currentStatus, loadStates: feed.currentLoadStates))
            rows.change.apply(to: &mirror, from: rows)
            #expect(mirror == Array(rows), "the change \(rows.change) applied", sourceLocation: sourceLocation)
            return Array(rows)
        }
    }

    @Test("map: every item becomes its row (Paging 3 PagingDataTransformTest / RxPagingDataTest.map)")
    func map() async {
        let feed = await feed([["a", "b", "c"]], startDone: true, endDone: true)
        let follower = Follower(FeedTransform { $0 + $0 })
        #expect(follower.rows(feed) == ["aa", "bb", "cc"])
    }

    @Test("filter: the items the predicate refuses are not shown (Paging 3 PagingDataTransformTest / RxPagingDataTest.filter)")
    func filter() async {
        let feed = await feed([["a", "b", "c"]], startDone: true, endDone: true)
        let follower = Follower(FeedTransform(filter: { $0 != "b" }))
        #expect(follower.rows(feed) == ["a", "c"])
    }

    @Test("insertSeparators between items only, none at the ends (RxPagingDataTest.insertSeparators)")
    func separatorsBetweenItems() async {
        let feed = await feed([["a", "b", "c"]], startDone: true, endDone: true)
        let follower = Follower(FeedTransform(separator: { before, after in before == nil || after == nil ? nil : "|" }))
        #expect(follower.rows(feed) == ["a", "|", "b", "|", "c"])
    }

    @Test("separators inside and across pages, no terminal separators before the ends are reached (SeparatorsTest.refreshFull)")
    func refreshFull() async {
        let feed = await feed([["a2", "b1"], ["c1", "c2"]])
        let follower = Follower(Self.letters)
        #expect(follower.rows(feed) == ["a2", "B", "b1"])
        _ = await feed.loadMore()
        #expect(follower.rows(feed) == ["a2", "B", "b1", "C", "c1", "c2"])
    }

    @Test("pages prepended: their separators, and the one between them and the list (SeparatorsTest.refreshStartFull)")
    func refreshStartFull() async {
        let feed = await feed([["a1", "b1"], ["b2", "b3"], ["c1"]], at: 2)
        let follower = Follower(Self.letters)
        #expect(follower.rows(feed) == ["c1"])
        _ = await feed.loadPrevious()
        #expect(follower.rows(feed) == ["b2", "b3", "C", "c1"])
        _ = await feed.loadPrevious()
        #expect(follower.rows(feed) == ["a1", "B", "b1", "b2", "b3", "C", "c1"])
    }

    @Test("pages appended: their separators, and the one between the list and them (SeparatorsTest.refreshEndFull)")
    func refreshEndFull() async {
        let feed = await feed([["a1", "a2"], ["c1", "d1"], ["d2", "d3"]])
        let follower = Follower(Self.letters)
        #expect(follower.rows(feed) == ["a1", "a2"])
        _ = await feed.loadMore()
        _ = await feed.loadMore()
        #expect(follower.rows(feed) == ["a1", "a2", "C", "c1", "D", "d1", "d2", "d3"])
    }

    @Test("a header once the start is reached, a footer once the end is, both for a one-page list (SeparatorsTest.refreshStartDone, refreshEndDone, refreshBothDone)", arguments: [
        (false, true, ["a1", "END"]), (true, false, ["A", "a1"]), (true, true, ["A", "a1", "END"]), (false, false, ["a1"]),
    ])
    func terminalSeparators(startDone: Bool, endDone: Bool, expected: [String]) async {
        let feed = await feed([["a1"]], startDone: startDone, endDone: endDone)
        #expect(Follower(Self.letters).rows(feed) == expected)
    }

    @Test("an empty list has no separators, even with both ends reached (SeparatorsTest.refreshEmptyNoop)")
    func emptyList() async {
        let feed = await feed([[]], startDone: true, endDone: true)
        #expect(Follower(Self.letters).rows(feed) == [])
    }

    @Test("empty pages at both ends: the header and footer wait until an end is known to be reached, then come alone (SeparatorsTest.refreshEmptyStartDone)")
    func refreshEmptyStartDone() async {
        // The engine follows empty pages: the first load lands on page 1, whose start is not known.
        let feed = await feed([[], ["a1"], [], []], startDone: true, endDone: true)
        let follower = Follower(Self.letters)
        #expect(follower.rows(feed) == ["a1"])
        _ = await feed.loadMore() // pages 2 and 3 are empty; the end is reached
        #expect(follower.rows(feed) == ["a1", "END"])
        #expect(follower.transformer.rows?.change == .ends(FeedEndsChange(insertedAtEnd: 1)), "only the footer")
        _ = await feed.loadPrevious() // page 0 is empty; the start is reached
        #expect(follower.rows(feed) == ["A", "a1", "END"])
        #expect(follower.transformer.rows?.change == .ends(FeedEndsChange(insertedAtStart: 1)), "only the header")
    }

    @Test("an empty last page at the end: the footer waits for an item; prepends then bring the header (SeparatorsTest.refreshEmptyEndDone)")
    func refreshEmptyEndDone() async {
        let feed = await feed([[], ["a1"], []], at: 2, startDone: true, endDone: true)
        let follower = Follower(Self.letters)
        #expect(follower.rows(feed) == [])
        _ = await feed.loadPrevious()
        #expect(follower.rows(feed) == ["a1", "END"])
        _ = await feed.loadPrevious()
        #expect(follower.rows(feed) == ["A", "a1", "END"])
    }

    @Test("a page dropped by the bound takes its separators and the one next to it (SeparatorsTest.refreshDropFull)")
    func dropFull() async {
        let source = ScriptedPageSource<String, Int> { request in
            let index = request.cursor ?? 0
            let pages = [["a1", "a2"], ["b1", "b2"], ["c1", "c2"]]
            return .page(pages[index], previous: index > 0 ? index - 1 : nil, next: index < 2 ? index + 1 : nil)
        }
        let feed = LetterFeed(
            source: source, clock: clock,
            configuration: try! FeedConfiguration(pageSize: 2, duplicates: .keep, maximumItems: 4))
        await initialLoadEnded(feed)
        let follower = Follower(Self.letters)
        _ = await feed.loadMore()
        #expect(follower.rows(feed) == ["A", "a1", "a2", "B", "b1", "b2"])
        _ = await feed.loadMore()
        #expect(follower.rows(feed) == ["b1", "b2", "C", "c1", "c2", "END"], "page a and its header went, and the B separator whose neighbour went")
    }

    @Test("select a part of each item: the rows hold what the screen needs (TanStack useInfiniteQuery 'should be able to select a part of the data')")
    func selectAPart() async {
        let source = ScriptedPageSource<[String: Int], Int> { _ in .page([["count": 1]], next: nil) }
        let feed = FeedController<[String: Int], Int>(source: source, clock: clock, configuration: try! FeedConfiguration(duplicates: .keep))
        await initialLoadEnded(feed)
        var iterator = feed.rows { item in "count: \(item["count"] ?? 0)" }.makeAsyncIterator()
        let rows = await iterator.next()
        #expect(rows.map(Array.init) == ["count: 1"])
    }

    @Test("select runs for new data only: an update that changes only the status runs no function (TanStack useQuery 'should be able to select a part of the data with select', select memoized on the data)")
    func selectRunsForNewDataOnly() async {
        let calls = TransformCalls()
        let feed = await messageFeed(clock: clock)
        let transformer = FeedRowsTransformer(ChatTransform.make(calls: calls))
        transformer.apply(FeedUpdate(snapshot: feed.currentSnapshot, status: feed.currentStatus, loadStates: feed.currentLoadStates))
        calls.reset()
        let rows = transformer.apply(FeedUpdate(snapshot: feed.currentSnapshot, status: .loadingMore, loadStates: feed.currentLoadStates))
        #expect(rows.change == .unchanged && rows.status == .loadingMore)
        #expect(calls.map == 0 && calls.filter == 0 && calls.separator == 0)
    }
}
