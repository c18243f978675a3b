import AsyncPaging
import AsyncPagingTesting
import Synchronization
import Testing

/// A head merge (``RefreshMode/mergeAtHead``) on a bounded feed (``FeedConfiguration/maximumItems``),
/// on the test clock: the bound keeps working after the merge, and the list exports.
@Suite("Head merge with the bound")
struct HeadMergeWithBoundTests {
    let clock = TestClock()

    /// Pages of two posts: page `c` holds posts `2c, 2c + 1`, names `c - 1` before it (none
    /// before page 0) and `c + 1` after it (none after `lastPage`). The first page of the
    /// data (cursor `nil`) is page 0 the first time and, from the second time on, has the new
    /// posts `newPosts` on top of it.
    static func source(newPosts: [Int], lastPage: Int = 1_000, headNext: Bool = true) -> PostSource {
        let topRequests = Mutex(0)
        return PostSource { request in
            guard let cursor = request.cursor else {
                let isFirst = topRequests.withLock { count in
                    count += 1
                    return count == 1
                }
                let items = (isFirst ? [] : newPosts.map(Post.init(id:))) + posts(0..<2)
                return .page(Page(items: items, previous: nil, next: headNext || isFirst ? 1 : nil), latency: .zero)
            }
            let page = Page(
                items: posts(cursor * 2..<cursor * 2 + 2), previous: cursor - 1,
                next: cursor < lastPage ? cursor + 1 : nil)
            return .page(page, latency: .zero)
        }
    }

    func feed(_ source: PostSource, maximumItems: Int) async throws -> PostFeed {
        let configuration = try FeedConfiguration(pageSize: 2, refreshMode: .mergeAtHead, maximumItems: maximumItems)
        let feed = PostFeed(source: source, clock: clock, configuration: configuration)
        await initialLoadEnded(feed)
        return feed
    }

    @Test("after a refresh that merges new posts, loading more drops pages at the start again")
    func boundHoldsAfterHeadMerge() async throws {
        let feed = try await feed(Self.source(newPosts: [200]), maximumItems: 4)
        let diagnostics = StreamRecorder(feed.diagnostics)
        #expect(await feed.refresh() == .completed(.refresh, applied: 1, dropped: 2))
        #expect(feed.currentSnapshot.ids == [200, 0, 1])
        for _ in 0..<50 {
            #expect(await feed.loadMore().outcome == .completed(LoadSummary(itemsApplied: 2)))
            #expect(feed.currentSnapshot.count <= 4, "the bound holds after the merge")
        }
        #expect(feed.currentSnapshot.ids == [98, 99, 100, 101])
        await feed.close()
        let kept = diagnostics.values.filter {
            if case .pagesKeptOverBound = $0 { true } else { false }
        }
        #expect(kept.isEmpty, "every load-more page names the cursor back: nothing is kept over the bound")
    }

    @Test("the first page, merged posts and all, comes back from the start after the bound dropped it")
    func mergedHeadReloads() async throws {
        let feed = try await feed(Self.source(newPosts: [200, 201]), maximumItems: 6)
        _ = await feed.loadMore()
        _ = await feed.refresh()
        #expect(feed.currentSnapshot.ids == [200, 201, 0, 1, 2, 3])
        _ = await feed.loadMore()
        #expect(feed.currentSnapshot.ids == [2, 3, 4, 5], "the merged first page went as one page")
        #expect(await feed.cursors.previous == 0)
        _ = await feed.loadPrevious()
        #expect(feed.currentSnapshot.ids == [0, 1, 2, 3, 4, 5], "page 0 again, from the cursor the second page names")
    }

    @Test("a bounded feed exports after a head merge whose page names no next; the state restores")
    func exportAfterMergeWithoutNext() async throws {
        let feed = try await feed(Self.source(newPosts: [200], headNext: false), maximumItems: 40)
        _ = await feed.loadMore()
        _ = await feed.refresh()
        #expect(feed.currentSnapshot.ids == [200, 0, 1, 2, 3])
        let state = try #require(try await feed.exportState(savedBy: clock))
        #expect(state.items.map(\.id) == [200, 0, 1, 2, 3])
        #expect(state.pages.count == 2)
        #expect(state.pages[0].next == 1, "the head keeps the cursor to the second page")
        let configuration = try FeedConfiguration(pageSize: 2, refreshMode: .mergeAtHead, maximumItems: 40)
        let restored = PostFeed(
            source: Self.source(newPosts: []), clock: clock, configuration: configuration,
            restoring: state, restorePolicy: .never)
        #expect(restored.currentSnapshot.ids == [200, 0, 1, 2, 3])
        #expect(await restored.loadMore().outcome == .completed(LoadSummary(itemsApplied: 2)))
        #expect(restored.currentSnapshot.ids == [200, 0, 1, 2, 3, 4, 5])
    }
}

/// Export of a bounded list whose source's two cursors disagree, on the test clock: the state
/// names the cursors the pages were fetched with, so it exports and restores as the live list.
@Suite("Export when a source's cursors disagree")
struct ExportWithDisagreeingCursorsTests {
    let clock = TestClock()

    @Test("a page loaded at the start that names no next exports, restores and reloads through its cursor")
    func startPageWithoutNext() async throws {
        let source = PostSource()
        let configuration = try FeedConfiguration(pageSize: 3, loadsInitialPage: false, maximumItems: 100)
        let feed = PostFeed(source: source, clock: clock, configuration: configuration)
        source.enqueue(.page(Page(items: posts(15..<18), previous: 4, next: 6)))
        _ = await feed.refresh(from: 5)
        source.enqueue(.page(Page(items: posts(12..<15), previous: 3, next: nil)))
        #expect(await feed.loadPrevious().outcome == .completed(LoadSummary(itemsApplied: 3)))
        let state = try #require(try await feed.exportState(savedBy: clock))
        #expect(state.items.map(\.id) == Array(12..<18))
        #expect(state.pages.map(\.next) == [5, 6], "the first page names the cursor that fetched the second")
        #expect(state.pages.map(\.previous) == [3, 4])
        let restored = PostFeed(source: source, clock: clock, configuration: configuration, restoring: state, restorePolicy: .never)
        #expect(restored.currentSnapshot.ids == Array(12..<18))
        #expect(await restored.cursors == FeedCursors(previous: 3, next: 6, reachedEnd: false, reachedStart: false))
    }

    @Test("two pages that name the same next export with the cursors that fetched them")
    func twoPagesNameOneNext() async throws {
        let source = PostSource()
        let configuration = try FeedConfiguration(pageSize: 3, loadsInitialPage: false, maximumItems: 100)
        let feed = PostFeed(source: source, clock: clock, configuration: configuration)
        source.enqueue(.page(Page(items: posts(15..<18), previous: 4, next: 6)))
        _ = await feed.refresh(from: 5)
        source.enqueue(.page(Page(items: posts(12..<15), previous: 3, next: 6)))
        _ = await feed.loadPrevious()
        let state = try #require(try await feed.exportState(savedBy: clock))
        #expect(state.pages.map(\.next) == [5, 6])
        #expect(state.items.map(\.id) == Array(12..<18))
    }
}
