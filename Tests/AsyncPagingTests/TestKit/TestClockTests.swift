import AsyncPaging
import AsyncPagingTesting
import Testing

@Suite("TestClock")
struct TestClockTests {
    @Test func advanceWakesDueSleepersInDeadlineOrder() async throws {
        let clock = TestClock()
        let order = StreamRecorder(AsyncStream<Int> { continuation in
            for (index, delay) in [3, 1, 2].enumerated() {
                Task {
                    try await clock.sleep(for: .seconds(delay))
                    continuation.yield(index)
                }
            }
        })
        await clock.waitForSleepers(3)
        #expect(clock.pendingDeadlines.map(\.offset) == [.seconds(1), .seconds(2), .seconds(3)])
        clock.advance(by: .seconds(1))
        #expect(await order.waitForCount(1) == [1])
        #expect(clock.sleeperCount == 2)
        clock.advance(to: .init(offset: .seconds(10)))
        #expect(clock.now.offset == .seconds(10))
        #expect(Set(await order.waitForCount(3)) == [0, 1, 2])
    }

    @Test func aDeadlineInThePastReturnsAtOnce() async throws {
        let clock = TestClock()
        clock.advance(by: .seconds(5))
        try await clock.sleep(until: .init(offset: .seconds(5)))
        try await clock.sleep(for: .zero)
        #expect(clock.sleeperCount == 0)
    }

    @Test func cancellingASleeperRemovesItAndThrows() async {
        let clock = TestClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
        await clock.waitForSleepers(1)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func aCancelBeforeTheSleepRegistersThrowsToo() async {
        let clock = TestClock()
        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func runAdvancesThroughEverySleeper() async {
        let clock = TestClock()
        let done = StreamRecorder(AsyncStream<Int> { continuation in
            for delay in [5, 7] {
                Task {
                    try? await clock.sleep(for: .seconds(delay))
                    continuation.yield(delay)
                }
            }
        })
        await clock.waitForSleepers(2)
        clock.run()
        #expect(clock.now.offset == .seconds(7))
        #expect(Set(await done.waitForCount(2)) == [5, 7])
    }

    @Test func immediateClockMovesTimeWithoutWaiting() async throws {
        let clock = ImmediateClock()
        try await clock.sleep(for: .seconds(30))
        #expect(clock.now.offset == .seconds(30))
    }

    /// The end of `Duration`'s range, where the test kit's clocks saturate.
    static let end = Duration(attoseconds: .max)

    @Test("advance(by: .seconds(Int64.max)) saturates, any number of times (it trapped after about 19)")
    func advanceByTheLargestDurationSaturates() {
        let clock = TestClock()
        for _ in 0..<100 { clock.advance(by: .seconds(Int64.max)) }
        #expect(clock.now.offset == Self.end)
        clock.advance(by: Duration(attoseconds: .max))
        clock.advance(to: .init(offset: Self.end))
        #expect(clock.now.offset == Self.end)
    }

    @Test("a negative advance(by:) changes nothing; an advance(to:) into the past neither")
    func aClockDoesNotGoBack() {
        let clock = TestClock(now: .init(offset: .seconds(10)))
        clock.advance(by: .seconds(-3))
        clock.advance(by: Duration(attoseconds: .min))
        clock.advance(to: .init(offset: Duration(attoseconds: .min)))
        #expect(clock.now.offset == .seconds(10))
    }

    @Test("instant arithmetic saturates at both ends")
    func instantArithmeticSaturates() {
        let late = TestClock.Instant(offset: .seconds(Int64.max))
        #expect(late.advanced(by: Self.end).offset == Self.end)
        let early = TestClock.Instant(offset: .seconds(Int64.min))
        #expect(early.advanced(by: Duration(attoseconds: .min)).offset == Duration(attoseconds: .min))
        #expect(early.duration(to: TestClock.Instant(offset: Self.end)) == Self.end)
        #expect(TestClock.Instant(offset: Self.end).duration(to: early) == Duration(attoseconds: .min))
        #expect(early.duration(to: late) == .seconds(Int64.max) - .seconds(Int64.min))
        #expect(!TestClock.Instant(offset: Self.end).description.isEmpty)
    }

    @Test("a sleep of any length registers; one past the end of time wakes there")
    func sleepsOfAnyLength() async throws {
        let clock = TestClock()
        clock.advance(by: .seconds(Int64.max))
        let sleeper = Task { try await clock.sleep(for: Self.end) }
        await clock.waitForSleepers(1)
        #expect(clock.pendingDeadlines == [TestClock.Instant(offset: Self.end)])
        clock.advance(by: Self.end)
        try await sleeper.value
        #expect(clock.now.offset == Self.end)
        // At the end of time every sleep is due at once.
        try await clock.sleep(for: .seconds(1))
        try await clock.sleep(until: .init(offset: Self.end))
    }

    @Test("ImmediateClock: sleeps of any length saturate")
    func immediateClockSaturates() async throws {
        let clock = ImmediateClock()
        for _ in 0..<100 { try await clock.sleep(for: .seconds(Int64.max)) }
        #expect(clock.now.offset == Self.end)
        try await clock.sleep(for: .seconds(-5))
        #expect(clock.now.offset == Self.end)
    }

    @Test("ScriptedPageSource: a latency beyond 100 years on a real clock sleeps instead of trapping, and is cancelled")
    func hugeLatencyOnARealClock() async {
        let source = ScriptedPageSource<Int, Int>()
        source.enqueue(.page([1], next: nil, latency: .seconds(Int64.max)))
        let request = PageRequest<Int>(cursor: nil, side: .refresh, pageSize: 1, clock: ContinuousClock())
        let fetch = Task { try await source.page(for: request) }
        await source.waitForRequests(1)
        fetch.cancel()
        await #expect(throws: CancellationError.self) { try await fetch.value }
    }

    @Test("ScriptedPageSource: a huge latency on the test clock sleeps about 100 years")
    func hugeLatencyOnTheTestClock() async throws {
        let clock = TestClock()
        let source = ScriptedPageSource<Int, Int>()
        source.enqueue(.page([1], next: nil, latency: Duration(attoseconds: .max)))
        let fetch = Task { try await source.page(for: PageRequest<Int>(cursor: nil, side: .refresh, pageSize: 1, clock: clock)) }
        await clock.waitForSleepers(1)
        #expect(clock.pendingDeadlines == [TestClock.Instant(offset: .seconds(100 * 365 * 24 * 3_600))])
        clock.advance(by: Self.end)
        #expect(try await fetch.value.items == [1])
    }
}
