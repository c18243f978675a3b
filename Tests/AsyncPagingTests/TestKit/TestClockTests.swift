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
}
