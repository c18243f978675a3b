import AsyncPaging

/// One round of the stress test: a controller on the real clock with a random configuration,
/// 8–16 tasks calling it, subscribers joining and leaving, then quiescence, the checks, close,
/// and the checks after close. Returns what went wrong (nothing, when the engine holds).
struct StressRound {
    typealias Feed = FeedController<StressRow, Int>

    let number: Int
    let seed: UInt64
    let tally: StressTally
    let detector: StallDetector

    /// The output a subscriber reads.
    enum Output: CaseIterable {
        case snapshots, statuses, events, diagnostics
    }

    func run() async -> [String] {
        var random = SplitMix64(seed: seed, stream: 0)
        let configuration = Self.randomConfiguration(&random)
        let source = StressSource(seed: seed) { [tally, detector] in
            tally.count { $0.fetches += 1 }
            detector.progress()
        }
        let feed = Feed(source: source, clock: ContinuousClock(), configuration: configuration)
        let problems = Locked<[String]>([])
        @Sendable func problem(_ message: String) { problems.withLock { $0.append(message) } }

        // Auditors: they subscribe before anything happens and read every value to the end.
        let events = feed.events
        let eventAudit = Task {
            var all: [FeedEvent] = []
            for await event in events { all.append(event) }
            return all
        }
        let fanOutReaders = random.chance(33) ? 9 : 0 // beyond 8 snapshot subscribers: fan-out
        let snapshotAudits = (0...fanOutReaders).map { _ in
            let snapshots = feed.snapshots
            return Task {
                var last: FeedSnapshot<StressRow>?
                for await snapshot in snapshots {
                    if let last, snapshot.version <= last.version {
                        problem("a snapshot subscriber got version \(snapshot.version) after \(last.version)")
                    }
                    last = snapshot
                }
                return last
            }
        }
        let statuses = feed.statuses
        let statusAudit = Task {
            var last: FeedStatus?
            for await status in statuses { last = status }
            return last
        }

        let callers = 8 + random.below(9)
        let churners = 2 + random.below(3)
        let length = Duration.milliseconds(150 + random.below(250))
        let deadline = ContinuousClock.now.advanced(by: length)
        // Closing is allowed in the last fifth of the round only, so most of a round runs open.
        let closeWindow = deadline.advanced(by: .zero - length / 5)
        detector.enter("round \(number): \(callers) callers and \(churners) subscriber churners running")
        await withTaskGroup(of: Void.self) { group in
            for caller in 0..<callers {
                group.addTask {
                    await callLoop(feed, stream: UInt64(100 + caller), closingAfter: closeWindow, until: deadline)
                }
            }
            for churner in 0..<churners {
                group.addTask { await churnLoop(feed, stream: UInt64(200 + churner), until: deadline, problem: problem) }
            }
        }

        detector.enter("round \(number): waiting for every load to end (\(feed.currentLoadStates))")
        var quietPolls = 0
        while quietPolls < 20 {
            quietPolls = feed.currentLoadStates.isLoading || feed.currentStatus.isLoading ? 0 : quietPolls + 1
            try? await ContinuousClock().sleep(for: .milliseconds(1))
        }
        checkList(feed.currentSnapshot, source: source, configuration: configuration, problem: problem)
        if feed.currentStatus != .closed {
            // Quiet now: grow the list at both ends, one load at a time, and check it again.
            detector.enter("round \(number): loading at both ends after quiescence")
            for _ in 0..<3 {
                _ = await feed.loadPrevious()
                _ = await feed.loadMore()
            }
            checkList(feed.currentSnapshot, source: source, configuration: configuration, problem: problem)
        }
        let list = feed.currentSnapshot

        detector.enter("round \(number): close")
        await feed.close()
        detector.enter("round \(number): waiting for every stream to finish after close")
        let allEvents = await eventAudit.value
        var lastSnapshots: [FeedSnapshot<StressRow>?] = []
        for audit in snapshotAudits { lastSnapshots.append(await audit.value) }
        let lastStatus = await statusAudit.value
        detector.enter("round \(number): checks after close")

        for last in lastSnapshots where last?.version != list.version {
            problem("a snapshot subscriber ended on version \(String(describing: last?.version)), the list is at \(list.version)")
        }
        if lastStatus != .closed { problem("the status stream ended on \(String(describing: lastStatus)), not closed") }
        if feed.currentLoadStates.isLoading {
            // A closed controller loads nothing: close() ends every load (as cancelled by close).
            problem("after close the load states say \(feed.currentLoadStates)")
        }
        problems.withLock { $0.append(contentsOf: Self.eventProblems(allEvents)) }
        let appliedRefreshes = allEvents.count { event in
            if case .ended(.refresh, .completed) = event { return true }
            if case .ended(.refresh, .endOfData) = event { return true }
            return false
        }
        if appliedRefreshes != Int(list.generation) {
            problem("the list is at generation \(list.generation), but \(appliedRefreshes) refreshes ended applied")
        }
        if feed.subscriberCounts != (0, 0, 0) { problem("subscribers left after close: \(feed.subscriberCounts)") }
        tally.count { $0.rounds += 1 }
        let found = problems.withLock { $0 }
        guard found.isEmpty else {
            return found + ["configuration: \(configuration)", "list: \(list.map(\.id))"]
        }
        return []
    }

    /// Per side, every `began` has exactly one `ended`, in order, and none is open after close.
    static func eventProblems(_ events: [FeedEvent]) -> [String] {
        var open: Set<FeedSide> = []
        var problems: [String] = []
        for (index, event) in events.enumerated() {
            switch event {
            case .began(let side):
                if !open.insert(side).inserted { problems.append("event \(index): began(\(side)) while it was loading") }
            case .ended(let side, _):
                if open.remove(side) == nil { problems.append("event \(index): \(event) without began") }
            }
        }
        if !open.isEmpty { problems.append("sides still loading after close: \(open)") }
        return problems
    }

    /// Checks `list` against the source's log (``AppliedPagesCheck``) and counts what it checked.
    func checkList(
        _ list: FeedSnapshot<StressRow>, source: StressSource, configuration: FeedConfiguration, problem: (String) -> Void
    ) {
        let log = source.log
        let bounded = configuration.maximumItems != nil
        for found in AppliedPagesCheck.problems(in: Array(list), log: log, bounded: bounded) { problem(found) }
        tally.count { counts in
            counts.prependedItemsChecked += list.count { log[$0.fetch].side == .loadPrevious }
            counts.appendedItemsChecked += list.count { log[$0.fetch].side == .loadMore }
        }
    }

    static func randomConfiguration(_ random: inout SplitMix64) -> FeedConfiguration {
        let retry = random.chance(50) ? RetryPolicy.none : RetryPolicy(
            maximumAttempts: 2 + random.below(2), initialBackoff: .microseconds(random.below(1_000)),
            multiplier: 2, maximumBackoff: .milliseconds(2), jitter: random.chance(50) ? 0.5 : 0)
        do {
            return try FeedConfiguration(
                pageSize: 1 + random.below(5), loadsInitialPage: false,
                loadMoreDuringRefresh: random.pick([.cancelRefresh, .ignoreLoadMore]),
                refreshDuringRefresh: random.pick([.restart, .join]),
                loadMoreDuringLoadMore: random.pick([.join, .restart]),
                loadPreviousDuringRefresh: random.pick([.cancelRefresh, .ignoreLoadPrevious]),
                bothEnds: random.pick([.runBoth, .cancelOther]),
                retry: retry, timeout: random.chance(30) ? .milliseconds(1 + random.below(3)) : nil,
                duplicates: .keep,
                // Now and then a bound of a few pages: pages dropped and loaded again at both ends.
                maximumItems: random.chance(30) ? 3 + random.below(10) : nil)
        } catch {
            fatalError("the stress configuration is valid: \(error)")
        }
    }

    /// One caller: awaited calls of every side, retries, sends, and in the round's last fifth
    /// now and then a close.
    func callLoop(
        _ feed: Feed, stream: UInt64, closingAfter closeWindow: ContinuousClock.Instant,
        until deadline: ContinuousClock.Instant
    ) async {
        var random = SplitMix64(seed: seed, stream: stream)
        while ContinuousClock.now < deadline {
            let roll = random.below(1_000)
            if roll < 1 && ContinuousClock.now > closeWindow {
                tally.count { $0.closes += 1 }
                await feed.close()
            } else if roll < 300 {
                tally.count { $0.sends += 1 }
                feed.send(random.chance(20) ? .retry : random.pick(StressSide.allCases).request)
            } else {
                tally.count { $0.callsStarted += 1 }
                if roll < 450 {
                    // retry() or retry(side): the side picked from the same table.
                    _ = await feed.retry(random.chance(50) ? nil : random.pick(StressSide.allCases).feedSide)
                } else {
                    _ = await random.pick(StressSide.allCases).call(on: feed)
                }
                tally.count { $0.callsReturned += 1 }
            }
            detector.progress()
            if random.chance(50) { try? await ContinuousClock().sleep(for: .microseconds(random.below(500))) }
        }
    }

    /// One subscriber churner: joins an output, reads, and leaves by task cancellation, by
    /// `break`, or by dropping the stream unread; each reader checks its own values.
    func churnLoop(
        _ feed: Feed, stream: UInt64, until deadline: ContinuousClock.Instant,
        problem: @escaping @Sendable (String) -> Void
    ) async {
        var random = SplitMix64(seed: seed, stream: stream)
        while ContinuousClock.now < deadline {
            let output = random.pick(Output.allCases)
            let pause: Duration = random.chance(50) ? .zero : .microseconds(random.below(500))
            switch random.below(3) {
            case 0:
                let reader = Self.reader(of: output, on: feed, breaksAfterFirst: false, problem: problem)
                if pause > .zero { try? await ContinuousClock().sleep(for: pause) }
                reader.cancel()
                await reader.value
                tally.count { $0.cancelledSubscribers += 1 }
            case 1:
                let reader = Self.reader(of: output, on: feed, breaksAfterFirst: true, problem: problem)
                if pause > .zero { try? await ContinuousClock().sleep(for: pause) }
                reader.cancel() // an events reader may have nothing to break on
                await reader.value
                tally.count { $0.brokenSubscribers += 1 }
            default:
                switch output {
                case .snapshots: await Self.holdUnread(feed.snapshots, for: pause)
                case .statuses: await Self.holdUnread(feed.statuses, for: pause)
                case .events: await Self.holdUnread(feed.events, for: pause)
                case .diagnostics: await Self.holdUnread(feed.diagnostics, for: pause)
                }
                tally.count { $0.droppedStreams += 1 }
            }
            tally.count { $0.subscriptions += 1 }
            detector.progress()
        }
    }

    static func holdUnread<Element>(_ stream: AsyncStream<Element>, for pause: Duration) async {
        if pause > .zero { try? await ContinuousClock().sleep(for: pause) }
        withExtendedLifetime(stream) {}
    }

    static func reader(
        of output: Output, on feed: Feed, breaksAfterFirst: Bool, problem: @escaping @Sendable (String) -> Void
    ) -> Task<Void, Never> {
        switch output {
        case .snapshots:
            let stream = feed.snapshots
            return Task {
                var last: UInt64?
                for await snapshot in stream {
                    if let last, snapshot.version <= last { problem("a reader got version \(snapshot.version) after \(last)") }
                    last = snapshot.version
                    if breaksAfterFirst { break }
                }
            }
        case .statuses:
            let stream = feed.statuses
            return Task { for await _ in stream where breaksAfterFirst { break } }
        case .events:
            let stream = feed.events
            return Task {
                var open: Set<FeedSide> = []
                for await event in stream {
                    switch event {
                    case .began(let side):
                        if !open.insert(side).inserted { problem("a late reader got began(\(side)) twice") }
                    case .ended(let side, _):
                        if open.remove(side) == nil { problem("a late reader got \(event) without its began") }
                    }
                    if breaksAfterFirst { break }
                }
            }
        case .diagnostics:
            let stream = feed.diagnostics
            return Task { for await _ in stream where breaksAfterFirst { break } }
        }
    }
}
