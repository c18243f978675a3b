// Carrying out what the machine decides: registering callers, running the actions in order,
// applying pages, answering callers, and feeding fetch answers and timers back to the machine.
extension FeedController {
    /// Feeds the machine a caller's request and, when the request started or joined a load,
    /// registers the caller on it *before* carrying out the actions: an answer that arrives
    /// while they run (a source that answers at once) finds the caller already waiting.
    ///
    /// - Parameter side: The side the call concerns; `nil` for `retry()`, whose side is the
    ///   side of the load it started or joined.
    @inlinable func call(
        side: FeedSide?, _ request: (inout Machine, inout [Machine.Action]) -> Machine.Decision
    ) async -> LoadResult {
        var actions = takeActionBuffer()
        let (decision, loadSide) = decide(side: side, request, into: &actions)
        switch decision {
        case .answered(let outcome):
            carryOut(&actions)
            return LoadResult(side: side, outcome: outcome)
        case .started(let id), .joined(let id):
            let joined = if case .joined = decision { true } else { false }
            // Unsafe continuation: every waiter is removed from `waiters` when it is resumed, so
            // it is resumed exactly once (see `answerCallers`); the load always ends (close ends
            // it too). The body runs on the actor, before the call suspends.
            return await withUnsafeContinuation { continuation in
                waiters.append(Waiter(id: id, side: loadSide, joined: joined, continuation: continuation))
                carryOut(&actions)
            }
        }
    }

    /// Feeds the machine the request and names the side of the load it started or joined. A
    /// synchronous method, so that the machine is read in place: read from the async `call`,
    /// it was copied whole (several hundred instructions a page).
    @inlinable func decide(
        side: FeedSide?, _ request: (inout Machine, inout [Machine.Action]) -> Machine.Decision,
        into actions: inout [Machine.Action]
    ) -> (Machine.Decision, FeedSide) {
        let decision = request(&machine, &actions)
        switch decision {
        case .started(let id), .joined(let id): return (decision, inMachine { $0.side(of: id) } ?? side ?? .refresh)
        case .answered: return (decision, side ?? .refresh)
        }
    }

    /// The side `retry()` with no side concerns when it answers at once: the side that failed last.
    @inlinable func sideOfLastFailure() -> FeedSide? { inMachine { $0.failures.last?.side } }

    /// Reads the machine through an inout access. Calling a computed property or method on the
    /// stored `machine` directly passes the whole struct by value: the profile showed each such
    /// read copying all of it (about 600 bytes, with retains), several times a page.
    @inlinable func inMachine<Result>(_ read: (inout Machine) -> Result) -> Result {
        read(&machine)
    }

    /// Publishes the machine's summary status and per-side states.
    @inlinable func publishStates() {
        let (status, loadStates) = inMachine { ($0.status, $0.loadStates) }
        broadcaster.publish(status, loadStates)
    }

    /// Lets `step` feed the machine an input, then carries out the actions it wrote.
    @discardableResult
    @inlinable func run<Result>(_ step: (inout Machine, inout [Machine.Action]) -> Result) -> Result {
        var actions = takeActionBuffer()
        let result = step(&machine, &actions)
        carryOut(&actions)
        return result
    }

    /// The reused action list, empty; `carryOut` gives it back.
    @inlinable func takeActionBuffer() -> [Machine.Action] {
        let actions = actionBuffer
        actionBuffer = [] // the returned list is now the buffer's only owner: appending does not copy it
        return actions
    }

    /// Carries out `actions`, gives the list back for reuse, then hands over the answers that
    /// the fetches they launched gave at once — after the actions, as a fetch task would, and in
    /// a loop rather than by recursion (a source that answers at once with empty pages leads
    /// from one fetch to the next).
    @inlinable func carryOut(_ actions: inout [Machine.Action]) {
        let arrived = perform(&actions)
        giveBack(&actions)
        acceptInTurn(arrived)
    }

    /// Accepts `first`, then every answer that accepting it brought at once, in turn.
    @inlinable func acceptInTurn(_ first: consuming ArrivedAnswer?) {
        var next = first
        // `take()` moves each answer on rather than copying it (an answer holds a page).
        while let answer = next.take() ?? takeDeferredAnswer() {
            next = accept(answer)
        }
    }

    @inlinable func takeDeferredAnswer() -> ArrivedAnswer? {
        deferredAnswers.isEmpty ? nil : deferredAnswers.removeFirst()
    }

    /// Empties `actions` into the reused buffer, leaving `actions` without storage, so that the
    /// next call finds the buffer unique even while this caller is suspended.
    @inlinable func giveBack(_ actions: inout [Machine.Action]) {
        actions.removeAll(keepingCapacity: true)
        swap(&actions, &actionBuffer)
    }

    /// Carries out `actions` in order — applying a page feeds its counts back to the machine,
    /// which appends the actions that end the load — then publishes the new status and load
    /// states, and only then answers the callers whose loads ended, so that a caller sees
    /// outputs that already tell its outcome.
    /// - Returns: The answer of a fetch it launched, when the source gave it at once. (Every
    ///   request starts at most one fetch; should a list ever start two that both answer at
    ///   once, the second waits in `deferredAnswers`.)
    @inlinable func perform(_ actions: inout [Machine.Action]) -> ArrivedAnswer? {
        guard !actions.isEmpty else { return nil }
        var arrived: ArrivedAnswer?
        var index = 0
        while index < actions.count {
            switch actions[index] {
            case .startFetch(let id, let side, let cursor, let attempt, let step):
                if let answer = launchFetch(
                    id, side: side, cursor: cursor, attempt: attempt, step: step, handsOverInPlace: true) {
                    let answer = ArrivedAnswer(id: id, side: side, attempt: attempt, step: step, answer: answer)
                    if arrived == nil { arrived = answer } else { deferredAnswers.append(answer) }
                }
            case .cancelLoad(let id):
                tasks.cancel(id.rawValue)
            case .scheduleRetry(let id, let retryNumber, let failure):
                let retry = configuration.retry
                let unit = retry.jitter > 0 ? Double.random(in: 0..<1, using: &random) : 0
                let delay = retry.delay(beforeRetry: retryNumber, after: failure.error, randomUnit: unit)
                broadcaster.publish(.retryScheduled(
                    side: failure.side, retryNumber: retryNumber, delay: delay, failure: failure))
                launchTimer(id, attempt: failure.attempt, step: 0, after: delay, isTimeout: false)
            case .applyPage(let id, let side):
                guard let page = machine.takeLandedPage() else { break }
                // A reload from an invalidation says where the row on screen went.
                let anchor = side == .refresh && _reloads != nil ? takeAnchor(of: id) : nil
                let anchorBefore = anchor.map(indexBeforeReload)
                let (applied, dropped) = apply(page, at: side)
                if let journal = _sessionJournal { journalPage(page, applied: applied, dropped: dropped, at: side, in: journal) }
                let trim = machine.pageApplied(
                    id, applied: applied, dropped: dropped, keeping: side == .refresh ? nil : protectedStoreIndices,
                    into: &actions)
                dropPages(trim)
                if let anchor, let anchorBefore {
                    publishList(replacing: true, reloaded: FeedAnchorMove(from: anchorBefore, to: indexAfterReload(anchor)))
                } else {
                    publishList(replacing: side == .refresh)
                }
            case .applyRefetchedPages(let id):
                let pages = machine.refetched
                var applied: [Int] = []
                applied.reserveCapacity(pages.count)
                var dropped = 0
                for (index, fetched) in pages.enumerated() {
                    let counts = apply(fetched.page, at: index == 0 ? .refresh : .loadMore)
                    applied.append(counts.applied)
                    dropped += counts.dropped
                }
                _sessionJournal?.recordWholeList()
                let trim = machine.refetchApplied(id, applied: applied, dropped: dropped, into: &actions)
                dropPages(trim)
                publishList(replacing: true)
            case .mergePageAtHead(let id):
                guard let page = machine.takeLandedPage() else { break }
                _sessionJournal?.recordWholeList()
                if let (applied, dropped) = mergeAtHead(page) {
                    let trim = machine.headMergeApplied(
                        id, merged: true, applied: applied, dropped: dropped, keeping: protectedStoreIndices,
                        into: &actions)
                    dropPages(trim)
                    publishList(replacing: false)
                } else {
                    let (applied, dropped) = apply(page, at: .refresh)
                    machine.headMergeApplied(id, merged: false, applied: applied, dropped: dropped, into: &actions)
                    publishList(replacing: true)
                }
            case .emit(let event):
                broadcaster.publish(event)
            case .resolveCallers(let id, let outcome):
                resolutions.append((id, outcome)) // after the status, below
            case .finishOutputs:
                tasks.cancelAll()
                // The last states (no side loading) go out before the streams finish.
                publishStates()
                broadcaster.finish(finalStatus: .closed)
            }
            index += 1
        }
        publishStates()
        // Taken out before answering: a resumed caller cannot run here (this is the actor's
        // turn), but `answerCallers` must not see the list it iterates change under it.
        var answered = resolutions
        resolutions = []
        for (id, outcome) in answered { answerCallers(of: id, outcome) }
        answered.removeAll(keepingCapacity: true)
        resolutions = answered // the capacity is kept: answering allocates nothing next time
        return arrived
    }

    /// Answers and removes the callers waiting on `id`.
    @inlinable func answerCallers(of id: LoadID, _ outcome: LoadOutcome) {
        waiters.removeAll { waiter in
            guard waiter.id == id else { return false }
            waiter.continuation.resume(returning: LoadResult(
                side: waiter.side, outcome: outcome, joinedInFlightLoad: waiter.joined))
            return true
        }
    }

    /// Puts `page` in the list — replacing it (refresh), appending it (load-more) or
    /// prepending it (load-previous). ``publishList(replacing:)`` publishes the result.
    /// - Returns: The items applied (for a refresh, the new list's count) and the duplicates
    ///   left out.
    @inlinable func apply(_ page: Page<Item, Cursor>, at side: FeedSide) -> (applied: Int, dropped: Int) {
        if side == .refresh {
            store = ItemStore()
            identities?.removeAll()
            overlay = nil // a refresh replaces the list, edits and all
        }
        let (kept, dropped) = withoutDuplicates(page.items, at: side == .loadPrevious ? .start : .end)
        if dropped > 0 {
            broadcaster.publish(.duplicatesDropped(side: side, count: dropped))
        }
        switch side {
        case .refresh, .loadMore:
            store.append(contentsOf: kept)
        case .loadPrevious:
            store.prepend(contentsOf: kept)
        }
        return (kept.count, dropped)
    }

    /// Records an applied page for a session registry's store: its items as kept (the page's
    /// own items when none was a duplicate, else read back from the store's end).
    @inlinable func journalPage(
        _ page: Page<Item, Cursor>, applied: Int, dropped: Int, at side: FeedSide, in journal: _FeedSessionJournal<Item, Cursor>
    ) {
        guard side != .refresh else { return journal.recordWholeList() }
        var kept = page.items
        if dropped > 0 {
            let contents = store.contents
            let range = side == .loadPrevious ? 0..<applied : (contents.count - applied)..<contents.count
            kept = range.map { contents[$0] }
        }
        journal.recordPage(page, kept: kept, at: side)
    }

    /// Puts the new items of a first page at the list's head when the page shares an id with the
    /// list: the items before the first known id (``RefreshMode/mergeAtHead``).
    /// - Returns: The items prepended and the rest of the page, left out; `nil` when the page
    ///   shares no id with the list (then nothing changed).
    @inlinable func mergeAtHead(_ page: Page<Item, Cursor>) -> (applied: Int, dropped: Int)? {
        let contents = store.contents
        guard let identities, let firstKnown = page.items.firstIndex(where: { identities.contains($0, in: contents) }) else {
            return nil
        }
        let (kept, _) = withoutDuplicates(Array(page.items[..<firstKnown]), at: .start)
        let dropped = page.items.count - kept.count
        if dropped > 0 {
            broadcaster.publish(.duplicatesDropped(side: .refresh, count: dropped))
        }
        store.prepend(contentsOf: kept)
        return (kept.count, dropped)
    }

    /// Drops the items of the pages the bound dropped (``FeedStateMachine/Trim``), at one end
    /// or both.
    @inlinable func dropPages(_ trim: Machine.Trim) {
        dropPages(trim.pages, items: trim.items, atStart: trim.atStart)
        dropPages(trim.otherPages, items: trim.otherItems, atStart: !trim.atStart)
        if trim.keptOverBound {
            broadcaster.publish(.pagesKeptOverBound(side: trim.atStart ? .loadPrevious : .loadMore, itemCount: store.count))
        }
    }

    /// Drops the items of `pages` pages holding `items` items at one end: their ids leave the
    /// duplicate filter, then the store lets them go.
    @inlinable func dropPages(_ pages: Int, items: Int, atStart: Bool) {
        guard pages > 0 else { return }
        if items > 0, let identities {
            let contents = store.contents
            let offset = contents.counts.logicalOffset
            let dropped = atStart ? 0..<items : (contents.count - items)..<contents.count
            // An item removed by an edit left already (its id may be back since).
            let skipping = overlay?.removed.positions(from: dropped.lowerBound + offset, to: dropped.upperBound + offset) ?? []
            identities.remove(storeIndices: dropped, skipping: skipping, in: contents)
        }
        if atStart { store.dropFirst(items) } else { store.dropLast(items) }
        if let overlay { self.overlay = Self.overlayTrimmed(overlay, keepingWithin: store.contents.counts) }
        _sessionJournal?.recordDrop(pages: pages, items: items, atStart: atStart)
        broadcaster.publish(.pagesDropped(side: atStart ? .loadPrevious : .loadMore, pages: pages, items: items))
    }

    /// Publishes the store as the next snapshot: a new generation when `replacing` (a refresh,
    /// even to an empty list; ``FeedChange/reloaded(_:)`` with `reloaded`), else only if the
    /// list changed since the latest snapshot, with the change between them.
    @inlinable func publishList(replacing: Bool, reloaded: FeedAnchorMove? = nil) {
        let contents = store.contents
        let change: FeedChange
        if replacing {
            change = reloaded.map { .reloaded($0) } ?? .replaced
        } else {
            // The counts alone, as published: a view would retain its tables.
            let previous = published.counts
            let current = overlay?.visibleCounts(of: contents) ?? contents.counts
            guard current != previous else { return }
            change = current.change(since: previous)
        }
        let snapshot = FeedSnapshot(
            version: published.version + 1,
            generation: replacing ? published.generation + 1 : published.generation,
            change: change,
            contents: contents,
            overlay: overlay)
        published = _PublishedList(snapshot)
        broadcaster.publish(snapshot)
        _listObservers?.record(snapshot)
    }

    /// The items whose id is not yet in the list, and how many were dropped; the kept items
    /// must then go into the store at `side`.
    @inlinable func withoutDuplicates(_ items: [Item], at side: _IdentityFilter<Item>._Side) -> (kept: [Item], dropped: Int) {
        guard let identities else { return (items, 0) }
        return identities.recordNew(items, at: side, in: store.contents)
    }

    /// A fetch task's answer, delivered through a hop onto the actor.
    @inlinable func fetchDelivered(_ id: LoadID, side: FeedSide, attempt: Int, step: Int, _ answer: FetchAnswer) {
        acceptInTurn(ArrivedAnswer(id: id, side: side, attempt: attempt, step: step, answer: answer))
    }

    /// Feeds a fetch's answer to the machine and carries out what it says (or reports the answer
    /// as stale). Returns the answer of a fetch this launched, when its source gave it at once.
    @inlinable func accept(_ arrived: consuming ArrivedAnswer) -> ArrivedAnswer? {
        var actions = takeActionBuffer()
        let accepted = switch arrived.answer {
        case .success(let page):
            machine.fetchSucceeded(arrived.id, attempt: arrived.attempt, step: arrived.step, page: page, into: &actions)
        case .failure(let error):
            machine.fetchFailed(arrived.id, attempt: arrived.attempt, step: arrived.step, error: error, into: &actions)
        }
        let next = perform(&actions)
        giveBack(&actions)
        if !accepted {
            if case .failure(let error) = arrived.answer, error is CancellationError {
                broadcaster.publish(.fetchCancelled(side: arrived.side, attempt: arrived.attempt))
            } else {
                broadcaster.publish(.staleResultDiscarded(
                    side: arrived.side, attempt: arrived.attempt, succeeded: arrived.answer.isSuccess))
            }
        }
        return next
    }

    @inlinable func timerFired(_ id: LoadID, attempt: Int, step: Int, isTimeout: Bool) {
        guard isTimeout else {
            run { $0.backoffElapsed(id, attempt: attempt, into: &$1) }
            return
        }
        let side = inMachine { $0.side(of: id) }
        if run({ $0.timeoutElapsed(id, attempt: attempt, step: step, into: &$1) }), let side {
            broadcaster.publish(.timedOut(side: side, attempt: attempt))
        }
    }

    /// A timer's clock threw without the timer being cancelled: the load ends as failed.
    @inlinable func timerFailed(_ id: LoadID, attempt: Int, error: any Error) {
        run { $0.clockFailed(id, attempt: attempt, error: error, into: &$1) }
    }
}
