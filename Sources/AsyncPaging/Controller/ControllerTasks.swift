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
/// A struct around its lock: the records, the owner included, live in the lock's one heap
/// object (a class around them cost a controller another 48 bytes), and every access to them,
/// from any thread, takes the lock.
@usableFromInline struct ControllerTasks<Answer: Sendable, Owner: AnyObject & Sendable>: Sendable {
    @usableFromInline struct Running {
        @usableFromInline var loadID: UInt64
        @usableFromInline var fetch: Task<Void, Never>?
        @usableFromInline var timer: Task<Void, Never>?

        @inlinable init(loadID: UInt64) {
            self.loadID = loadID
        }
    }

    /// The records of the loads in flight: at most one per side. The first lives in the parts,
    /// so a feed that loads one side at a time allocates nothing for its records.
    @usableFromInline struct Records {
        /// Everything but the owner, out of line (``Parts``): made when first used — a load's
        /// launch, a request sent, rows reported — and kept, so that a controller that never
        /// loads carries a reference instead of ~180 bytes, and one that loads allocates it once.
        /// The records live in one lock and are never copied, so the object has one owner.
        @usableFromInline var parts: Parts?
        /// The controller, for its tasks: they reach it without keeping it alive. (Capturing
        /// `[weak self]` in each task would cost a heap box per task.) Set when the first task
        /// starts (``ControllerTasks/adopt(_:)``), not when the controller is made: a weak
        /// reference gives the controller a side table (48 bytes), which a controller that
        /// never loads need not pay.
        @usableFromInline weak var owner: Owner?

        @inlinable init() {}

        /// The records' parts, made on first use.
        ///
        /// `@unchecked Sendable` and `@exclusivity(unchecked)` are safe: the object is reached
        /// only through ``Records/parts``, inside the records' lock (``Locked``), so every
        /// access is mutually exclusive and ordered, and each access through the records'
        /// accessors is itself an access of the records (checked statically).
        @usableFromInline final class Parts: @unchecked Sendable {
            @exclusivity(unchecked) @usableFromInline var first: Running?
            /// The load id of `first`, 0 when there is none (ids start at 1): compared without
            /// copying the record out of its optional.
            @exclusivity(unchecked) @usableFromInline var firstLoadID: UInt64 = 0
            @exclusivity(unchecked) @usableFromInline var others: [Running] = []
            /// The fetch being launched (load id and attempt), until its launch ends: one at a
            /// time, since launches run on the controller. Kept apart from the records, so that a
            /// record stays three words and moves cheaply.
            @exclusivity(unchecked) @usableFromInline var launchingLoadID: UInt64 = 0
            @exclusivity(unchecked) @usableFromInline var launchingAttempt = 0
            /// That fetch's answer, when it came before the launch ended.
            @exclusivity(unchecked) @usableFromInline var answeredInPlace: Answer?
            /// Requests sent with ``FeedController/send(_:)``, not yet carried out.
            @exclusivity(unchecked) @usableFromInline var requests: [FeedRequest] = []
            /// Whether a task is carrying out `requests` (it stops when they run out).
            @exclusivity(unchecked) @usableFromInline var isDrainingRequests = false
            /// The rows on screen last reported (``FeedController/reportVisibleRows(_:prefetchDistance:)``),
            /// widened by the prefetch distance, as logical positions: what the bound keeps.
            @exclusivity(unchecked) @usableFromInline var visibleRows: _VisibleRows?
            /// The jump threshold of the reload policy (``FeedController/setReloadPolicy(_:)``), read
            /// where rows are reported; `nil`: no jumps.
            @exclusivity(unchecked) @usableFromInline var jumpThreshold: Int?
            /// The tasks following invalidations (``FeedController/followInvalidations(_:)``), and
            /// whether they were stopped for good (close).
            @exclusivity(unchecked) @usableFromInline var invalidationFollowers: [Task<Void, Never>] = []
            @exclusivity(unchecked) @usableFromInline var stoppedFollowing = false

            @inlinable init() {}
        }

        /// The parts, made if there are none.
        @inlinable mutating func madeParts() -> Parts {
            if let parts { return parts }
            let made = Parts()
            parts = made
            return made
        }

        // Reads go through the reference (an unused part reads as its empty value); a write makes
        // the object only for a value other than the empty one; `_modify` writes in place.

        @inlinable var first: Running? {
            get { parts?.first }
            set { if parts != nil || newValue != nil { madeParts().first = newValue } }
            _modify { yield &madeParts().first }
        }

        @inlinable var firstLoadID: UInt64 {
            get { parts?.firstLoadID ?? 0 }
            set { if parts != nil || newValue != 0 { madeParts().firstLoadID = newValue } }
            _modify { yield &madeParts().firstLoadID }
        }

        @inlinable var others: [Running] {
            get { parts?.others ?? [] }
            set { if parts != nil || !newValue.isEmpty { madeParts().others = newValue } }
            _modify { yield &madeParts().others }
        }

        @inlinable var launchingLoadID: UInt64 {
            get { parts?.launchingLoadID ?? 0 }
            set { if parts != nil || newValue != 0 { madeParts().launchingLoadID = newValue } }
            _modify { yield &madeParts().launchingLoadID }
        }

        @inlinable var launchingAttempt: Int {
            get { parts?.launchingAttempt ?? 0 }
            set { if parts != nil || newValue != 0 { madeParts().launchingAttempt = newValue } }
            _modify { yield &madeParts().launchingAttempt }
        }

        @inlinable var answeredInPlace: Answer? {
            get { parts?.answeredInPlace }
            set { if parts != nil || newValue != nil { madeParts().answeredInPlace = newValue } }
            _modify { yield &madeParts().answeredInPlace }
        }

        @inlinable var requests: [FeedRequest] {
            get { parts?.requests ?? [] }
            set { if parts != nil || !newValue.isEmpty { madeParts().requests = newValue } }
            _modify { yield &madeParts().requests }
        }

        @inlinable var isDrainingRequests: Bool {
            get { parts?.isDrainingRequests ?? false }
            set { if parts != nil || newValue { madeParts().isDrainingRequests = newValue } }
            _modify { yield &madeParts().isDrainingRequests }
        }

        @inlinable var visibleRows: _VisibleRows? {
            get { parts?.visibleRows }
            set { if parts != nil || newValue != nil { madeParts().visibleRows = newValue } }
            _modify { yield &madeParts().visibleRows }
        }

        @inlinable var jumpThreshold: Int? {
            get { parts?.jumpThreshold }
            set { if parts != nil || newValue != nil { madeParts().jumpThreshold = newValue } }
            _modify { yield &madeParts().jumpThreshold }
        }

        @inlinable var invalidationFollowers: [Task<Void, Never>] {
            get { parts?.invalidationFollowers ?? [] }
            set { if parts != nil || !newValue.isEmpty { madeParts().invalidationFollowers = newValue } }
            _modify { yield &madeParts().invalidationFollowers }
        }

        @inlinable var stoppedFollowing: Bool {
            get { parts?.stoppedFollowing ?? false }
            set { if parts != nil || newValue { madeParts().stoppedFollowing = newValue } }
            _modify { yield &madeParts().stoppedFollowing }
        }

        /// Sets ``owner`` if it is not set yet.
        @inlinable mutating func adopt(_ owner: Owner) {
            // A weak load, not a flag: the flag's word made the lock's object 16 bytes larger.
            if self.owner == nil { self.owner = owner }
        }

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

    @inlinable init() {}

    /// The controller, for its tasks (``Records/owner``); `nil` once it is released.
    @inlinable var owner: Owner? { running.withLock { $0.owner } }

    /// Sets the owner if it is not set yet; call before starting a task that reaches it (the
    /// task may run, and read it, before the call that starts it returns).
    @inlinable func adopt(_ owner: Owner) {
        running.withLock { $0.adopt(owner) }
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
        nonmutating set { running.withLock { $0.visibleRows = newValue } }
    }

    /// Marks the fetch of `attempt` of `loadID` as being launched: until ``endLaunch(_:loadID:)``,
    /// its answer is handed over in place.
    @inlinable func beginLaunch(loadID: UInt64, attempt: Int, owner: Owner) {
        running.withLock { records in
            records.adopt(owner)
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
        running.withLock { $0.withRecord(loadID) { $0.fetch = task } }
    }

    /// Records the timer task of `loadID`.
    @inlinable func setTimer(_ task: Task<Void, Never>, for loadID: UInt64) {
        running.withLock { $0.withRecord(loadID) { $0.timer = task } }
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
            // No array when no load runs (a controller released idle).
            let all = records.firstLoadID == 0 && records.others.isEmpty ? [] : records.removeAll()
            return (all, records.invalidationFollowers)
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
        nonmutating set { running.withLock { $0.jumpThreshold = newValue } }
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
}
