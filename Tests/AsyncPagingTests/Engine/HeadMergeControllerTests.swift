import AsyncPaging
import AsyncPagingTesting
import Testing

/// New posts at the head without losing the rest (``RefreshMode/mergeAtHead``), on the test clock.
@Suite("Merge at the head")
struct HeadMergeControllerTests {
    let clock = TestClock()

    func feed(_ source: PostSource, mode: RefreshMode = .mergeAtHead) async -> PostFeed {
        let configuration = try! FeedConfiguration(pageSize: 15, refreshMode: mode)
        let feed = PostFeed(source: source, clock: clock, configuration: configuration)
        await initialLoadEnded(feed)
        return feed
    }

    @Test("a first page that overlaps the list puts only its new posts on top; the rest stays")
    func mergesNewPostsAtTheHead() async {
        let source = PostSource()
        source.enqueue(.page(posts(10..<25), next: 1), .page(posts(25..<40), next: 2), .page(posts(7..<22), next: 1))
        let feed = await feed(source)
        _ = await feed.loadMore()
        let before = feed.currentSnapshot
        let result = await feed.refresh()
        #expect(result == .completed(.refresh, applied: 3, dropped: 12))
        let after = feed.currentSnapshot
        #expect(after.ids == Array(7..<40), "the 30 loaded posts stay below the 3 new ones")
        #expect(after.change == .prepended(0..<3))
        #expect(after.generation == before.generation)
        #expect(await feed.cursors.next == 2, "the end loads on from where it was")
    }

    @Test("a load at the bottom runs on during a head-merging refresh and lands after it")
    func theEndRunsOn() async {
        let source = PostSource()
        source.enqueue(
            .page(posts(10..<25), next: 1, latency: .zero),
            .page(posts(25..<40), next: 2, latency: .seconds(2)),
            .page(posts(8..<23), next: 1, latency: .seconds(1)))
        let feed = await feed(source)
        async let more = feed.loadMore()
        await clock.waitForSleepers(1)
        async let head = feed.refresh()
        await clock.waitForSleepers(2)
        clock.advance(by: .seconds(1))
        #expect(await head == .completed(.refresh, applied: 2, dropped: 13))
        clock.advance(by: .seconds(1))
        #expect(await more == .completed(.loadMore, applied: 15))
        #expect(feed.currentSnapshot.ids == Array(8..<40))
    }

    @Test("a first page that shares no id replaces the list, and a load at the bottom is cancelled then")
    func replacesWithoutOverlap() async {
        let source = PostSource()
        source.enqueue(
            .page(posts(10..<25), next: 1, latency: .zero),
            .page(posts(25..<40), next: 2, latency: .seconds(2), ignoresCancellation: true),
            .page(posts(100..<115), next: 9, latency: .seconds(1)))
        let feed = await feed(source)
        async let more = feed.loadMore()
        await clock.waitForSleepers(1)
        async let head = feed.refresh()
        await clock.waitForSleepers(2)
        clock.advance(by: .seconds(1))
        #expect(await head == .completed(.refresh, applied: 15))
        #expect(await more == LoadResult(side: .loadMore, outcome: .cancelled(.preemptedByRefresh)))
        clock.advance(by: .seconds(1))
        #expect(feed.currentSnapshot.ids == Array(100..<115))
        #expect(feed.currentSnapshot.change == .replaced)
        #expect(await feed.cursors.next == 9)
    }

    @Test("with the default mode, the same overlapping page replaces the list")
    func replaceModeReplaces() async {
        let source = PostSource()
        source.enqueue(.page(posts(10..<25), next: 1), .page(posts(7..<22), next: 1))
        let feed = await feed(source, mode: .replace)
        #expect(await feed.refresh() == .completed(.refresh, applied: 15))
        #expect(feed.currentSnapshot.ids == Array(7..<22))
    }
}
