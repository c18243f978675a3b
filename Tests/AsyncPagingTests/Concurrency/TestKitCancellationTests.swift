import AsyncPaging
import AsyncPagingTesting
import Testing

extension Concurrency {
    /// Issue 11, bug 8: every wait of the test kit ends when its task is cancelled, so that a test
    /// with a wrong expectation fails (by its `.timeLimit`, or here by the stall detector) instead
    /// of hanging the run. Each test cancels a waiting task, once after the wait registered and once
    /// before, and expects the wait to return at once.
    @Suite("Test kit: waits end on cancellation")
    struct TestKitCancellationTests {
        /// Runs `wait` in a task, cancels it once its wait has registered (`registered` tells when)
        /// or, with `cancelFirst`, before it starts; returns what the wait returned, or `nil` if it
        /// did not return within the stall detector's limit.
        func cancelledWait<Value: Sendable>(
            _ name: String, cancelFirst: Bool,
            registered: @escaping @Sendable () -> Bool,
            _ wait: @escaping @Sendable () async -> Value
        ) async -> Value? {
            let detector = StallDetector(name: name, stallLimit: .seconds(5), exitGrace: .seconds(30))
            return await detector.watch {
                let waiter = Task {
                    if cancelFirst { withUnsafeCurrentTask { $0?.cancel() } }
                    return await wait()
                }
                if !cancelFirst {
                    detector.enter("\(name): waiting for the wait to register")
                    await pollUntil(registered)
                    waiter.cancel()
                }
                detector.enter("\(name): waiting for the cancelled wait to return")
                return await waiter.value
            }
        }

        @Test("TestClock.waitForSleepers returns false when cancelled", arguments: [false, true])
        func waitForSleepers(cancelFirst: Bool) async {
            let clock = TestClock()
            let returned = await cancelledWait("waitForSleepers", cancelFirst: cancelFirst, registered: {
                clock.pendingWaitCount == 1
            }) {
                await clock.waitForSleepers(1)
            }
            #expect(returned == false)
            #expect(clock.pendingWaitCount == 0)
            // Not cancelled, it still waits for the sleeper and says so.
            let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
            #expect(await clock.waitForSleepers(1))
            sleeper.cancel()
        }

        @Test("StreamRecorder waits return the values so far when cancelled", arguments: [false, true])
        func recorderWaits(cancelFirst: Bool) async {
            let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
            let recorder = StreamRecorder(stream)
            continuation.yield(1)
            #expect(await recorder.waitForCount(1) == [1])
            let registered: @Sendable () -> Bool = { recorder.pendingWaitCount == 1 }

            #expect(await cancelledWait("waitForCount", cancelFirst: cancelFirst, registered: registered) {
                await recorder.waitForCount(2)
            } == [1])
            #expect(await cancelledWait("waitFor", cancelFirst: cancelFirst, registered: registered) {
                await recorder.waitFor { $0 == 2 }
            } == .some(nil))
            #expect(await cancelledWait("waitForFinish", cancelFirst: cancelFirst, registered: registered) {
                await recorder.waitForFinish()
            } == [1])
            #expect(recorder.pendingWaitCount == 0)
            #expect(!recorder.isFinished)

            continuation.yield(2)
            continuation.finish()
            #expect(await recorder.waitForFinish() == [1, 2])
        }

        @Test("ScriptedPageSource waits return false when cancelled", arguments: [false, true])
        func sourceWaits(cancelFirst: Bool) async {
            let source = ScriptedPageSource<Int, Int>()
            let registered: @Sendable () -> Bool = { source.pendingWaitCount == 1 }
            #expect(await cancelledWait("waitForRequests", cancelFirst: cancelFirst, registered: registered) {
                await source.waitForRequests(1)
            } == false)
            #expect(await cancelledWait("waitForCompletions", cancelFirst: cancelFirst, registered: registered) {
                await source.waitForCompletions(1)
            } == false)
            #expect(source.pendingWaitCount == 0)

            // Not cancelled, they wait for the request and its answer and say so.
            source.enqueue(.page([1], next: nil))
            let feed = FeedController<Int, Int>(source: source, clock: ImmediateClock())
            #expect(await source.waitForRequests(1))
            #expect(await source.waitForCompletions(1))
            await feed.close()
        }
    }
}
