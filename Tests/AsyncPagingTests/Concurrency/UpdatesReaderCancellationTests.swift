@testable import AsyncPaging
import Testing

extension Concurrency {
    /// `FeedController.updates` under real threads: readers that wait in the caller's isolation
    /// (the main actor, another actor, none), cancelled while the controller publishes as fast as
    /// it can. A cancelled reader's cancellation handler takes the broadcaster's lock while
    /// `Task.cancel()` holds the reader task's own; nothing may resume a reader under that lock,
    /// or the two would deadlock. A reader that is never resumed hangs its `await reader.value`:
    /// the stall detector turns either into a failure with the counts so far.
    ///
    /// One task publishes (`refresh()` then five `loadMore()`s, again and again, from a source
    /// that answers at once); three readers follow the whole run, each in another isolation,
    /// checking that versions never go back and that no update is handed twice; the test itself
    /// starts readers and cancels them — at once, after a short sleep, after a hop through an
    /// actor, or once the reader has its first update (so it waits, or is about to) — for `ASYNCPAGING_CANCEL_SECONDS` (default 2). Then
    /// it closes the feed: every reader must end with the last update, and no waiter be left.
    @Suite("Update readers cancelled while the controller publishes", .serialized)
    struct UpdatesReaderCancellationTests {
        /// Counters owned by the test, readable by the stall detector's thread.
        final class Counts: Sendable {
            private let state = Locked((cancellations: 0, publishingRounds: 0, updatesRead: 0))
            func cancelled() { state.withLock { $0.cancellations += 1 } }
            func published() { state.withLock { $0.publishingRounds += 1 } }
            func read() { state.withLock { $0.updatesRead += 1 } }
            var summary: String {
                state.withLock {
                    "\($0.cancellations) reader cancellations, \($0.publishingRounds) publishing rounds, \($0.updatesRead) updates read by the long readers"
                }
            }
        }

        /// What one reader saw.
        struct Reading: Sendable {
            var updates = 0
            var last: FeedUpdate<Int>?
            var problems: [String] = []
        }

        /// Set by a reader once it has its first update (its next `next()` waits, or soon will).
        final class Flag: Sendable {
            private let state = Locked(false)
            func set() { state.withLock { $0 = true } }
            var isSet: Bool { state.withLock { $0 } }
        }

        /// A hop through another actor, and an actor to read on.
        actor Host {
            func touch() {}

            func read(_ updates: FeedUpdates<Int>, counts: Counts?, detector: StallDetector, first: Flag? = nil) async -> Reading {
                await UpdatesReaderCancellationTests.readAll(updates, counts: counts, detector: detector, first: first)
            }
        }

        @MainActor
        static func readOnMain(_ updates: FeedUpdates<Int>, counts: Counts?, detector: StallDetector, first: Flag? = nil) async -> Reading {
            await readAll(updates, counts: counts, detector: detector, first: first)
        }

        /// Reads until the iteration ends, in the caller's isolation, checking every update.
        static func readAll(
            _ updates: FeedUpdates<Int>, counts: Counts?, detector: StallDetector, first: Flag? = nil,
            isolation: isolated (any Actor)? = #isolation
        ) async -> Reading {
            var reading = Reading()
            for await update in updates {
                if let last = reading.last {
                    if update.snapshot.version < last.snapshot.version {
                        reading.problems.append("version went back: \(last) then \(update)")
                    }
                    if update.snapshot.version == last.snapshot.version && update.status == last.status
                        && update.loadStates == last.loadStates {
                        reading.problems.append("the same update twice: \(update)")
                    }
                }
                reading.last = update
                reading.updates += 1
                first?.set()
                if let counts {
                    counts.read()
                    detector.progress()
                }
            }
            return reading
        }

        @Test("cancelling waiting update readers never deadlocks or strands them")
        func cancelReadersWhilePublishing() async {
            let configuration = try! FeedConfiguration(pageSize: 5, loadsInitialPage: false, duplicates: .keep)
            let feed = FeedController<Int, Int>(clock: ContinuousClock(), configuration: configuration) { request in
                let first = (request.cursor ?? 0) * 5
                return Page(items: Array(first..<first + 5), next: (request.cursor ?? 0) + 1)
            }
            let counts = Counts()
            let detector = StallDetector(name: "cancel update readers while publishing")
            detector.details { "so far: \(counts.summary)" }
            let duration = ConcurrencySettings.cancellationRaceDuration
            let updates = feed.updates
            let problems = await detector.watch { () -> [String] in
                let deadline = ContinuousClock.now.advanced(by: duration)
                let host = Host()
                detector.enter("starting the long readers")
                let longReaders = [
                    Task { await Self.readOnMain(updates, counts: counts, detector: detector) },
                    Task { await host.read(updates, counts: counts, detector: detector) },
                    Task.detached { await Self.readAll(updates, counts: counts, detector: detector) },
                ]
                detector.enter("publishing and cancelling update readers")
                let publisher = Task {
                    while ContinuousClock.now < deadline {
                        await feed.refresh()
                        for _ in 0..<5 { await feed.loadMore() }
                        counts.published()
                        detector.progress()
                    }
                }
                var problems: [String] = []
                var round = 0
                while ContinuousClock.now < deadline {
                    let first = Flag()
                    let reader: Task<Reading, Never> = switch round % 3 {
                    case 0: Task { await Self.readOnMain(updates, counts: nil, detector: detector, first: first) }
                    case 1: Task { await host.read(updates, counts: nil, detector: detector, first: first) }
                    default: Task.detached { await Self.readAll(updates, counts: nil, detector: detector, first: first) }
                    }
                    switch round % 4 {
                    case 1: try? await ContinuousClock().sleep(for: .microseconds(1))
                    case 2: await host.touch()
                    case 3: await pollUntil(every: .microseconds(20)) { first.isSet || ContinuousClock.now >= deadline }
                    default: break // cancel at once
                    }
                    reader.cancel()
                    problems += await reader.value.problems // a stranded reader never gets here
                    counts.cancelled()
                    detector.progress()
                    round += 1
                }
                detector.enter("waiting for the publisher to stop")
                await publisher.value
                detector.enter("closing: every long reader must end")
                await feed.close()
                for reader in longReaders {
                    let reading = await reader.value
                    problems += reading.problems
                    if reading.last?.status != .closed {
                        problems.append("a long reader ended without the last update: \(String(describing: reading.last))")
                    }
                    if reading.updates < 2 { problems.append("a long reader read \(reading.updates) updates") }
                }
                return problems
            }
            #expect(problems == [])
            #expect(feed.updates.waitingReaders == 0)
            print("updates: \(counts.summary) in \(duration)")
        }
    }
}
