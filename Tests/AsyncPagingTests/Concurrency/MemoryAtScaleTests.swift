import AsyncPaging
import AsyncPagingTesting
import Foundation
import Testing

extension Concurrency {
    /// Memory at scale, measured as the heap in use (``MemoryUsage``). Each test runs in a
    /// process of its own (an exit test), so that no other test allocates while it measures; the
    /// child prints its figures and a verdict line, which the test reads (a crash of the child
    /// fails the exit test itself).
    @Suite("Memory at scale", .serialized, .disabled(if: MemoryUsage.allocatorIsReplaced, "a sanitizer replaced the allocator"))
    struct MemoryAtScaleTests {
        /// Prints the child's figures, and records an issue with them unless its verdict passed.
        ///
        /// The child writes them to a file named after the parent's pid rather than standard
        /// output: reading a child's output back blocks a thread of the cooperative pool, and
        /// on 2 cores that starves the other real-clock tests for as long as the child runs.
        func report(_ result: ExitTest.Result?, _ name: String) {
            let path = Self.notePath(parent: getpid())
            defer { unlink(path) }
            let output = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            print(output, terminator: "")
            guard result != nil else { return } // the child crashed: the exit test failed already
            if !output.contains("verdict: passed") {
                Issue.record("\(name): memory kept growing:\n\(output)")
            }
        }

        static func notePath(parent: pid_t) -> String {
            FileManager.default.temporaryDirectory.appendingPathComponent("asyncpaging-memory-\(parent)").path
        }

        /// In the measuring child: writes `line` for the parent (see ``report(_:_:)``).
        static func say(_ line: String) {
            let file = open(notePath(parent: getppid()), O_CREAT | O_APPEND | O_WRONLY, 0o600)
            guard file >= 0 else { return }
            let bytes = Array((line + "\n").utf8)
            _ = bytes.withUnsafeBytes { write(file, $0.baseAddress, bytes.count) }
            close(file)
        }

        /// Ends the measuring child: writes the verdict, exits 0 (see ``report(_:_:)``).
        static func verdict(_ passed: Bool) -> Never {
            say(passed ? "verdict: passed" : "verdict: FAILED")
            exit(0)
        }

        /// Issue 11, bug 2: with the fan-out task at work (more than 8 snapshot readers, waiting),
        /// 100,000 subscribers join and leave; the broadcaster's bookkeeping must not keep an
        /// entry for each.
        @Test("snapshot subscribers joining and leaving in fan-out mode leave nothing behind")
        func fanOutJoinsAndLeaves() async {
            let result = await #expect(processExitsWith: .success) {
                let feed = FeedController<Int, Int>(
                    clock: ContinuousClock(),
                    configuration: try! FeedConfiguration(pageSize: 3, loadsInitialPage: false, duplicates: .keep)
                ) { request in
                    let first = (request.cursor ?? 0) * 3
                    return Page(items: Array(first..<first + 3), next: (request.cursor ?? 0) + 1)
                }
                // Nine readers that wait: beyond 8 readers, each page's wake-ups go through the fan-out task.
                let stayers = (0..<9).map { _ in
                    let snapshots = feed.snapshots
                    return Task { for await _ in snapshots {} }
                }
                await feed.refresh()
                var figures: [(joins: Int, heap: Int)] = []
                for join in 1...100_000 {
                    withExtendedLifetime(feed.snapshots) {} // joins, and leaves unread
                    if join % 1_000 == 0 { await feed.loadMore() } // rounds of the fan-out task in between
                    if [10_000, 50_000, 100_000].contains(join), let heap = await MemoryUsage.settledHeapInUse() {
                        figures.append((join, heap))
                    }
                }
                await feed.close()
                for stayer in stayers { await stayer.value } // the close ends them
                for (joins, heap) in figures { MemoryAtScaleTests.say("fan-out joins and leaves: \(joins): heap in use \(MemoryUsage.megabytes(heap))") }
                guard let first = figures.first, let last = figures.last else { MemoryAtScaleTests.verdict(true) } // no figures here
                let growth = last.heap - first.heap
                MemoryAtScaleTests.say("fan-out joins and leaves: growth from 10,000 to 100,000: \(growth) bytes")
                // A leaked entry per subscriber (about 33 bytes) would add about 3 MB here.
                MemoryAtScaleTests.verdict(growth < 256 * 1024)
            }
            report(result, "fan-out joins and leaves")
        }

        /// Controllers created and dropped with loads in flight, iterating subscribers,
        /// retry backoffs and timeouts: each is freed with everything it started, and the heap
        /// grows no faster than in a control run that does the same waiting and cancelling without
        /// a controller (the Swift runtime itself keeps about 15 bytes per cancelled suspended task
        /// in this measurement; see ``LifetimeCycle``). 30,000 cycles in `swift test`, 100,000 in
        /// `scripts/soak.sh` (`ASYNCPAGING_LIFETIME_CYCLES`).
        @Test("controllers dropped by the ten thousand with work in flight: memory flattens")
        func createAndDropAtScale() async {
            let result = await #expect(processExitsWith: .success) {
                let cycles = ConcurrencySettings.lifetimeCycles
                // The control first: if what the runtime keeps levels off, it does so there.
                let control = await LifetimeCycle.measure(cycles: max(cycles * 3 / 10, 10), control: true)
                let controllers = await LifetimeCycle.measure(cycles: cycles, control: false)
                for (count, heap, resident) in controllers.figures {
                    MemoryAtScaleTests.say("create/drop: \(count) cycles: heap in use \(MemoryUsage.megabytes(heap)), resident \(MemoryUsage.megabytes(resident))")
                }
                MemoryAtScaleTests.say("create/drop: \(cycles) cycles in \(controllers.elapsed)")
                if controllers.survivors > 0 {
                    MemoryAtScaleTests.say("create/drop: \(controllers.survivors) watched controllers are still alive")
                    MemoryAtScaleTests.verdict(false)
                }
                guard let slope = controllers.bytesPerCycle, let controlSlope = control.bytesPerCycle else {
                    MemoryAtScaleTests.verdict(true) // no allocator figures here
                }
                MemoryAtScaleTests.say(String(format: "create/drop: heap growth %.1f bytes per cycle after the first tenth; control without controllers: %.1f", slope, controlSlope))
                // A controller that kept anything per cycle (a task, a continuation, an entry) would
                // add tens of bytes per cycle over the control.
                MemoryAtScaleTests.verdict(slope < controlSlope + 6)
            }
            report(result, "create/drop at scale")
        }

        /// What an events subscriber that never reads costs per load: it keeps every event (the
        /// stream is lossless) until it reads them or is released. The figure is for the README.
        @Test("an unread events subscriber keeps a few dozen bytes per load")
        func unreadEventsCost() async {
            let result = await #expect(processExitsWith: .success) {
                let feed = FeedController<Int, Int>(
                    clock: ContinuousClock(),
                    configuration: try! FeedConfiguration(pageSize: 3, loadsInitialPage: false, duplicates: .keep)
                ) { _ in Page(items: [1, 2, 3], next: nil) }
                let loads = 20_000
                for _ in 0..<2_000 { await feed.refresh() } // warm up: every buffer at its steady size
                let withoutSubscriber = await MemoryUsage.settledHeapInUse()
                for _ in 0..<loads { await feed.refresh() }
                let control = await MemoryUsage.settledHeapInUse()
                let unread = feed.events
                for _ in 0..<loads { await feed.refresh() }
                let withSubscriber = await MemoryUsage.settledHeapInUse()
                withExtendedLifetime(unread) {}
                await feed.close()
                guard let withoutSubscriber, let control, let withSubscriber else { MemoryAtScaleTests.verdict(true) }
                let perLoad = Double(withSubscriber - control) / Double(loads)
                let controlPerLoad = Double(control - withoutSubscriber) / Double(loads)
                MemoryAtScaleTests.say(String(format: "unread events subscriber: %.1f bytes per load (%d loads, 2 events each; without it: %.1f)", perLoad, loads, controlPerLoad))
                // It grows (the stream is lossless) by a few dozen bytes per load, well above the
                // control run's noise.
                MemoryAtScaleTests.verdict(perLoad > 2 * controlPerLoad + 8 && perLoad < 256)
            }
            report(result, "unread events cost")
        }
    }

    /// The failure of a lifetime cycle's source.
    struct CycleFailure: Error {}

    /// A weak reference to a controller, to see that it was freed.
    struct WeakBox {
        weak var object: AnyObject?
    }

    /// One create/drop cycle of the lifetime test: a controller with something in flight, dropped.
    struct LifetimeCycle {
        /// 0: a fetch in flight with a timeout; 1: an iterating subscriber (and the initial fetch in
        /// flight); 2: a retry waiting for its backoff; 3: a fetch on the real clock that ignores
        /// cancellation and answers 1 ms later, after the controller is gone.
        let kind: Int

        /// The figures of a run of cycles.
        struct Measurement {
            var figures: [(cycles: Int, heap: Int?, resident: Int?)] = []
            var elapsed: Duration = .zero
            var survivors = 0

            /// Heap growth per cycle from the first tenth of the run to its end.
            var bytesPerCycle: Double? {
                guard let first = figures.first, let last = figures.last, let from = first.heap, let to = last.heap,
                      last.cycles > first.cycles
                else { return nil }
                return Double(to - from) / Double(last.cycles - first.cycles)
            }
        }

        /// Runs `cycles` cycles of the four kinds in turn (`ASYNCPAGING_LIFETIME_KIND` picks one),
        /// with controllers, or as the `control`: the same tasks waiting and cancelled, without one.
        static func measure(cycles: Int, control: Bool) async -> Measurement {
            let checkpoints = [cycles / 10, cycles / 2, cycles]
            var measurement = Measurement()
            var watched: [WeakBox] = []
            let started = ContinuousClock.now
            for cycle in 1...cycles {
                let kind = ConcurrencySettings.integer("ASYNCPAGING_LIFETIME_KIND") ?? cycle % 4
                let cycleObject = WeakBox(object: control ? LifetimeCycle(kind: kind).runControl() : LifetimeCycle(kind: kind).run())
                if cycle % 1_000 == 0 { watched.append(cycleObject) }
                if cycle % 100 == 0 {
                    // Let the other threads catch up with the cancellations and releases, so that
                    // a backlog of pending work does not pass for a leak.
                    await pollUntil { cycleObject.object == nil }
                }
                if checkpoints.contains(cycle) {
                    let heap = await MemoryUsage.settledHeapInUse()
                    measurement.figures.append((cycle, heap, MemoryUsage.resident))
                }
            }
            measurement.elapsed = started.duration(to: .now)
            // Every 1,000th controller was watched: all of them must be gone.
            await pollUntil(every: .milliseconds(10)) {
                watched.allSatisfy { $0.object == nil } || started.duration(to: .now) > measurement.elapsed + .seconds(30)
            }
            measurement.survivors = watched.count { $0.object != nil }
            return measurement
        }

        /// Creates a controller, starts its work, and drops it; returns it for watching only.
        ///
        /// The fetches, timeouts and backoffs that are still waiting when the controller goes wait
        /// on a ``TestClock`` of the cycle's own, which nobody advances: they are in flight until
        /// the drop cancels them. On the real clock, a cancelled sleep also keeps memory in the
        /// Swift runtime on Linux until its deadline (about 200 bytes resident each: hour-long
        /// timers made 100,000 cycles hold 18 MB), which would hide what the controller keeps.
        ///
        /// Even so the heap grows a little per cycle without any controller: 36,000 tasks that
        /// suspend in `withTaskCancellationHandler` and are cancelled, with nothing of this package
        /// involved, added 530 KB (about 15 bytes each; 2026-11-23, debug build). Hence the control.
        func run() -> AnyObject? {
            let clock = TestClock()
            let retry = RetryPolicy(maximumAttempts: 3, initialBackoff: .seconds(1), maximumBackoff: .seconds(1))
            let configuration = try! FeedConfiguration(
                pageSize: 3, retry: kind == 2 ? retry : .none, timeout: kind == 0 ? .seconds(10) : nil)
            let kind = self.kind
            let feed = FeedController<Int, Int>(clock: clock, configuration: configuration) { request in
                switch kind {
                case 2:
                    throw CycleFailure() // the retry waits for its backoff
                case 3:
                    await Task { try? await ContinuousClock().sleep(for: .milliseconds(1)) }.value
                    return Page(items: [1], next: nil)
                default:
                    try await request.clock.sleep(for: .seconds(3_600))
                    return Page(items: [1], next: nil)
                }
            }
            if kind == 1 {
                let snapshots = feed.snapshots
                Task { for await _ in snapshots {} }
            }
            return feed
        }

        /// The control of a cycle: the tasks of ``run()`` — sleeping on a test clock, iterating a
        /// stream, sleeping on the real clock — started and cancelled (the stream finished) the
        /// same way, without a controller. Returns the clock, for watching.
        func runControl() -> AnyObject? {
            let clock = TestClock()
            let sleepers = [2, 1, 1, 0][kind % 4] // fetch and timeout; fetch; backoff; none
            var tasks = (0..<sleepers).map { _ in Task { try? await clock.sleep(for: .seconds(3_600)) } }
            if kind == 1 {
                let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
                tasks.append(Task { for await _ in stream {} })
                continuation.finish()
            }
            if kind == 3 {
                Task { await Task { try? await ContinuousClock().sleep(for: .milliseconds(1)) }.value }
            }
            tasks.forEach { $0.cancel() }
            return clock
        }
    }
}
