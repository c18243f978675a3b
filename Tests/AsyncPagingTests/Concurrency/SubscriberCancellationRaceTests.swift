import AsyncPaging
import Testing

extension Concurrency {
    /// Issue 11, bug 1: a subscriber whose task is cancelled while the controller publishes must
    /// never deadlock the controller. `Task.cancel()` runs the stream's `onTermination` while it
    /// holds the task's own lock; a broadcaster that yields to streams while holding its lock, and
    /// whose `onTermination` takes that lock, can deadlock against it.
    ///
    /// One task publishes as fast as it can (a source that answers at once; `refresh()` then five
    /// `loadMore()`s, again and again); another starts a reader task on one output, sometimes lets
    /// it run a little, cancels it and waits for it, again and again, for
    /// `ASYNCPAGING_CANCEL_SECONDS` (default 2) per output. A deadlock blocks both threads of a
    /// 2-core machine's cooperative pool: the stall detector then reports the number of
    /// cancellations it got to and ends the process.
    @Suite("Subscribers cancelled while the controller publishes", .serialized)
    struct SubscriberCancellationRaceTests {
        enum Output: String, CaseIterable, Sendable {
            case statuses, snapshots, events
        }

        /// Counters owned by the test, readable by the stall detector's thread.
        final class Counts: Sendable {
            private let state = Locked((cancellations: 0, publishingRounds: 0))
            func cancelled() { state.withLock { $0.cancellations += 1 } }
            func published() { state.withLock { $0.publishingRounds += 1 } }
            var cancellations: Int { state.withLock { $0.cancellations } }
            var publishingRounds: Int { state.withLock { $0.publishingRounds } }
        }

        /// A hop through another actor: a suspension point that is not a sleep.
        actor Hop {
            func touch() {}
        }

        @Test("cancelling readers never deadlocks the publisher", arguments: Output.allCases)
        func cancelReadersWhilePublishing(output: Output) async {
            let configuration = try! FeedConfiguration(pageSize: 5, loadsInitialPage: false, duplicates: .keep)
            let feed = FeedController<Int, Int>(clock: ContinuousClock(), configuration: configuration) { request in
                let first = (request.cursor ?? 0) * 5
                return Page(items: Array(first..<first + 5), next: (request.cursor ?? 0) + 1)
            }
            let counts = Counts()
            let detector = StallDetector(name: "cancel \(output) readers while publishing")
            detector.details {
                "cancellations of \(output) readers so far: \(counts.cancellations); publishing rounds: \(counts.publishingRounds)"
            }
            let duration = ConcurrencySettings.cancellationRaceDuration
            let finished = await detector.watch {
                let deadline = ContinuousClock.now.advanced(by: duration)
                detector.enter("publishing and cancelling \(output) readers")
                let publisher = Task {
                    while ContinuousClock.now < deadline {
                        await feed.refresh()
                        for _ in 0..<5 { await feed.loadMore() }
                        counts.published()
                        detector.progress()
                    }
                }
                let hop = Hop()
                var round = 0
                while ContinuousClock.now < deadline {
                    let reader = switch output {
                    case .statuses: Task { for await _ in feed.statuses {} }
                    case .snapshots: Task { for await _ in feed.snapshots {} }
                    case .events: Task { for await _ in feed.events {} }
                    }
                    switch round % 4 {
                    case 1: try? await ContinuousClock().sleep(for: .microseconds(1))
                    case 2: await hop.touch()
                    default: break // cancel at once
                    }
                    reader.cancel()
                    await reader.value
                    counts.cancelled()
                    detector.progress()
                    round += 1
                }
                detector.enter("waiting for the publisher to stop")
                await publisher.value
                detector.enter("closing")
                await feed.close()
                return true
            }
            #expect(finished == true)
            #expect(feed.subscriberCounts == (0, 0, 0))
            print("\(output): \(counts.cancellations) reader cancellations, \(counts.publishingRounds) publishing rounds in \(duration)")
        }
    }
}
