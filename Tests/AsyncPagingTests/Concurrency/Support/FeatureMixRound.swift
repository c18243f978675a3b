import AsyncPaging

/// One round of the stress test that mixes features on the real clock: a bounded feed
/// (``FeedConfiguration/maximumItems``) that merges at the head (most rounds), against a
/// ``FeatureMixSource``; 6–10 tasks refreshing, loading at both ends, retrying, editing
/// (update, remove, insert at the top), invalidating (called, and through a followed sequence,
/// around rows reported on screen; some rounds refetch every loaded page on refresh) and
/// exporting — each export checked, and now and then
/// restored into a second controller that must show the same list — while subscribers join
/// and leave by task cancellation, by `break` or by dropping their stream.
///
/// Checked during the round, at every export (taken on the controller's executor, beside the
/// list it exports): an export after the first page is never `nil`; it holds the list shown;
/// only its first page names no `previous` (a page without one is the start of the data, so
/// nothing comes before it) — the shape that broke the bound after a head merge. After
/// quiescence: the list is one chain (no id twice, new posts and inserted items only above
/// the data, the data in order), its export restores to the same list and the same export,
/// and each landing of a load at either end, one at a time, leaves the list within the bound
/// (or one page). Returns what went wrong.
struct FeatureMixRound {
    typealias Feed = FeedController<StressRow, Int>

    let number: Int
    let seed: UInt64
    let tally: StressTally
    let detector: StallDetector

    func run() async -> [String] {
        var random = SplitMix64(seed: seed, stream: 0)
        let configuration = Self.randomConfiguration(&random)
        let source = FeatureMixSource(seed: seed, last: random.pick([0, 3, 3, 60, 60, 60])) { [tally, detector] in
            tally.count { $0.fetches += 1 }
            detector.progress()
        }
        let feed = Feed(source: source, clock: ContinuousClock(), configuration: configuration)
        let (invalidations, invalidationSender) = AsyncStream<Void>.makeStream()
        feed.followInvalidations(invalidations)
        let problems = Locked<[String]>([])
        @Sendable func problem(_ message: String) { problems.withLock { $0.append(message) } }

        let events = feed.events
        let eventAudit = Task {
            var all: [FeedEvent] = []
            for await event in events { all.append(event) }
            return all
        }
        _ = await feed.refresh()

        let callers = 6 + random.below(5)
        let churners = 1 + random.below(3)
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(150 + random.below(250)))
        detector.enter("mix round \(number): \(callers) callers and \(churners) subscriber churners running")
        let churn = StressRound(number: number, seed: seed, tally: tally, detector: detector)
        await withTaskGroup(of: Void.self) { group in
            for caller in 0..<callers {
                group.addTask {
                    await callLoop(
                        feed, source: source, configuration: configuration, stream: UInt64(100 + caller), until: deadline,
                        invalidations: invalidationSender, problem: problem)
                }
            }
            for churner in 0..<churners {
                group.addTask { await churn.churnLoop(feed, stream: UInt64(200 + churner), until: deadline, problem: problem) }
            }
        }

        detector.enter("mix round \(number): waiting for every load to end (\(feed.currentLoadStates))")
        var quietPolls = 0
        while quietPolls < 20 {
            quietPolls = feed.currentLoadStates.isLoading || feed.currentStatus.isLoading ? 0 : quietPolls + 1
            try? await ContinuousClock().sleep(for: .milliseconds(1))
        }
        detector.enter("mix round \(number): checks after quiescence")
        for found in Self.chainProblems(Array(feed.currentSnapshot).map(\.id)) { problem(found) }
        if let state = await Self.checkedExport(of: feed, configuration: configuration, problem: problem) {
            await Self.checkRestore(state, source: source, configuration: configuration, problem: problem)
        }
        // One load at a time at either end: after each landing the bound holds (every page
        // names its cursors, so nothing is kept over it), edits and merges before included.
        if let maximum = configuration.maximumItems {
            // Rows on screen keep their pages over the bound (reportVisibleRows): none now.
            feed.clearVisibleRows()
            for index in 0..<6 {
                let result = index.isMultiple(of: 2) ? await feed.loadMore() : await feed.loadPrevious()
                guard case .completed = result.outcome else { continue }
                tally.count { $0.boundChecks += 1 }
                guard let state = await Self.checkedExport(of: feed, configuration: configuration, problem: problem) else { continue }
                if state.itemCount > maximum && state.pages.count > 1 {
                    problem("after \(result) the list holds \(state.itemCount) items in \(state.pages.count) pages, over the bound \(maximum)")
                }
            }
        }
        let list = feed.currentSnapshot

        detector.enter("mix round \(number): close")
        await feed.close()
        let allEvents = await eventAudit.value
        problems.withLock { $0.append(contentsOf: StressRound.eventProblems(allEvents)) }
        if feed.subscriberCounts != (0, 0, 0) { problem("subscribers left after close: \(feed.subscriberCounts)") }
        tally.count { $0.mixRounds += 1 }
        let found = problems.withLock { $0 }
        guard found.isEmpty else {
            return found + ["configuration: \(configuration), data to position \(source.last)", "list: \(list.map(\.id))"]
        }
        return []
    }

    static func randomConfiguration(_ random: inout SplitMix64) -> FeedConfiguration {
        do {
            return try FeedConfiguration(
                pageSize: 1 + random.below(4), loadsInitialPage: false,
                loadMoreDuringRefresh: random.pick([.cancelRefresh, .ignoreLoadMore]),
                refreshDuringRefresh: random.pick([.restart, .join]),
                loadMoreDuringLoadMore: random.pick([.join, .restart]),
                loadPreviousDuringRefresh: random.pick([.cancelRefresh, .ignoreLoadPrevious]),
                bothEnds: random.pick([.runBoth, .cancelOther]),
                refreshMode: random.chance(65) ? .mergeAtHead : random.chance(50) ? .refetchLoaded : .replace,
                retry: random.chance(50) ? .none : RetryPolicy(
                    maximumAttempts: 2, initialBackoff: .microseconds(random.below(500)), multiplier: 2,
                    maximumBackoff: .milliseconds(1)),
                timeout: random.chance(20) ? .milliseconds(2) : nil,
                duplicates: .drop,
                maximumItems: random.chance(90) ? 2 + random.below(10) : nil,
                keepsPageCursors: random.chance(50))
        } catch {
            fatalError("the mix configuration is valid: \(error)")
        }
    }

    /// One caller: loads at both ends, refreshes, retries, edits and exports at random.
    func callLoop(
        _ feed: Feed, source: FeatureMixSource, configuration: FeedConfiguration, stream: UInt64,
        until deadline: ContinuousClock.Instant, invalidations: AsyncStream<Void>.Continuation,
        problem: @escaping @Sendable (String) -> Void
    ) async {
        var random = SplitMix64(seed: seed, stream: stream)
        var inserted = 0
        while ContinuousClock.now < deadline {
            if random.chance(12) {
                // The data changed, or the user scrolled: rows on screen, then an invalidation
                // (awaited, or sent through the followed sequence) now and then.
                let count = feed.currentSnapshot.count
                let first = count == 0 ? 0 : random.below(count)
                feed.reportVisibleRows(first..<(first + 1 + random.below(4)), prefetchDistance: random.below(3))
                tally.count { $0.rowReports += 1 }
                if random.chance(60) {
                    tally.count { $0.invalidations += 1 }
                    if random.chance(50) {
                        _ = await feed.invalidate()
                    } else {
                        invalidations.yield(())
                    }
                }
                continue
            }
            let roll = random.below(100)
            switch roll {
            case ..<14: _ = await feed.refresh()
            case ..<40: _ = await feed.loadMore()
            case ..<54: _ = await feed.loadPrevious()
            case ..<58: _ = await feed.retry()
            case ..<62: feed.send(random.pick([.loadMore, .loadPrevious, .refresh]))
            case ..<84:
                // Edits, by ids read from the list just published (the item may be gone by the
                // time the edit runs: `notFound`, or nothing removed).
                let ids = feed.currentSnapshot.map(\.id)
                do throws(FeedEditError) {
                    switch roll {
                    case ..<69:
                        if let id = ids.randomElement(using: &random) { try await feed.update(StressRow(id: id, fetch: -1)) }
                    case ..<76:
                        if let id = ids.randomElement(using: &random) { try await feed.remove(ids: [id]) }
                    default:
                        let base = 2_000_000 + Int(stream) * 100_000 + inserted
                        inserted += 2
                        try await feed.insertAtTop([StressRow(id: base, fetch: -1), StressRow(id: base + 1, fetch: -1)])
                    }
                    tally.count { $0.edits += 1 }
                } catch {
                    switch error {
                    case .notFound, .noList: break
                    default: problem("an edit threw \(error)")
                    }
                }
            default:
                tally.count { $0.exports += 1 }
                if let state = await Self.checkedExport(of: feed, configuration: configuration, problem: problem),
                   random.chance(25) {
                    tally.count { $0.restores += 1 }
                    await Self.checkRestore(state, source: source, configuration: configuration, problem: problem)
                }
            }
            detector.progress()
            if random.chance(50) { try? await ContinuousClock().sleep(for: .microseconds(random.below(300))) }
        }
    }

    /// Exports on the controller's executor, beside the list it exports, and checks the state:
    /// never `nil` after the first page nor an error (every list of this source is one chain of
    /// cursors), the list shown, only the first page without a `previous`.
    static func checkedExport(
        of feed: Feed, configuration: FeedConfiguration, problem: @Sendable (String) -> Void
    ) async -> FeedState<StressRow, Int>? {
        let (exported, shown) = await exportBeside(feed)
        let state: FeedState<StressRow, Int>?
        switch exported {
        case .success(let value): state = value
        case .failure(let error):
            problem("exportState() threw \(error) (list \(shown.map(\.id)), generation \(shown.generation))")
            return nil
        }
        guard let state else {
            if shown.generation > 0 {
                problem("exportState() returned nil after the first page (list \(shown.map(\.id)), generation \(shown.generation))")
            }
            return nil
        }
        if state.items.map(\.id) != shown.map(\.id) {
            problem("the export holds \(state.items.map(\.id)), the list shown is \(shown.map(\.id))")
        }
        if state.generation != shown.generation {
            problem("the export is of generation \(state.generation), the list of \(shown.generation)")
        }
        if configuration.maximumItems != nil,
           let orphan = state.pages.indices.dropFirst().first(where: { state.pages[$0].previous == nil }) {
            problem("exported page \(orphan) of \(state.pages.count) names no previous, yet pages come before it: \(state.pages.map { "\($0.items.map(\.id)) previous \(String(describing: $0.previous))" })")
        }
        return state
    }

    /// The export and the list, read in one job on the controller's executor.
    static func exportBeside(
        _ feed: isolated Feed
    ) -> (Result<FeedState<StressRow, Int>?, FeedStateError>, FeedSnapshot<StressRow>) {
        let exported: Result<FeedState<StressRow, Int>?, FeedStateError>
        do throws(FeedStateError) {
            exported = .success(try feed.exportState())
        } catch {
            exported = .failure(error)
        }
        return (exported, feed.currentSnapshot)
    }

    /// A controller restored from `state` shows its list and exports the same pages.
    static func checkRestore(
        _ state: FeedState<StressRow, Int>, source: FeatureMixSource, configuration: FeedConfiguration,
        problem: @Sendable (String) -> Void
    ) async {
        let restored = Feed(
            source: source, clock: ContinuousClock(), configuration: configuration, restoring: state, restorePolicy: .never)
        let shown = restored.currentSnapshot
        if shown.map(\.id) != state.items.map(\.id) || shown.generation != state.generation {
            problem("restored from \(state.items.map(\.id)) (generation \(state.generation)), it shows \(shown.map(\.id)) (generation \(shown.generation))")
        }
        let again: FeedState<StressRow, Int>?
        do throws(FeedStateError) {
            again = try await restored.exportState()
        } catch {
            problem("a controller restored from \(state.items.map(\.id)) cannot export: \(error)")
            again = nil
        }
        let pages = { (state: FeedState<StressRow, Int>?) in
            state?.pages.map { "\($0.items.map(\.id)) \(String(describing: $0.previous)) \(String(describing: $0.next))" }
        }
        if pages(again) != pages(state) {
            problem("a restored controller exports \(String(describing: pages(again))), restored from \(String(describing: pages(state)))")
        }
        await restored.close()
    }

    /// The list is one chain of the source's pages: no id twice, and the data's ids in order.
    /// (New posts and inserted items, ids from 1,000,000, sit above the data, save where a head
    /// merge puts a page's items again above them: a removed item of the first page is new to
    /// the list when the next refresh brings it.)
    static func chainProblems(_ ids: [Int]) -> [String] {
        var problems: [String] = []
        if Set(ids).count != ids.count { problems.append("duplicate ids in the list \(ids)") }
        let data = ids.filter { $0 < FeatureMixSource.firstNewPost }
        if !zip(data, data.dropFirst()).allSatisfy({ $0 < $1 }) { problems.append("the data out of order: \(data) in \(ids)") }
        return problems
    }
}
