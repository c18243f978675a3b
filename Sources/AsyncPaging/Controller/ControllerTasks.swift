/// What a controller shares with its tasks: the tasks of the loads in flight — each one's fetch
/// and timer (a timeout or a retry backoff) — with the hand-over of a fetch that answers while
/// it is still being launched; the requests sent from any context (``FeedController/send(_:)``)
/// that a task carries out in order; and a weak reference back to the controller.
///
/// Kept behind one lock (``Locked``) in a `let` so that the controller's nonisolated initializer
/// can hand over the initial load's task, a fetch task can hand its answer over from any
/// thread, `send` can queue a request from any thread, and the controller's `deinit` can cancel
/// whatever is still running. (The requests had a lock of their own and the weak reference an
/// object of its own: together 136 heap bytes and two allocations a controller.)
///
/// The hand-over: the controller starts a fetch with `Task.immediate`, so the fetch runs on the
/// controller's thread until it first suspends. A source that answers without suspending (a
/// cache, an in-memory page) has answered before the launch returns; its task then leaves the
/// answer here (``answerInPlace(_:loadID:attempt:)``) and the controller takes it when the
/// launch ends (``endLaunch(_:loadID:)``), instead of the task hopping back onto the actor. The
/// lock decides which of the two carries an answer, so exactly one does, on whichever thread
/// the task finished.
///
/// `@unchecked Sendable` is safe: `running` is a `let` whose value is reached only inside its
/// lock, and `owner` is written exactly once, by ``setOwner(_:)`` in the owner's initializer,
/// before the owner (and so this object) is shared with any task or thread; every later access
/// only reads it, after a synchronizing hand-off (task creation, an actor hop) that orders the
/// write before the read. Weak loads are atomic in the Swift runtime, so the reference being
/// cleared when the owner is released needs no lock either.
@usableFromInline final class ControllerTasks<Answer: Sendable, Owner: AnyObject & Sendable>: @unchecked Sendable {
    @usableFromInline struct Running {
        @usableFromInline var loadID: UInt64
        @usableFromInline var fetch: Task<Void, Never>?
        @usableFromInline var timer: Task<Void, Never>?

        @inlinable init(loadID: UInt64) {
            self.loadID = loadID
        }
    }

    /// The records of the loads in flight: at most one per side. The first lives inline, so a
    /// feed that loads one side at a time allocates nothing for its records.
    @usableFromInline struct Records {
        @usableFromInline var first: Running?
        /// The load id of `first`, 0 when there is none (ids start at 1): compared without
        /// copying the record out of its optional.
        @usableFromInline var firstLoadID: UInt64 = 0
        @usableFromInline var others: [Running] = []
        /// The fetch being launched (load id and attempt), until its launch ends: one at a time,
        /// since launches run on the controller. Kept apart from the records, so that a record
        /// stays three words and moves cheaply.
        @usableFromInline var launchingLoadID: UInt64 = 0
        @usableFromInline var launchingAttempt = 0
        /// That fetch's answer, when it came before the launch ended.
        @usableFromInline var answeredInPlace: Answer?
        /// Requests sent with ``FeedController/send(_:)``, not yet carried out.
        @usableFromInline var requests: [FeedRequest] = []
        /// Whether a task is carrying out `requests` (it stops when they run out).
        @usableFromInline var isDrainingRequests = false
        /// The rows on screen last reported (``FeedController/reportVisibleRows(_:prefetchDistance:)``),
        /// widened by the prefetch distance, as logical positions: what the bound keeps.
        @usableFromInline var visibleRows: _VisibleRows?
        /// The jump threshold of the reload policy (``FeedController/setReloadPolicy(_:)``), read
        /// where rows are reported; `nil`: no jumps.
        @usableFromInline var jumpThreshold: Int?
        /// The tasks following invalidations (``FeedController/followInvalidations(_:)``), and
        /// whether they were stopped for good (close).
        @usableFromInline var invalidationFollowers: [Task<Void, Never>] = []
        @usableFromInline var stoppedFollowing = false

        @inlinable init() {}

        /// Runs `body` on the record of `loadID`, creating it if there is none.
        @inlinable mutating func withRecord<Result>(_ loadID: UInt64, _ body: (inout Running) -> Result) -> Result {
            if firstLoadID == loadID { return body(&first!) }
            if let index = others.firstIndex(where: { $0.loadID == loadID }) { return body(&others[index]) }
            if firstLoadID == 0 {
                first = Running(loadID: loadID)
                firstLoadID = loadID
                return body(&first!)
            }
            others.append(Running(loadID: loadID))
            return body(&others[others.count - 1])
        }

        /// Removes and returns the record of `loadID`.
        @inlinable mutating func remove(_ loadID: UInt64) -> Running? {
            if firstLoadID == loadID {
                defer {
                    first = others.popLast()
                    firstLoadID = first?.loadID ?? 0
                }
                return first
            }
            guard let index = others.firstIndex(where: { $0.loadID == loadID }) else { return nil }
            return others.remove(at: index)
        }

        /// Removes and returns every record.
        @inlinable mutating func removeAll() -> [Running] {
            defer {
                first = nil
                firstLoadID = 0
                others = []
            }
            return (first.map { [$0] } ?? []) + others
        }
    }

    @usableFromInline let running = Locked<Records>(Records())

    /// The controller, for its tasks: they reach it without keeping it alive. (Capturing
    /// `[weak self]` in each task would cost a heap box per task.)
    @usableFromInline weak var owner: Owner?

    @inlinable init() {}

    /// Sets the owner; call once, in its initializer, before this object is shared.
    @usableFromInline func setOwner(_ owner: Owner) {
        self.owner = owner
    }

    /// Queues `request`; `true` if no task is carrying out requests, so the caller must start one.
    @inlinable func post(_ request: FeedRequest) -> Bool {
        running.withLock { records in
            records.requests.append(request)
            defer { records.isDrainingRequests = true }
            return !records.isDrainingRequests
        }
    }

    /// The next request to carry out, or `nil` when none is left (the drain then ends: the next
    /// ``post(_:)`` starts another).
    @inlinable func nextRequest() -> FeedRequest? {
        running.withLock { records in
            if records.requests.isEmpty {
                records.isDrainingRequests = false
                return nil
            }
            return records.requests.removeFirst()
        }
    }

    /// The rows on screen last reported, if any.
    @inlinable var visibleRows: _VisibleRows? {
        get { running.withLock { $0.visibleRows } }
        set { running.withLock { $0.visibleRows = newValue } }
    }

    /// Marks the fetch of `attempt` of `loadID` as being launched: until ``endLaunch(_:loadID:)``,
    /// its answer is handed over in place.
    @inlinable func beginLaunch(loadID: UInt64, attempt: Int) {
        running.withLock { records in
            records.launchingLoadID = loadID
            records.launchingAttempt = attempt
        }
    }

    /// Leaves `answer` for the launcher if the fetch of `attempt` of `loadID` is still being
    /// launched. Returns `false` when it is not: the fetch task must deliver the answer itself.
    @inlinable func answerInPlace(_ answer: Answer, loadID: UInt64, attempt: Int) -> Bool {
        running.withLock { records in
            guard records.launchingLoadID == loadID, records.launchingAttempt == attempt else { return false }
            records.answeredInPlace = answer
            return true
        }
    }

    /// Ends the launch of `loadID`'s fetch: returns the answer it left in place, or records
    /// `task` as the running fetch and returns `nil`.
    @inlinable func endLaunch(_ task: Task<Void, Never>, loadID: UInt64) -> Answer? {
        running.withLock { records in
            records.launchingLoadID = 0
            if let answer = records.answeredInPlace.take() { return answer }
            records.withRecord(loadID) { $0.fetch = task }
            return nil
        }
    }

    /// Records the fetch task of `loadID`, launched without a hand-over in place.
    @inlinable func setFetch(_ task: Task<Void, Never>, for loadID: UInt64) {
        withRunning(loadID) { $0.fetch = task }
    }

    /// Records the timer task of `loadID`.
    @inlinable func setTimer(_ task: Task<Void, Never>, for loadID: UInt64) {
        withRunning(loadID) { $0.timer = task }
    }

    /// Cancels and forgets the tasks of `loadID` (after releasing the lock).
    @inlinable func cancel(_ loadID: UInt64) {
        let tasks = running.withLock { $0.remove(loadID) }
        tasks?.fetch?.cancel()
        tasks?.timer?.cancel()
    }

    /// Cancels and forgets whatever runs, the tasks following invalidations included (none is
    /// started after this).
    @inlinable func cancelAll() {
        let (all, followers) = running.withLock { records in
            records.stoppedFollowing = true
            defer { records.invalidationFollowers = [] }
            return (records.removeAll(), records.invalidationFollowers)
        }
        for tasks in all {
            tasks.fetch?.cancel()
            tasks.timer?.cancel()
        }
        for follower in followers { follower.cancel() }
    }

    /// The rows on screen, and the jump threshold to check them against, in one lock.
    @inlinable func setVisibleRows(_ rows: _VisibleRows?) -> Int? {
        running.withLock { records in
            records.visibleRows = rows
            return records.jumpThreshold
        }
    }

    /// The jump threshold of the reload policy; `nil`: no jumps.
    @inlinable var jumpThreshold: Int? {
        get { running.withLock { $0.jumpThreshold } }
        set { running.withLock { $0.jumpThreshold = newValue } }
    }

    /// Keeps `follower` to cancel on close; `false` (and it is cancelled) after close.
    @inlinable func addInvalidationFollower(_ follower: Task<Void, Never>) -> Bool {
        let added = running.withLock { records in
            if records.stoppedFollowing { return false }
            records.invalidationFollowers.append(follower)
            return true
        }
        if !added { follower.cancel() }
        return added
    }

    /// Runs `body` on the record of `loadID`, under the lock.
    @inlinable func withRunning<Result>(_ loadID: UInt64, _ body: (inout Running) -> Result) -> Result {
        running.withLock { $0.withRecord(loadID, body) }
    }
}
