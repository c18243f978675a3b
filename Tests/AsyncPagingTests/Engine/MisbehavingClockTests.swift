import AsyncPaging
import AsyncPagingTesting
import Testing

/// A clock whose `sleep` throws at once, without being cancelled: a broken clock.
struct FailingClock: Clock {
    struct Broken: Error, CustomStringConvertible {
        var description: String { "the clock is broken" }
    }

    var now: ContinuousClock.Instant { ContinuousClock().now }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
        throw Broken()
    }
}

/// Issue 11, bug 4: a clock whose sleep throws without being cancelled left the load running for
/// ever (the timer took any error for cancellation). Before the fix, each of these calls never
/// returned.
@Suite("A clock that misbehaves")
struct MisbehavingClockTests {
    let failure = FeedError.clockFailed("the clock is broken")

    @Test("a timeout on a failing clock ends the load as clockFailed")
    func timeoutOnAFailingClock() async {
        // A source that hangs without touching the clock, until its task is cancelled: only the
        // timeout could end this load.
        let feed = PostFeed(
            clock: FailingClock(), configuration: configuration(loadsInitialPage: false, timeout: .seconds(5))
        ) { _ in
            let (never, continuation) = AsyncStream.makeStream(of: Int.self)
            for await _ in never {}
            withExtendedLifetime(continuation) {}
            throw CancellationError()
        }
        let result = await feed.refresh()
        #expect(result == LoadResult(side: .refresh, outcome: .failed(FeedFailure(error: failure, side: .refresh, attempt: 1))))
        #expect(feed.currentStatus == .failed(FeedFailure(error: failure, side: .refresh, attempt: 1)))
        await feed.close()
    }

    @Test("a retry backoff on a failing clock ends the load as clockFailed")
    func backoffOnAFailingClock() async {
        let source = PostSource()
        source.enqueue(.failure(ServerError(code: 503), latency: .zero))
        let feed = PostFeed(
            source: source, clock: FailingClock(),
            configuration: configuration(loadsInitialPage: false, retry: RetryPolicy(maximumAttempts: 3)))
        let result = await feed.refresh()
        #expect(result == LoadResult(side: .refresh, outcome: .failed(FeedFailure(error: failure, side: .refresh, attempt: 1))))
        #expect(source.requests.count == 1)
        await feed.close()
    }
}
