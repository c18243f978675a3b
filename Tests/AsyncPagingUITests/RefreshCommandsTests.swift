import AsyncPaging
import AsyncPagingTesting
import AsyncPagingUI
import Testing

@Suite("Status binding: a controller's commands")
struct RefreshCommandsTests {
    @Test func aFeedsLoadsBecomeCommandsInOrder() async {
        let (feed, _, clock) = makeController(
            page(0..<15, next: 1, latency: .seconds(2)),
            page(15..<30, next: nil, latency: .seconds(2)),
            page(100..<115, next: 1, latency: .seconds(2)),
            configuration: configuration())
        let commands = StreamRecorder(feed.refreshCommands)
        // The initial load was under way before the subscription: its begin is replayed.
        #expect(await commands.waitForCount(1) == [.beginHeaderRefresh])

        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        #expect(await commands.waitForCount(2) == [.beginHeaderRefresh, .endHeaderRefresh])

        feed.send(.loadMore)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        #expect(await commands.waitForCount(5) == [
            .beginHeaderRefresh, .endHeaderRefresh,
            .beginFooterRefresh, .endFooterRefresh, .noMoreData,
        ])

        feed.send(.refresh)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        #expect(await commands.waitForCount(8) == [
            .beginHeaderRefresh, .endHeaderRefresh,
            .beginFooterRefresh, .endFooterRefresh, .noMoreData,
            .beginHeaderRefresh, .endHeaderRefresh, .resetNoMoreData,
        ])

        await feed.close()
        #expect(await commands.waitForFinish().count == 8)
    }

    @Test func aFooterPullThatCancelsTheRefreshEndsBothControls() async {
        let (feed, source, clock) = makeController(
            page(0..<15, next: 1),
            page(100..<115, next: 1, latency: .seconds(2)),
            page(15..<30, next: 2, latency: .seconds(2)),
            configuration: configuration())
        let statuses = StreamRecorder(feed.statuses)
        await statuses.waitFor { $0 == .idle }
        let commands = StreamRecorder(feed.refreshCommands)
        feed.send(.refresh)
        feed.send(.loadMore)
        // The refresh's fetch is cancelled before the load-more's starts: once the load-more
        // has asked the source, the only sleeper left to wait for is its own.
        await source.waitForRequests(3)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        #expect(await commands.waitForCount(4) == [
            .beginHeaderRefresh, .endHeaderRefresh, .beginFooterRefresh, .endFooterRefresh,
        ])
    }

    @Test func aSubscriberThatJoinsAtTheEndOfTheDataStartsWithNoMoreData() async {
        let (feed, _, _) = makeController(page(0..<5, next: nil))
        let statuses = StreamRecorder(feed.statuses)
        await statuses.waitFor { $0 == .endOfData }
        let commands = StreamRecorder(feed.refreshCommands)
        #expect(await commands.waitForCount(1) == [.noMoreData])
        await feed.close()
        #expect(await commands.waitForFinish() == [.noMoreData])
    }

    @Test func closingEndsTheLoadThenFinishes() async {
        let (feed, source, _) = makeController(.hang)
        let commands = StreamRecorder(feed.refreshCommands)
        await source.waitForRequests(1)
        await feed.close()
        #expect(await commands.waitForFinish() == [.beginHeaderRefresh, .endHeaderRefresh])
    }

    @Test @MainActor func bindPerformsEveryCommandUntilTheControllerCloses() async {
        let (feed, _, clock) = makeController(page(0..<5, next: nil, latency: .seconds(1)))
        let controls = RecordingControls()
        let commands = feed.refreshCommands
        let binding = Task { await commands.bind(to: controls) }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        let statuses = StreamRecorder(feed.statuses)
        await statuses.waitFor { $0 == .endOfData }
        await feed.close()
        await binding.value
        #expect(controls.performed == [.beginHeaderRefresh, .endHeaderRefresh, .noMoreData])
    }
}

/// Refresh controls that remember what they were told.
@MainActor
final class RecordingControls: RefreshControlling {
    private(set) var performed: [RefreshCommand] = []

    func perform(_ command: RefreshCommand) {
        performed.append(command)
    }
}
