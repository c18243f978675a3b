import AsyncPaging
import AsyncPagingTesting
import Testing

/// The figures of issue 25 (Benchmarks/README.md, "Lists that stay true"), counted on the test
/// clock and printed: `swift test --filter ReloadFiguresTests`. Each is also checked against
/// its target.
@Suite("Reload figures")
struct ReloadFiguresTests {
    let clock = TestClock()

    @Test("invalidation of a 10,000-item feed with the anchor at row 5,000: requests and the anchor's item")
    func invalidationFigure() async throws {
        let data = ChangingData()
        let source = data.source()
        let feed = PostFeed(
            source: source, clock: clock, configuration: reloadConfiguration(),
            restoring: try data.state(pages: 0..<500), restorePolicy: .never)
        let count = feed.currentSnapshot.count
        feed.reportVisibleRows(5_000..<5_012)
        let before = feed.currentSnapshot[5_000]
        data.insertAtTop(7) // the data changed above the anchor
        let log = await PublishedListLog(feed)
        _ = await feed.invalidate()
        let after = feed.currentSnapshot
        guard case .reloaded(let move) = after.change, let row = move.to else {
            Issue.record("no anchor move in \(after.change)")
            return
        }
        print("""
            invalidation figure: \(count) items, anchor row 5000 (post \(before.id)); \
            requests: \(source.requests.count) (cursors \(source.requests.map { $0.cursor.map(String.init) ?? "nil" })); \
            published lists: \(log.lists.count - 1); change \(after.change); \
            row \(row) of the reloaded list (\(after.count) items) is post \(after[row].id), shown where row \(move.from) was
            """)
        #expect(source.requests.count <= 3)
        #expect(after[row].id == before.id)
    }

    @Test("refetch of 50 loaded pages: requests and published lists")
    func refetchFigure() async {
        let data = ChangingData()
        let source = data.source()
        let feed = PostFeed(
            source: source, clock: clock, configuration: reloadConfiguration(refreshMode: .refetchLoaded))
        await initialLoadEnded(feed)
        for _ in 0..<49 { _ = await feed.loadMore() }
        let loaded = feed.currentSnapshot.count
        let requestsBefore = source.requests.count
        let log = await PublishedListLog(feed)
        data.insertAtTop(3)
        _ = await feed.refresh()
        let requests = source.requests.count - requestsBefore
        let published = log.lists.count - 1
        print("""
            refetch figure: 50 pages (\(loaded) items) loaded; refresh() made \(requests) requests and published \
            \(published) list (change \(feed.currentSnapshot.change), \(feed.currentSnapshot.count) items, first post \
            \(feed.currentSnapshot.first?.id ?? 0))
            """)
        #expect(requests == 50)
        #expect(published == 1)
    }
}
