import AsyncPaging
import AsyncPagingTesting
import Testing

/// A server's `Retry-After` (``PageSourceError/retryAfter``) sets the delay before a retry in
/// place of the policy's backoff — shorter or longer, 0 included — capped by the policy's
/// maximum backoff.
@Suite("Retry-After")
struct RetryAfterTests {
    struct Throttled: PageSourceError {
        var retryAfter: Duration?
        var isRetryable: Bool { true }
    }

    struct Plain: Error {}

    let policy = RetryPolicy(maximumAttempts: 3, initialBackoff: .seconds(10), multiplier: 2, maximumBackoff: .seconds(30), jitter: 0.5)

    @Test("Retry-After: 0 shortens the backoff to nothing; a shorter one shortens it")
    func zeroShortens() {
        #expect(policy.delay(beforeRetry: 1, after: Throttled(retryAfter: .zero)) == .zero)
        #expect(policy.delay(beforeRetry: 2, after: Throttled(retryAfter: .seconds(3))) == .seconds(3))
        // No jitter on the server's delay.
        #expect(policy.delay(beforeRetry: 1, after: Throttled(retryAfter: .seconds(3)), randomUnit: 0.9) == .seconds(3))
    }

    @Test("a longer Retry-After lengthens the backoff, up to the maximum backoff")
    func largeIsCapped() {
        #expect(policy.delay(beforeRetry: 1, after: Throttled(retryAfter: .seconds(20))) == .seconds(20))
        #expect(policy.delay(beforeRetry: 1, after: Throttled(retryAfter: .seconds(120))) == .seconds(30))
    }

    @Test("negative, extreme and absent Retry-After values never trap")
    func extremes() {
        #expect(policy.delay(beforeRetry: 1, after: Throttled(retryAfter: .seconds(-5))) == .zero)
        #expect(policy.delay(beforeRetry: 1, after: Throttled(retryAfter: Duration(attoseconds: .min))) == .zero)
        #expect(policy.delay(beforeRetry: 1, after: Throttled(retryAfter: Duration(attoseconds: .max))) == .seconds(30))
        #expect(policy.delay(beforeRetry: 1, after: Throttled(retryAfter: .seconds(Int64.max))) == .seconds(30))
        // A "for ever" maximum: capped at the longest timer delay (about 100 years).
        let forever = RetryPolicy(maximumAttempts: 2, maximumBackoff: .seconds(Int64.max))
        let longest = Duration.seconds(100 * 365 * 24 * 3_600)
        #expect(forever.delay(beforeRetry: 1, after: Throttled(retryAfter: .seconds(Int64.max))) == longest)
        // A policy that FeedConfiguration would refuse still gives a delay that does not trap.
        let negative = RetryPolicy(maximumAttempts: 2, initialBackoff: .seconds(-1), maximumBackoff: .seconds(-1))
        #expect(negative.delay(beforeRetry: 1, after: Throttled(retryAfter: .seconds(4))) == .zero)
        // No advice: the policy's backoff.
        #expect(policy.delay(beforeRetry: 1, after: Throttled(retryAfter: nil)) == .seconds(10))
        #expect(policy.delay(beforeRetry: 2, after: Plain()) == .seconds(20))
    }

    @Test("on the test clock, Retry-After: 0 retries at once although the backoff is 10 s")
    func controllerRetriesAtOnce() async throws {
        let clock = TestClock()
        let source = ScriptedPageSource<Int, Int>()
        source.enqueue(
            .failure(Throttled(retryAfter: .zero)),
            .page([1, 2, 3], next: 4))
        let configuration = try FeedConfiguration(pageSize: 3, loadsInitialPage: false, retry: policy)
        let feed = FeedController<Int, Int>(source: source, clock: clock, configuration: configuration)
        let diagnostics = StreamRecorder(feed.diagnostics)
        let refresh = Task { await feed.refresh() }
        let scheduled = await diagnostics.waitFor { if case .retryScheduled = $0 { true } else { false } }
        guard case .retryScheduled(.refresh, 1, let delay, _) = scheduled else {
            Issue.record("diagnostic: \(String(describing: scheduled))")
            return
        }
        #expect(delay == .zero)
        if delay > .zero { // wrong already: let the retry go rather than wait for ever
            await clock.waitForSleepers(1)
            clock.advance(by: delay)
        }
        #expect(await refresh.value.outcome == .completed(LoadSummary(itemsApplied: 3)))
        #expect(clock.now == TestClock.Instant(offset: .zero))
        #expect(source.requests.count == 2)
        await feed.close()
    }

    @Test("on the test clock, a Retry-After of an hour waits the maximum backoff, 30 s")
    func controllerCapsAtMaximum() async throws {
        let clock = TestClock()
        let source = ScriptedPageSource<Int, Int>()
        source.enqueue(
            .failure(Throttled(retryAfter: .seconds(3_600))),
            .page([1, 2, 3], next: 4))
        let configuration = try FeedConfiguration(pageSize: 3, loadsInitialPage: false, retry: policy)
        let feed = FeedController<Int, Int>(source: source, clock: clock, configuration: configuration)
        let refresh = Task { await feed.refresh() }
        await clock.waitForSleepers(1)
        #expect(clock.pendingDeadlines == [TestClock.Instant(offset: .seconds(30))])
        clock.advance(by: .seconds(30))
        #expect(await refresh.value.outcome == .completed(LoadSummary(itemsApplied: 3)))
        await feed.close()
    }
}
