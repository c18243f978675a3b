import AsyncPaging
import AsyncPagingTesting
import Testing

/// The bound (``FeedConfiguration/maximumItems``) with the rows on screen reported
/// (``FeedController/reportVisibleRows(_:prefetchDistance:)``), on the test clock: pages near
/// the rows are never dropped, pages go from the end farther from them, and two ends loading
/// at the bound make progress.
@Suite("Bound that knows where the user is")
struct VisibleRowsBoundTests {
    let clock = TestClock()

    /// Pages of `size` posts, 0...99: page `c` holds posts `size·c ..< size·(c + 1)`, names
    /// `c - 1` before it and `c + 1` after it (none past either end).
    static func source(size: Int) -> PostSource {
        PostSource { request in
            let index = request.cursor ?? 0
            let page = Page(
                items: posts(index * size..<(index + 1) * size),
                previous: index > 0 ? index - 1 : nil, next: index < 99 ? index + 1 : nil)
            return .page(page, latency: .zero)
        }
    }

    func feed(pageSize: Int, maximumItems: Int, at cursor: Int) async throws -> PostFeed {
        let configuration = try FeedConfiguration(pageSize: pageSize, maximumItems: maximumItems)
        let feed = PostFeed(
            source: Self.source(size: pageSize), clock: clock, configuration: configuration, initialCursor: cursor)
        await initialLoadEnded(feed)
        return feed
    }

    @Test("without rows reported, a chat at the bound goes round: the load at one end drops the page the other end fetched")
    func withoutReportTheEndsGoRound() async throws {
        let feed = try await feed(pageSize: 30, maximumItems: 200, at: 38)
        for _ in 0..<5 { _ = await feed.loadMore() }
        #expect(feed.currentSnapshot.ids == Array(1140..<1320), "a bound of 200 with pages of 30 holds 180")
        _ = await feed.loadMore()
        _ = await feed.loadPrevious()
        #expect(feed.currentSnapshot.ids == Array(1140..<1320), "two fetches, back where it was")
    }

    @Test("with the rows near the end reported, the page the end fetched stays; the start drops")
    func rowsNearTheEndKeepTheEnd() async throws {
        let feed = try await feed(pageSize: 30, maximumItems: 200, at: 38)
        for _ in 0..<5 { _ = await feed.loadMore() }
        feed.reportVisibleRows(160..<175, prefetchDistance: 10)
        _ = await feed.loadMore()
        #expect(feed.currentSnapshot.ids == Array(1170..<1350))
        // The user reads on at the bottom: rows 130..<145 of the new list are the same posts.
        _ = await feed.loadMore()
        #expect(feed.currentSnapshot.ids == Array(1200..<1380), "the rows near the end keep every page there")
        // A load at the start now (say, a manual one) lands far from the rows: its page goes
        // again, the pages near the rows stay.
        #expect(await feed.loadPrevious().outcome == .completed(LoadSummary(itemsApplied: 30)))
        #expect(feed.currentSnapshot.ids == Array(1200..<1380))
    }

    @Test("pages go from the end farther from the rows, whichever end grew")
    func farEndFirst() async throws {
        let feed = try await feed(pageSize: 10, maximumItems: 30, at: 5)
        _ = await feed.loadMore()
        _ = await feed.loadMore()
        #expect(feed.currentSnapshot.ids == Array(50..<80))
        feed.reportVisibleRows(0..<3, prefetchDistance: 2) // the user at the top
        _ = await feed.loadPrevious()
        #expect(feed.currentSnapshot.ids == Array(40..<70), "the start grew, the end is farther: it drops")
        #expect(await feed.cursors.next == 7)
        // The rows followed their posts (50, 51, 52 are rows 10..<13 now). Another page at the
        // start puts them nearer the end: the start is farther now, and its new page goes.
        _ = await feed.loadPrevious()
        #expect(feed.currentSnapshot.ids == Array(40..<70))
        #expect(await feed.cursors.previous == 3)
    }

    @Test("two ends loading at the bound with every page near the rows: both pages stay, over the bound")
    func bothEndsMakeProgress() async throws {
        let feed = try await feed(pageSize: 1, maximumItems: 5, at: 50)
        let diagnostics = StreamRecorder(feed.diagnostics)
        _ = await feed.loadMore()
        _ = await feed.loadPrevious()
        _ = await feed.loadMore()
        _ = await feed.loadPrevious()
        #expect(feed.currentSnapshot.ids == Array(48..<53))
        feed.reportVisibleRows(2..<3, prefetchDistance: 2) // post 50, two rows either side prefetched
        var fetched: [Int] = []
        for _ in 0..<3 {
            _ = await feed.loadMore()
            _ = await feed.loadPrevious()
            fetched = feed.currentSnapshot.ids
        }
        // Rows 47..<54 are within three rows of post 50: none of them goes.
        #expect(Array(47..<54).allSatisfy(fetched.contains), "\(fetched)")
        #expect(fetched.contains(50))
        #expect(fetched.count <= 9, "pages beyond the rows' window go again: \(fetched)")
        await feed.close()
        #expect(!diagnostics.values.contains { if case .pagesKeptOverBound = $0 { true } else { false } },
                "rows kept over the bound are no cursor failure")
    }

    @Test("a refresh that replaces the list forgets the rows until the next report")
    func refreshForgetsTheRows() async throws {
        let feed = try await feed(pageSize: 10, maximumItems: 30, at: 5)
        _ = await feed.loadMore()
        _ = await feed.loadMore()
        feed.reportVisibleRows(0..<3, prefetchDistance: 2)
        _ = await feed.refresh() // the first page of the data, a new generation
        _ = await feed.loadMore()
        _ = await feed.loadMore()
        _ = await feed.loadMore()
        // Had the old rows (positions 0...2) been kept, they would now protect the first page
        // and the end would drop instead.
        #expect(feed.currentSnapshot.ids == Array(10..<40), "today's rule: the start drops")
        feed.reportVisibleRows(0..<3, prefetchDistance: 2)
        feed.clearVisibleRows()
        _ = await feed.loadPrevious()
        #expect(feed.currentSnapshot.ids == Array(0..<30), "cleared: the end drops again")
    }

    @Test("rows outside the list, negative distances and extreme values neither trap nor protect more than the list")
    func extremeReports() async throws {
        let feed = try await feed(pageSize: 10, maximumItems: 30, at: 5)
        for rows in [Int.min..<Int.max, -5..<(-1), 1_000..<2_000, 0..<0] {
            for distance in [Int.min, -1, 0, Int.max] {
                feed.reportVisibleRows(rows, prefetchDistance: distance)
            }
        }
        feed.reportVisibleRows(Int.min..<Int.max, prefetchDistance: Int.max)
        for _ in 0..<3 { _ = await feed.loadMore() }
        #expect(feed.currentSnapshot.ids == Array(50..<90), "every row protected: over the bound, nothing dropped")
        feed.reportVisibleRows(1_000..<2_000, prefetchDistance: -7) // the last row
        _ = await feed.loadMore()
        #expect(feed.currentSnapshot.ids == Array(70..<100))
    }
}
