import AsyncPaging
import AsyncPagingTesting

/// One randomized run: a controller on a test clock and a scripted source, driven by the
/// operations a seed picks, and checked against a ``ReferenceModel`` after every step.
///
/// Every wait is a rendezvous on something the model says must happen: a request reaching the
/// source, an event or a diagnostic being published (the `staleResultDiscarded` diagnostic
/// tells that a late or cancelled fetch came back and was dropped), a caller being answered, a
/// task going to sleep on the clock. Then a barrier on the controller's executor makes sure
/// the job that published them is over. Nothing yields, sleeps or polls, so a seed replays the
/// same run on a busy machine.
///
/// While it waits, the run re-checks what has arrived so far at every change (see
/// ``Progress``): an engine that publishes, requests or answers something the model does not
/// expect fails at once with its seed. Only an engine that does strictly less than the model
/// (say, never ends a load) leaves the run waiting; `ASYNCPAGING_TRACE_SEEDS=1` prints each
/// seed as it starts and ends, which names the one that hangs.
final class ModelRun {
    let seed: UInt64
    let configuration: FeedConfiguration
    /// Where the initial load opens (`initialCursor:`), `nil` for the first page.
    let initialCursor: Int?
    private let verbose: Bool
    /// A run of ``ModelOperation/featureMixBatch(using:)``: bounded, merging, editing,
    /// restoring feeds, against a source with less bad input (long chains of loads land).
    let mixesFeatures: Bool
    private var random: SplitMix64
    // What one controller's life needs; an export → restore replaces them all (a new
    // controller, on a new clock, with a source of its own), and the run goes on.
    private var clock = TestClock()
    private var source: RowSource
    private var feed: RowFeed?
    private var model: ReferenceModel
    private let progress = Progress()
    private var events: SignallingRecorder<FeedEvent>
    private var diagnostics: SignallingRecorder<FeedDiagnostic>
    private var snapshots: SignallingRecorder<FeedSnapshot<FeedRow>>
    private var statuses: SignallingRecorder<FeedStatus>
    private var subscribers: [ModelSubscriber] = []
    /// The transformed subscribers of the current controller (made when the run starts and at
    /// each restore).
    private var rowsFollower: ModelRowsFollower?
    /// Changes of the transformed rows that were not `.replaced`, over the run's controllers.
    private var incrementalRowChanges = 0
    private var outcomes: CallOutcomes
    private var callCount = 0
    private var checkedSnapshots = 0
    /// Controllers restored so far in this run.
    private(set) var restores = 0
    /// Operations taken so far (the one that failed included).
    private(set) var stepsDone = 0
    /// Items inserted at the top so far (their ids, from 2,000,000, are new in the run).
    private var inserted = 0
    private var plan: ResponsePlan
    /// Coverage of the controllers this run closed before the current one.
    private var pastCoverage: [String: Int] = [:]
    private(set) var trace: [String] = []

    init(seed: UInt64, verbose: Bool = false, mixesFeatures: Bool = false) {
        self.seed = seed
        self.verbose = verbose
        self.mixesFeatures = mixesFeatures
        random = SplitMix64(seed: seed)
        configuration = mixesFeatures
            ? Self.featureMixConfiguration(using: &random) : Self.randomConfiguration(using: &random)
        // Head merges need a list that starts at the start of the data: opened at the top.
        let opensAtTop = random.chance(configuration.refreshMode == .mergeAtHead ? (mixesFeatures ? 90 : 75) : 45)
        initialCursor = opensAtTop ? nil : random.pick([5, -10, 30])
        var plan = ResponsePlan(seed: seed, firstRequestSleeps: configuration.loadsInitialPage)
        plan.forwardOnly = random.chance(mixesFeatures ? 5 : 15)
        plan.calm = mixesFeatures
        self.plan = plan
        source = plan.makeSource(progress: progress)
        outcomes = CallOutcomes(progress: progress)
        model = ReferenceModel(configuration: configuration, plan: plan, initialCursor: initialCursor)
        let feed = RowFeed(source: source, clock: clock, configuration: configuration, initialCursor: initialCursor)
        self.feed = feed
        events = SignallingRecorder(feed.events, progress: progress)
        diagnostics = SignallingRecorder(feed.diagnostics, progress: progress)
        snapshots = SignallingRecorder(feed.snapshots, progress: progress)
        statuses = SignallingRecorder(feed.statuses, progress: progress)
        // One run in seven starts with a crowd of 8 more subscribers: with 9, snapshots go
        // through the broadcaster's fan-out task, which every check below then covers too.
        let crowd = random.chance(15) ? 8 : 0
        for _ in 0..<crowd { subscribers.append(ModelSubscriber(feed, model: model)) }
        let opening = initialCursor.map { ", opens at \($0)" } ?? ""
        let forward = plan.forwardOnly ? ", pages name no previous" : ""
        log("seed \(seed): \(Self.describe(configuration))\(opening)\(forward)\(crowd > 0 ? ", \(crowd) more subscribers" : "")")
    }

    /// The configurations of the runs that mix features: a small bound (most runs), head
    /// merges (most runs), ids to edit by; the overlap policies at random.
    static func featureMixConfiguration(using random: inout SplitMix64) -> FeedConfiguration {
        do {
            return try FeedConfiguration(
                pageSize: 3,
                loadsInitialPage: random.chance(70),
                loadMoreDuringRefresh: random.chance(50) ? .cancelRefresh : .ignoreLoadMore,
                refreshDuringRefresh: random.chance(50) ? .restart : .join,
                loadMoreDuringLoadMore: random.chance(50) ? .join : .restart,
                loadPreviousDuringRefresh: random.chance(50) ? .cancelRefresh : .ignoreLoadPrevious,
                bothEnds: random.chance(50) ? .runBoth : .cancelOther,
                refreshMode: random.chance(75) ? .mergeAtHead : .replace,
                retry: random.chance(70) ? .none : RetryPolicy(maximumAttempts: 2, initialBackoff: .seconds(1), multiplier: 2),
                timeout: random.chance(50) ? nil : .seconds(5),
                duplicates: random.chance(95) ? .drop : .keep,
                maximumItems: random.chance(15) ? nil : random.pick([2, 4, 5, 7, 10]))
        } catch {
            fatalError("the generated configuration is valid: \(error)")
        }
    }

    static func randomConfiguration(using random: inout SplitMix64) -> FeedConfiguration {
        let retry = random.chance(50)
            ? RetryPolicy.none
            : RetryPolicy(maximumAttempts: 2 + random.below(2), initialBackoff: .seconds(1), multiplier: 2)
        do {
            return try FeedConfiguration(
                pageSize: 3,
                loadsInitialPage: random.chance(70),
                loadMoreDuringRefresh: random.chance(50) ? .cancelRefresh : .ignoreLoadMore,
                refreshDuringRefresh: random.chance(50) ? .restart : .join,
                loadMoreDuringLoadMore: random.chance(50) ? .join : .restart,
                loadPreviousDuringRefresh: random.chance(50) ? .cancelRefresh : .ignoreLoadPrevious,
                bothEnds: random.chance(50) ? .runBoth : .cancelOther,
                refreshMode: random.chance(35) ? .mergeAtHead : .replace,
                retry: retry,
                timeout: random.chance(50) ? nil : .seconds(5),
                duplicates: random.chance(75) ? .drop : .keep,
                // A bound of one to a few pages (pages hold 0 to 3 items), or none.
                maximumItems: random.chance(30) ? nil : random.pick([1, 2, 3, 5, 7, 10]))
        } catch {
            fatalError("the generated configuration is valid: \(error)")
        }
    }

    static func describe(_ configuration: FeedConfiguration) -> String {
        let timeout = configuration.timeout.map { "\($0)" } ?? "none"
        return "initial load \(configuration.loadsInitialPage), loadMoreDuringRefresh \(configuration.loadMoreDuringRefresh), "
            + "refreshDuringRefresh \(configuration.refreshDuringRefresh), loadMoreDuringLoadMore \(configuration.loadMoreDuringLoadMore), "
            + "loadPreviousDuringRefresh \(configuration.loadPreviousDuringRefresh), bothEnds \(configuration.bothEnds), "
            + "attempts \(configuration.retry.maximumAttempts), timeout \(timeout), duplicates \(configuration.duplicates), "
            + "refreshMode \(configuration.refreshMode), maximumItems \(configuration.maximumItems.map(String.init) ?? "none")"
    }

    // MARK: Running

    /// Runs `steps` random operations, then closes or releases the controller and checks that
    /// everything finished.
    func run(steps: Int) async throws(ModelMismatch) {
        if let feed { rowsFollower = await ModelRowsFollower(feed) }
        try await settle()
        try check(after: "creation")
        stepsDone = 0
        while stepsDone < steps {
            // Head-merging runs pull to refresh more often (a refresh and its landing).
            let batch: [ModelOperation] = if mixesFeatures {
                ModelOperation.featureMixBatch(using: &random)
            } else if configuration.refreshMode == .mergeAtHead && random.chance(8) {
                [.call(.refresh), .advanceToNextDeadline]
            } else {
                ModelOperation.randomBatch(using: &random)
            }
            for operation in batch where stepsDone < steps {
                stepsDone += 1
                try await step(operation)
            }
        }
        try await finish()
    }

    private func step(_ operation: ModelOperation) async throws(ModelMismatch) {
        log("> \(operation)")
        model.beginOperation()
        let sleepersBefore = model.sleepers
        var candidates: [ReferenceModel]?
        switch operation {
        case .call(let call):
            let number = callCount
            callCount += 1
            model.call(call, id: number)
            if let feed { await Rendezvous.call(call, on: feed, number: number, into: outcomes) }
            try checkCancelledSleepersLeft(since: sleepersBefore)
        case .advanceToNextDeadline:
            let target = model.nextDeadline ?? model.now + .milliseconds(500)
            candidates = model.advanced(to: target)
            if candidates!.count > 1 { log("both ends fall due at \(target): either order") }
            clock.advance(to: TestClock.Instant(offset: target))
        case .advancePartway:
            let target = model.now + (model.nextDeadline.map { ($0 - model.now) / 2 } ?? .milliseconds(500))
            candidates = model.advanced(to: target)
            clock.advance(to: TestClock.Instant(offset: target))
        case .subscribe:
            if let feed { subscribers.append(ModelSubscriber(feed, model: model)) }
        case .unsubscribe(let index):
            if !subscribers.isEmpty {
                let subscriber = subscribers.remove(at: index % subscribers.count)
                await subscriber.cancel()
                try checkPrefix(subscriber)
            }
        case .close:
            model.close()
            await feed?.close()
            try checkCancelledSleepersLeft(since: sleepersBefore)
        case .update(let position):
            let id = position.flatMap { model.list.isEmpty ? nil : model.list[$0 % model.list.count] } ?? 999_999
            let expected = model.update(id: id)
            if let feed {
                let result: Result<Int, FeedEditError>
                do throws(FeedEditError) { result = .success(try await feed.update(FeedRow(id: id))) } catch { result = .failure(error) }
                try expect(result == expected, "update(#\(id)) returned \(result), the model \(expected)")
            }
        case .remove(let positions):
            let ids = positions.map { $0 < 0 || model.list.isEmpty ? 999_999 : model.list[$0 % model.list.count] }
            let expected = model.remove(ids: ids)
            if let feed {
                let result: Result<[Int], FeedEditError>
                do throws(FeedEditError) { result = .success(try await feed.remove(ids: ids)) } catch { result = .failure(error) }
                try expect(result == expected, "remove(ids: \(ids)) returned \(result), the model \(expected)")
            }
        case .insertAtTop(let count):
            let ids = (0..<count).map { 2_000_000 + inserted + $0 }
            inserted += count
            let expected = model.insertAtTop(ids: ids).map { true }
            if let feed {
                let result: Result<Bool, FeedEditError>
                do throws(FeedEditError) {
                    try await feed.insertAtTop(rows(ids))
                    result = .success(true)
                } catch {
                    result = .failure(error)
                }
                try expect(result == expected, "insertAtTop(\(ids)) returned \(result), the model \(expected)")
            }
        case .exportAndRestore(let anchor, let refreshes):
            if try await exportAndRestore(anchor: anchor, refreshes: refreshes) { return }
        }
        try await settle(after: "\(operation)", candidates: candidates ?? [model])
    }

    /// Exports the state, checks it against the model's, closes the controller (checking its end
    /// as at the end of a run) and creates a new one `restoring:` the state, on a new clock and
    /// a new source (the plan's answers from another seed), with a model restored from the same
    /// pages: the run goes on on it. Returns `false` when nothing was restored (before the
    /// first page, or after close).
    private func exportAndRestore(anchor: Int?, refreshes: Bool) async throws(ModelMismatch) -> Bool {
        guard !model.isClosed else { return false }
        guard let state = try await exportState(anchor: anchor) else { return false }
        let pages = state.pages.map {
            ReferenceModel.ExportedPage(ids: $0.items.map(\.id), previous: $0.previous, next: $0.next)
        }
        if model.mergedHeads > 0 { pastCoverage["exports after a head merge", default: 0] += 1 }
        try await finish()
        Self.addCoverage(modelCoverage, to: &pastCoverage)
        restores += 1
        var plan = ResponsePlan(seed: seed &+ UInt64(restores) &* 0x9E37_79B9_7F4A_7C15, firstRequestSleeps: refreshes)
        plan.forwardOnly = self.plan.forwardOnly
        plan.calm = self.plan.calm
        self.plan = plan
        clock = TestClock()
        source = plan.makeSource(progress: progress)
        outcomes = CallOutcomes(progress: progress)
        callCount = 0
        checkedSnapshots = 0
        subscribers = []
        model = ReferenceModel(
            configuration: configuration, plan: plan, initialCursor: initialCursor, restoring: pages,
            generation: state.generation, refreshes: refreshes)
        let feed = RowFeed(
            source: source, clock: clock, configuration: configuration, initialCursor: initialCursor,
            restoring: state, restorePolicy: refreshes ? .always : .never)
        self.feed = feed
        incrementalRowChanges += rowsFollower?.incrementalChanges ?? 0
        rowsFollower = await ModelRowsFollower(feed)
        events = SignallingRecorder(feed.events, progress: progress)
        diagnostics = SignallingRecorder(feed.diagnostics, progress: progress)
        snapshots = SignallingRecorder(feed.snapshots, progress: progress)
        statuses = SignallingRecorder(feed.statuses, progress: progress)
        log("restored from \(pages.count) pages, generation \(state.generation)")
        try await settle(after: "restore")
        return true
    }

    /// `exportState(anchorIndex:)` of the controller, checked against the model's pages,
    /// generation and anchor: `nil` only before the first page; after it the state, or the
    /// typed error FeedState's checks give the model's pages (a source whose cursors loop).
    private func exportState(anchor: Int?) async throws(ModelMismatch) -> FeedState<FeedRow, Int>? {
        guard let feed else { return nil }
        let exported: Result<FeedState<FeedRow, Int>?, FeedStateError>
        do throws(FeedStateError) {
            exported = .success(try await feed.exportState(anchorIndex: anchor))
        } catch {
            exported = .failure(error)
        }
        guard let expected = model.exportedPages else {
            try expect(exported == .success(nil), "exportState() before the first page returned \(exported)")
            return nil
        }
        if let error = model.exportError {
            // Pages that are not one list by FeedState's rules: no state, that typed error.
            try expect(exported == .failure(error), "exportState() returned \(exported); the model's pages \(expected) fail: \(error)")
            log("export: \(error)")
            return nil
        }
        let state: FeedState<FeedRow, Int>
        switch exported {
        case .success(let value?): state = value
        case .success(nil):
            throw ModelMismatch(description:
                "exportState() returned nil after the first page was applied: list \(model.list), the model exports \(expected)")
        case .failure(let error):
            throw ModelMismatch(description: "exportState() threw \(error): list \(model.list), the model exports \(expected)")
        }
        let pages = state.pages.map {
            ReferenceModel.ExportedPage(ids: $0.items.map(\.id), previous: $0.previous, next: $0.next)
        }
        try expect(pages == expected, "exportState() pages \(pages) != model \(expected)")
        let generation = model.versions.last!.generation
        try expect(state.generation == generation, "exportState() generation \(state.generation) != model \(generation)")
        let itemCount = expected.reduce(0) { $0 + $1.ids.count }
        let expectedAnchor = anchor.flatMap { $0 < itemCount ? $0 : nil }
        try expect(
            state.anchorIndex == expectedAnchor,
            "exportState() anchor \(String(describing: state.anchorIndex)) != \(String(describing: expectedAnchor))")
        return state
    }

    /// Waits, by rendezvous only, until the engine has done everything the model says the last
    /// operation leads to without the clock moving, then checks it all.
    ///
    /// `candidates` are the models the operation may lead to (two when the loads at both ends
    /// fell due at the same instant and the engine may take them in either order): the run
    /// goes on with the one the engine agrees with.
    private func settle(after step: String = "creation", candidates: [ReferenceModel]? = nil) async throws(ModelMismatch) {
        var candidates = candidates ?? [model]
        while true {
            try await waitUntil(candidates) { candidate in
                source.requests.count == candidate.requests.count && events.values.count == candidate.events.count
                    && diagnostics.values.count == candidate.diagnostics.count
                    && outcomes.results.count == candidate.outcomes.count
            }
            // The jobs that published what was awaited are over, their status included.
            if let feed { await Rendezvous.barrier(feed) }
            var firstMismatch: ModelMismatch?
            var agreed = false
            let checked = checkedSnapshots
            for candidate in candidates where counts(match: candidate) {
                model = candidate
                checkedSnapshots = checked
                do {
                    try check(after: step)
                    try await checkCursors()
                    agreed = true
                    break
                } catch {
                    firstMismatch = firstMismatch ?? error
                }
            }
            if agreed { break }
            // A candidate whose counts are reached but whose contents differ is not what happened.
            candidates.removeAll { counts(match: $0) }
            if candidates.isEmpty, let firstMismatch { throw firstMismatch }
        }
        // Tasks cancelled by those jobs left the clock; what is still to come is tasks that go
        // to sleep. No deadline the model does not know may be among them.
        try checkNoUnexpectedSleepers()
        await clock.waitForSleepers(model.sleepers.count)
        try checkSleepers()
    }

    /// Suspends until `isDone`, checking at every change that nothing arrived that the model
    /// does not expect.
    private func waitUntil(_ isDone: () -> Bool) async throws(ModelMismatch) {
        try await waitUntil([model]) { _ in isDone() }
    }

    /// Suspends until `isDone` holds for one of `candidates`, checking at every change that
    /// what arrived agrees with at least one of them. Leaves `model` set to one that agrees.
    private func waitUntil(
        _ candidates: [ReferenceModel], _ isDone: (ReferenceModel) -> Bool
    ) async throws(ModelMismatch) {
        while true {
            let generation = progress.generation
            var firstMismatch: ModelMismatch?
            var agreeing: [ReferenceModel] = []
            let checked = checkedSnapshots
            for candidate in candidates {
                model = candidate
                checkedSnapshots = checked
                do {
                    try checkNothingUnexpected()
                    agreeing.append(candidate)
                } catch {
                    firstMismatch = firstMismatch ?? error
                }
            }
            checkedSnapshots = checked
            guard let first = agreeing.first else { throw firstMismatch! }
            model = first
            if agreeing.contains(where: isDone) { return }
            await progress.waitForChange(after: generation)
        }
    }

    private func counts(match candidate: ReferenceModel) -> Bool {
        source.requests.count == candidate.requests.count && events.values.count == candidate.events.count
            && diagnostics.values.count == candidate.diagnostics.count
            && outcomes.results.count == candidate.outcomes.count
    }

    /// The cursors at both ends (``FeedController/cursors``) are the model's.
    private func checkCursors() async throws(ModelMismatch) {
        guard let feed, !model.isClosed else { return }
        let cursors = await feed.cursors
        try expect(cursors == model.cursors, "cursors \(cursors) != model \(model.cursors)")
    }

    private func finish() async throws(ModelMismatch) {
        if !model.isClosed, let feed {
            // Every subscriber ends on the latest snapshot.
            let version = model.version
            try await waitUntil { snapshots.values.last?.version == version }
            for subscriber in subscribers {
                await subscriber.snapshots.waitFor { $0.version == version }
            }
            if model.callers.isEmpty && random.chance(30) {
                // Releasing the last reference closes the controller too.
                model.close()
                self.feed = nil
                log("release the controller")
            } else {
                model.close()
                await feed.close()
                log("close()")
            }
        }
        // After close every stream finishes...
        try await waitUntil {
            events.isFinished && diagnostics.isFinished && snapshots.isFinished && statuses.isFinished
                && source.requests.count == model.requests.count && outcomes.results.count == model.outcomes.count
        }
        let allEvents = events.values
        let allSnapshots = snapshots.values
        let allStatuses = statuses.values
        try check(after: "the end", feedMayBeGone: true)
        try expect(allEvents == model.events, "final events \(allEvents) != model \(model.events)")
        try expect(allSnapshots.last?.version == model.version, "the last snapshot is not the latest")
        try expect(allStatuses.last == .closed, "the status stream did not end with closed: \(allStatuses)")
        for subscriber in subscribers {
            let received = await subscriber.events.waitForFinish()
            try expect(
                received == subscriber.expectedEvents(model.events),
                "a subscriber's events \(received) != \(subscriber.expectedEvents(model.events))")
            let lastSnapshot = await subscriber.snapshots.waitForFinish().last
            try expect(lastSnapshot?.version == model.version, "a subscriber did not end on the latest snapshot")
            let lastStatus = await subscriber.statuses.waitForFinish().last
            try expect(lastStatus == .closed, "a subscriber's statuses ended with \(String(describing: lastStatus))")
            try checkPrefix(subscriber)
        }
        try expect(model.callers.isEmpty, "model callers left waiting")
        // ...and no task is left running: what still sleeps is only the source's own sleeps of
        // fetches that ignore cancellation. Let them run out; every fetch then returns.
        try checkSleepers()
        clock.run()
        await source.waitForCompletions(model.requests.count)
        try expect(clock.pendingDeadlines.isEmpty, "sleepers left after close: \(clock.pendingDeadlines)")
        try expect(model.violations.isEmpty, "model invariants: \(model.violations)")
    }

    /// What the run went through, for `ASYNCPAGING_COVERAGE=1`: how often the rules the
    /// bound and the head merge add were exercised (from the model, which the engine matched).
    var coverage: [String: Int] {
        var counts = pastCoverage
        Self.addCoverage(modelCoverage, to: &counts)
        if restores > 0 { counts["runs with a restore"] = 1 }
        return counts
    }

    /// Adds the coverage of one controller's life to the run's: counts add up, a "runs …" key
    /// is 1 if any controller of the run counted it.
    private static func addCoverage(_ more: [String: Int], to counts: inout [String: Int]) {
        for (key, value) in more {
            counts[key] = key.hasPrefix("runs") ? max(counts[key] ?? 0, value) : (counts[key] ?? 0) + value
        }
    }

    /// The coverage of the current controller's life.
    private var modelCoverage: [String: Int] {
        var counts: [String: Int] = ["runs": 1]
        func count(_ key: String, _ condition: Bool) { if condition { counts[key, default: 0] += 1 } }
        for version in model.versions {
            if case .ends(let change) = version.change {
                count("drops at the start", change.removedAtStart > 0)
                count("drops at the end", change.removedAtEnd > 0)
            }
        }
        for diagnostic in model.diagnostics {
            if case .pagesKeptOverBound(let side, _) = diagnostic { count("kept over the bound at \(side)", true) }
        }
        for event in model.events {
            count("loads cancelled by a drop", event == .ended(.loadMore, .cancelled(.pagesDropped)) || event == .ended(.loadPrevious, .cancelled(.pagesDropped)))
        }
        count("runs with a head merge", model.mergedHeads > 0)
        count("runs with a head merge that dropped pages", model.mergesThatDropped > 0)
        count("runs with a head-merging refresh", model.mergingRefreshes > 0)
        count("runs with a head-merging refresh that replaced", model.mergesThatReplaced > 0)
        count("runs with mergeAtHead", configuration.refreshMode == .mergeAtHead)
        count("runs with a drop at each end", model.versions.contains {
            if case .ends(let change) = $0.change { change.removedAtStart > 0 } else { false }
        } && model.versions.contains {
            if case .ends(let change) = $0.change { change.removedAtEnd > 0 } else { false }
        })
        count("runs that loaded dropped ids again", model.reloadedAfterDrop > 0)
        count("runs with a head merge, then a drop at the start", model.dropsAtStartAfterMerge > 0)
        count("runs with an edit", model.editsMade > 0)
        counts["incremental row changes"] = incrementalRowChanges + (rowsFollower?.incrementalChanges ?? 0)
        return counts
    }

    // MARK: Checking

    private func check(after step: String, feedMayBeGone: Bool = false) throws(ModelMismatch) {
        if verbose {
            log("after \(step): list \(model.list) v\(model.version) (\(model.versions.last!.change)), status \(model.status), \(model.loadStates), t+\(model.now); \(model.pagesDescription)")
        } else {
            log("after \(step): list \(model.list) v\(model.version), status \(model.status), t+\(model.now)")
        }
        if let feed {
            let snapshot = feed.currentSnapshot
            try expect(snapshot.ids == model.list, "list \(snapshot.ids) != model \(model.list)")
            try checkVersion(snapshot, who: "the current snapshot")
            try expect(snapshot.version == model.version, "version \(snapshot.version) != model \(model.version)")
            try expect(feed.currentStatus == model.status, "status \(feed.currentStatus) != model \(model.status)")
            try expect(
                feed.currentLoadStates == model.loadStates,
                "load states \(feed.currentLoadStates) != model \(model.loadStates)")
            if let rowsFollower, !model.isClosed {
                let mismatch = rowsFollower.check(current: snapshot, status: feed.currentStatus, loadStates: feed.currentLoadStates)
                try expect(mismatch == nil, mismatch ?? "")
            }
            let counts = feed.subscriberCounts
            let expected = model.isClosed ? 0 : subscribers.count + 1
            try expect(
                counts.snapshots == expected && counts.statuses == expected && counts.events == expected,
                "subscriber counts \(counts) != \(expected)")
        } else {
            try expect(feedMayBeGone, "the controller is gone")
        }
        let requests = source.requests.map {
            ReferenceModel.Request(side: $0.side, cursor: $0.cursor, attempt: $0.attempt)
        }
        try expect(requests == model.requests, "requests \(requests) != model \(model.requests)")
        try expect(events.values == model.events, "events \(events.values) != model \(model.events)")
        let diagnosticsSeen = diagnostics.values.map(\.description).sorted()
        let diagnosticsExpected = model.diagnostics.map(\.description).sorted()
        try expect(diagnosticsSeen == diagnosticsExpected, "diagnostics \(diagnosticsSeen) != model \(diagnosticsExpected)")
        let landing = diagnostics.values.filter(Self.isLandingDiagnostic)
        let landingExpected = model.diagnostics.filter(Self.isLandingDiagnostic)
        try expect(landing == landingExpected, "landing diagnostics in the order \(landing), the model's \(landingExpected)")
        let results = outcomes.results
        try expect(results == model.outcomes, "outcomes \(results.sorted { $0.key < $1.key }) != model \(model.outcomes.sorted { $0.key < $1.key })")
        try checkInvariants()
    }

    /// What has arrived so far agrees with the model: requests, events and snapshots are a
    /// prefix of the model's, diagnostics a part of them, answers the model's answers.
    private func checkNothingUnexpected() throws(ModelMismatch) {
        let requests = source.requests.map {
            ReferenceModel.Request(side: $0.side, cursor: $0.cursor, attempt: $0.attempt)
        }
        try expect(
            requests.count <= model.requests.count && Array(model.requests.prefix(requests.count)) == requests,
            "requests \(requests) are not a prefix of the model's \(model.requests)")
        let seenEvents = events.values
        try expect(
            seenEvents.count <= model.events.count && Array(model.events.prefix(seenEvents.count)) == seenEvents,
            "events \(seenEvents) are not a prefix of the model's \(model.events)")
        var expectedDiagnostics = Dictionary(model.diagnostics.map { ($0.description, 1) }, uniquingKeysWith: +)
        for diagnostic in diagnostics.values {
            expectedDiagnostics[diagnostic.description, default: 0] -= 1
            try expect(
                expectedDiagnostics[diagnostic.description]! >= 0,
                "unexpected diagnostic \(diagnostic); the model has \(model.diagnostics)")
        }
        for (call, result) in outcomes.results {
            try expect(model.outcomes[call] == result, "call \(call) answered \(result), the model says \(String(describing: model.outcomes[call]))")
        }
        for (call, seen) in outcomes.versionsSeen {
            let published = model.outcomeVersions[call] ?? 0
            try expect(
                seen >= published,
                "call \(call) was answered seeing list v\(seen), before its outcome's v\(published) was published")
        }
        let landing = diagnostics.values.filter(Self.isLandingDiagnostic)
        let landingExpected = model.diagnostics.filter(Self.isLandingDiagnostic)
        try expect(
            landing.count <= landingExpected.count && Array(landingExpected.prefix(landing.count)) == landing,
            "landing diagnostics \(landing) are not a prefix of the model's \(landingExpected)")
        try checkSnapshots()
    }

    /// The diagnostics a page landing publishes, in this order (before its snapshot): the
    /// duplicates left out, the pages the bound dropped, the pages it kept over the bound.
    /// Unlike stale results, which arrive when their tasks do, their order is the model's.
    static func isLandingDiagnostic(_ diagnostic: FeedDiagnostic) -> Bool {
        switch diagnostic {
        case .duplicatesDropped, .pagesDropped, .pagesKeptOverBound: true
        default: false
        }
    }

    /// A call or close cancels tasks synchronously, on the controller's executor: once it has
    /// been taken, the sleepers the model cancelled must have left the clock. Only sleepers
    /// that survived the operation or that it created (they may not have registered yet, or
    /// may not be cancelled yet by a result that arrives later) may be there.
    private func checkCancelledSleepersLeft(since before: [ReferenceModel.Sleeper]) throws(ModelMismatch) {
        let survivors = before.filter { old in model.sleepers.contains { $0.id == old.id } }.map(\.deadline)
        var allowed = Dictionary((survivors + model.createdDeadlines).map { ($0, 1) }, uniquingKeysWith: +)
        for deadline in clock.pendingDeadlines.map(\.offset) {
            allowed[deadline, default: 0] -= 1
            try expect(
                allowed[deadline]! >= 0,
                "a task sleeping until \(deadline) was not cancelled; the model has \(model.sleepers.map(\.deadline))")
        }
    }

    private func checkNoUnexpectedSleepers() throws(ModelMismatch) {
        var expected = Dictionary(model.sleepers.map { ($0.deadline, 1) }, uniquingKeysWith: +)
        for deadline in clock.pendingDeadlines.map(\.offset) {
            expected[deadline, default: 0] -= 1
            try expect(expected[deadline]! >= 0, "a task sleeps until \(deadline); the model has \(model.sleepers.map(\.deadline))")
        }
    }

    private func checkSleepers() throws(ModelMismatch) {
        let deadlines = clock.pendingDeadlines.map(\.offset)
        let expected = model.sleepers.map(\.deadline).sorted()
        try expect(deadlines == expected, "clock sleepers \(deadlines) != model \(expected)")
    }

    private func checkInvariants() throws(ModelMismatch) {
        // No two items share an id (where duplicates are dropped).
        if configuration.duplicates == .drop {
            try expect(Set(model.list).count == model.list.count, "duplicate ids in \(model.list)")
        }
        // Per side, began and ended alternate, starting with began.
        try checkAlternation(events.values, who: "the event log")
        try checkSnapshots()
        try expect(model.violations.isEmpty, "model invariants: \(model.violations)")
    }

    /// No stale page was ever applied: every published snapshot is one of the model's lists.
    private func checkSnapshots() throws(ModelMismatch) {
        let seen = snapshots.values
        var lastVersion: UInt64? = checkedSnapshots > 0 ? seen[checkedSnapshots - 1].version : nil
        for (index, snapshot) in seen.enumerated().dropFirst(checkedSnapshots) {
            try expect(snapshot.version < model.versions.count, "snapshot v\(snapshot.version) the model never made")
            try checkVersion(snapshot, who: "a snapshot")
            if let lastVersion {
                try expect(snapshot.version > lastVersion, "snapshot versions went from \(lastVersion) to \(snapshot.version)")
            }
            lastVersion = snapshot.version
            for older in seen[..<index] {
                try checkChange(from: older, to: snapshot, who: "the subscriber")
            }
        }
        checkedSnapshots = seen.count
    }

    /// `newer.change(since: older)` for two versions a subscriber saw: across generations
    /// `.replaced`; within one, counts of items removed and inserted at each end such that the
    /// older list without its removed items is the newer list without its inserted ones (the
    /// rows a table view keeps), with items said removed at an end only if the bound dropped
    /// some there in between.
    private func checkChange(
        from older: FeedSnapshot<FeedRow>, to newer: FeedSnapshot<FeedRow>, who: String
    ) throws(ModelMismatch) {
        let change = newer.change(since: older)
        let pair = "\(who): v\(newer.version).change(since: v\(older.version)) = \(change)"
        guard older.generation == newer.generation else {
            return try expect(change == .replaced, "\(pair) across generations")
        }
        guard model.versions[Int(older.version)].edits == model.versions[Int(newer.version)].edits else {
            // FeedSnapshot.change(since:): an update or a removal in between is a reload.
            return try expect(change == .replaced, "\(pair) across an edit")
        }
        // The snapshots' items are the model's versions' (checkVersion): compare those.
        let olderIDs = model.versions[Int(older.version)].ids, newerIDs = model.versions[Int(newer.version)].ids
        let ends: FeedEndsChange
        switch change {
        case .appended(let range):
            try expect(range.upperBound == newerIDs.count, "\(pair) does not end at the newer count \(newerIDs.count)")
            ends = FeedEndsChange(insertedAtEnd: range.count)
        case .prepended(let range):
            try expect(range.lowerBound == 0, "\(pair) does not start at 0")
            ends = FeedEndsChange(insertedAtStart: range.count)
        case .extended(let prepended, let appended):
            try expect(
                prepended.lowerBound == 0 && appended.upperBound == newerIDs.count
                    && prepended.upperBound <= appended.lowerBound,
                "\(pair) has ranges that are not at the ends of the newer list (count \(newerIDs.count))")
            ends = FeedEndsChange(insertedAtStart: prepended.count, insertedAtEnd: appended.count)
        case .ends(let counts):
            // Removing nothing of the older list is possible when the items dropped in between
            // were all added after it (the store's counts); then the bound dropped some.
            let droppedBetween = model.versions[Int(newer.version)].droppedAtStart + model.versions[Int(newer.version)].droppedAtEnd
                > model.versions[Int(older.version)].droppedAtStart + model.versions[Int(older.version)].droppedAtEnd
            try expect(
                counts.removedAtStart + counts.removedAtEnd > 0 || droppedBetween,
                "\(pair) says .ends without removing anything, and the bound dropped nothing in between")
            ends = counts
        case .initial, .replaced, .updated, .removed, .reloaded:
            // Across an edit it is `.replaced` (above); without one, never these.
            return try expect(false, "\(pair) within one generation, without an edit in between")
        }
        let keptOlder = olderIDs.count - ends.removedAtStart - ends.removedAtEnd
        let keptNewer = newerIDs.count - ends.insertedAtStart - ends.insertedAtEnd
        try expect(
            ends.removedAtStart >= 0 && ends.removedAtEnd >= 0 && ends.insertedAtStart >= 0 && ends.insertedAtEnd >= 0
                && keptOlder >= 0 && keptOlder == keptNewer,
            "\(pair) does not fit lists of \(olderIDs.count) and \(newerIDs.count) items")
        let middleOlder = olderIDs[ends.removedAtStart..<(olderIDs.count - ends.removedAtEnd)]
        let middleNewer = newerIDs[ends.insertedAtStart..<(newerIDs.count - ends.insertedAtEnd)]
        try expect(
            middleOlder.elementsEqual(middleNewer),
            "\(pair): the older list \(olderIDs) without its removed items is not the newer \(newerIDs) without its inserted ones")
        // Keeping a scroll position (FeedChange): row i of the older list that stayed is row
        // i + indexShift of the newer one; the ranges a table view deletes and inserts.
        try expect(
            change.indexShift == ends.insertedAtStart - ends.removedAtStart
                && change.prependedCount == ends.insertedAtStart,
            "\(pair): indexShift \(change.indexShift), prependedCount \(change.prependedCount)")
        let removed = ends.removedRanges(olderCount: olderIDs.count)
        let inserted = ends.insertedRanges(newerCount: newerIDs.count)
        try expect(
            removed.atStart.count + removed.atEnd.count + middleOlder.count == olderIDs.count
                && inserted.atStart.count + inserted.atEnd.count + middleNewer.count == newerIDs.count
                && removed.atStart.upperBound == middleOlder.startIndex && inserted.atStart.upperBound == middleNewer.startIndex,
            "\(pair): ranges \(removed) and \(inserted) do not frame the rows kept")
        let droppedOlder = model.versions[Int(older.version)], droppedNewer = model.versions[Int(newer.version)]
        try expect(
            ends.removedAtStart == 0 || droppedNewer.droppedAtStart > droppedOlder.droppedAtStart,
            "\(pair) removes items at the start, where the bound dropped none in between")
        try expect(
            ends.removedAtEnd == 0 || droppedNewer.droppedAtEnd > droppedOlder.droppedAtEnd,
            "\(pair) removes items at the end, where the bound dropped none in between")
    }

    /// A snapshot is the model's version of its number: the same items, change and generation.
    private func checkVersion(_ snapshot: FeedSnapshot<FeedRow>, who: String) throws(ModelMismatch) {
        try expect(snapshot.version < model.versions.count, "\(who) v\(snapshot.version) is one the model never made")
        let expected = model.versions[Int(snapshot.version)]
        try expect(snapshot.ids == expected.ids, "\(who) v\(snapshot.version) \(snapshot.ids) != model \(expected.ids)")
        try expect(
            snapshot.change == expected.change,
            "\(who) v\(snapshot.version) says \(snapshot.change), the model \(expected.change)")
        try expect(
            snapshot.generation == expected.generation,
            "\(who) v\(snapshot.version) is of generation \(snapshot.generation), the model's \(expected.generation)")
    }

    private func checkAlternation(_ events: [FeedEvent], who: String) throws(ModelMismatch) {
        for side in FeedSide.allCases {
            var loading = false
            for event in events where event.side == side {
                let began = event == .began(side)
                try expect(began != loading, "\(who): \(event) while \(side) was \(loading ? "loading" : "idle")")
                loading = began
            }
        }
    }

    /// What a subscriber received before it left is a prefix of what it would have received.
    private func checkPrefix(_ subscriber: ModelSubscriber) throws(ModelMismatch) {
        let received = subscriber.events.values
        let expected = subscriber.expectedEvents(model.events)
        try expect(Array(expected.prefix(received.count)) == received, "a subscriber's events \(received) are not a prefix of \(expected)")
        try checkAlternation(received, who: "a subscriber")
        let versions = subscriber.snapshots.values.map(\.version)
        // The first value is the snapshot it joined on, unless a newer one replaced it unread.
        try expect(versions.first.map { $0 >= subscriber.joinedAtVersion } ?? true, "a subscriber's first snapshot is older than the one it joined on")
        try expect(zip(versions, versions.dropFirst()).allSatisfy { $0 < $1 }, "a subscriber's snapshot versions \(versions) do not grow")
        let snapshots = subscriber.snapshots.values
        for (index, snapshot) in snapshots.enumerated() {
            try checkVersion(snapshot, who: "a subscriber's snapshot")
            for older in snapshots[..<index] {
                try checkChange(from: older, to: snapshot, who: "a subscriber")
            }
        }
    }

    private func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws(ModelMismatch) {
        if !condition {
            throw ModelMismatch(description: message())
        }
    }

    private func log(_ line: String) {
        trace.append(line)
        if verbose { TraceOutput.write(line) }
    }
}
