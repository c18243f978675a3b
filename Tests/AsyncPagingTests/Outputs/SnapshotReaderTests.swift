@testable import AsyncPaging
import AsyncPagingTesting
import Testing

/// `controller.snapshots` is read by a reader that takes the newest list under the
/// broadcaster's lock and waits only when it has had it (FeedBroadcaster+Snapshots.swift): what
/// it leaves behind, and what it returns, whatever the moment a task is cancelled or a list is
/// published.
@Suite("Snapshot readers")
struct SnapshotReaderTests {
    let clock = TestClock()
    let source = PostSource()

    @Test("a cancelled reader, waiting or not, leaves neither a waiter nor a count")
    func cancelledReadersLeaveNothing() async {
        source.enqueue(pageResponse(0, latency: .zero))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration())
        await initialLoadEnded(feed)
        let recorders = (0..<12).map { _ in StreamRecorder(feed.snapshots) }
        for recorder in recorders { #expect(await recorder.waitForCount(1).first?.count == 15) }
        #expect(feed.subscriberCounts.snapshots == 12)
        for recorder in recorders { recorder.cancel() }
        for recorder in recorders { #expect(await recorder.waitForFinish().count == 1) }
        #expect(feed.subscriberCounts.snapshots == 0)
        let broadcaster = await feed.broadcaster
        #expect(broadcaster.state.withLock { $0.snapshotWaiters.count } == 0)
        await feed.close()
    }

    @Test("a reader that asks after several lists were published gets the newest, never one it skipped")
    func readerTakesNewest() async {
        source.enqueue(pageResponse(0, latency: .zero), pageResponse(1, latency: .zero), pageResponse(2, latency: .zero))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration())
        let stream = feed.snapshots // subscribed while the list is empty
        await initialLoadEnded(feed)
        await feed.loadMore()
        var iterator = stream.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first?.count == 30) // the newest, not the empty list of the moment it subscribed
        await feed.loadMore()
        #expect(await iterator.next()?.count == 45)
        await feed.close()
    }

    @Test("after the close: a reader that lacks the last list gets it, then the end; one that has it ends")
    func closeRules() async {
        source.enqueue(pageResponse(0, latency: .zero), pageResponse(1, latency: .zero))
        let feed = PostFeed(source: source, clock: clock, configuration: configuration())
        await initialLoadEnded(feed)
        var behind = feed.snapshots.makeAsyncIterator()
        var current = feed.snapshots.makeAsyncIterator()
        #expect(await behind.next()?.count == 15)
        await feed.loadMore()
        #expect(await current.next()?.count == 30)
        await feed.close()
        #expect(await behind.next()?.count == 30)
        #expect(await behind.next() == nil)
        #expect(await current.next() == nil)
        #expect(await current.next() == nil)
        var late = feed.snapshots.makeAsyncIterator()
        #expect(await late.next()?.count == 30)
        #expect(await late.next() == nil)
        #expect(feed.subscriberCounts.snapshots == 0)
    }
}
