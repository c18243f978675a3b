import AsyncPaging
import AsyncPagingTesting
import Testing

/// Jumps on the test clock: rows reported far past the loaded pages refresh at the target
/// instead of loading every page between, when the source names a cursor for a position.
/// Paging 3's jump cases (`PageFetcherSnapshotTest.jump`, `jump_requiresPagingSourceOptIn`)
/// are named where they are translated.
@Suite("Jumps")
struct JumpTests {
    let clock = TestClock()

    /// A source over `data` and a feed opened at its first page with two more loaded (60 rows).
    func openedFeed(_ data: ChangingData) async -> (PostFeed, PostSource) {
        let source = data.source()
        let feed = PostFeed(source: source, clock: clock, configuration: reloadConfiguration())
        await initialLoadEnded(feed)
        _ = await feed.loadMore()
        _ = await feed.loadMore()
        return (feed, source)
    }

    /// Cursors are page numbers of 20 rows: the page holding data row `first * 20 + row`.
    static func pageOfRow(_ calls: Locked<[JumpTarget<Int>]>? = nil) -> @Sendable (JumpTarget<Int>) -> Int? {
        { target in
            calls?.withLock { $0.append(target) }
            let position = (target.firstPageCursor ?? 0) * 20 + target.row
            return position < 0 ? nil : position / 20
        }
    }

    @Test("Paging 3 PageFetcherSnapshotTest jump: rows far past the list refresh at the target page")
    func jump() async {
        let data = ChangingData()
        let (feed, source) = await openedFeed(data)
        let targets = Locked<[JumpTarget<Int>]>([])
        await feed.setReloadPolicy(ReloadPolicy(jumps: JumpPolicy(threshold: 100, cursor: Self.pageOfRow(targets))))
        let snapshots = StreamRecorder(feed.snapshots)
        feed.reportVisibleRows(5_000..<5_010)
        let jumped = await snapshots.waitFor { $0.generation == 2 }
        #expect(jumped?.ids == Array(5_000..<5_020))
        #expect(jumped?.change == .replaced)
        #expect(source.requests.map(\.cursor) == [nil, 1, 2, 250], "no page between was loaded")
        #expect(targets.withLock { $0 } == [JumpTarget(row: 5_000, itemCount: 60, firstPageCursor: nil, lastPageCursor: 2)])
        #expect(await feed.loadPrevious() == .completed(.loadPrevious, applied: 20), "both ends load on from the target")
        #expect(await feed.loadMore() == .completed(.loadMore, applied: 20))
        #expect(feed.currentSnapshot.ids == Array(4_980..<5_040))
    }

    @Test("Paging 3 PageFetcherSnapshotTest jump_requiresPagingSourceOptIn: without a jump policy, no jump")
    func noJumpWithoutAPolicy() async {
        let data = ChangingData()
        let (feed, source) = await openedFeed(data)
        await feed.setReloadPolicy(ReloadPolicy(refreshCursor: { $0.pageCursor }))
        feed.reportVisibleRows(5_000..<5_010)
        #expect(await feed.loadMore() == .completed(.loadMore, applied: 20), "the end loads the next page")
        #expect(source.requests.map(\.cursor) == [nil, 1, 2, 3])
    }

    @Test("rows within the threshold load the pages between; a jump backwards past the threshold jumps too")
    func threshold() async {
        let data = ChangingData()
        let source = data.source()
        let feed = PostFeed(source: source, clock: clock, configuration: reloadConfiguration(), initialCursor: 300)
        await initialLoadEnded(feed)
        await feed.setReloadPolicy(ReloadPolicy(jumps: JumpPolicy(threshold: 100, cursor: Self.pageOfRow())))
        feed.reportVisibleRows(119..<125) // 100 rows past the last row: no jump
        feed.reportVisibleRows(-100..<(-90))
        #expect(await feed.loadMore() == .completed(.loadMore, applied: 20))
        #expect(source.requests.map(\.cursor) == [300, 301])
        let snapshots = StreamRecorder(feed.snapshots)
        feed.reportVisibleRows(-101..<(-90)) // 101 rows before the first row: a jump to data row 5,899
        let jumped = await snapshots.waitFor { $0.generation == 2 }
        #expect(jumped?.ids == Array(5_880..<5_900))
        #expect(source.requests.map(\.cursor) == [300, 301, 294])
    }

    @Test("a source that names no cursor for the target does not jump")
    func theSourceNamesNoCursor() async {
        let data = ChangingData()
        let (feed, source) = await openedFeed(data)
        let (asked, askedContinuation) = AsyncStream<JumpTarget<Int>>.makeStream()
        await feed.setReloadPolicy(ReloadPolicy(jumps: JumpPolicy(threshold: 10) { target in
            askedContinuation.yield(target)
            return nil
        }))
        feed.reportVisibleRows(1_000..<1_010)
        for await target in asked {
            #expect(target.row == 1_000)
            break
        }
        _ = await feed.cursors // the jump's turn on the controller has ended
        #expect(source.requests.count == 3)
        #expect(feed.currentSnapshot.generation == 1)
    }

    @Test("repeated reports toward one target join the jump in flight; a farther one replaces it")
    func repeatedReports() async {
        let data = ChangingData()
        // The page at the first target never answers: the jump stays in flight.
        let source = PostSource { request in request.cursor == 50 ? .hang : .page(data.page(request.cursor)) }
        let feed = PostFeed(source: source, clock: clock, configuration: reloadConfiguration())
        await initialLoadEnded(feed)
        let (asked, askedContinuation) = AsyncStream<Int>.makeStream()
        let pageOfRow = Self.pageOfRow()
        await feed.setReloadPolicy(ReloadPolicy(jumps: JumpPolicy(threshold: 50) { target in
            askedContinuation.yield(target.row)
            return pageOfRow(target)
        }))
        var rows = asked.makeAsyncIterator()
        let snapshots = StreamRecorder(feed.snapshots)
        feed.reportVisibleRows(1_000..<1_010)
        #expect(await rows.next() == 1_000)
        #expect(await source.waitForRequests(2))
        feed.reportVisibleRows(1_005..<1_015) // page 50 again: joined
        #expect(await rows.next() == 1_005)
        _ = await feed.cursors // that report's turn on the controller has ended
        #expect(source.requests.count == 2)
        feed.reportVisibleRows(2_000..<2_010) // page 100: replaces the jump in flight
        #expect(await rows.next() == 2_000)
        let jumped = await snapshots.waitFor { $0.generation == 2 }
        #expect(jumped?.ids == Array(2_000..<2_020))
        #expect(source.requests.map(\.cursor) == [nil, 50, 100])
    }
}
