/// Fans the controller's outputs out to any number of subscribers, each with its own stream.
///
/// Subscribing is synchronous and needs no hop to the actor, so `controller.snapshots` works
/// from any context and a subscription exists as soon as the property returns. Snapshot and
/// status streams keep only the newest value (a slow reader skips to the latest); event
/// streams keep every event.
///
/// Snapshots reach up to ``directSnapshotSubscribers`` subscribers straight from the publishing
/// call. Beyond that, the broadcaster switches for good to a fan-out task: publishing only
/// stores the snapshot and wakes the task, which hands the newest snapshot to every subscriber
/// in rounds. Resuming a waiting subscriber costs a task wake-up each, so with a hundred
/// subscribers the controller would otherwise spend most of each page waking them; with the
/// task it goes on loading while they catch up, and each subscriber gets the newest list (the
/// latest-wins promise of the stream), never an older one after a newer one.
@usableFromInline final class FeedBroadcaster<Item: Sendable>: Sendable {
    @usableFromInline struct State {
        @usableFromInline var snapshot: FeedSnapshot<Item>
        @usableFromInline var status: FeedStatus
        @usableFromInline var loadingSides: [FeedSide] = []
        @usableFromInline var snapshotSubscribers: [UInt64: AsyncStream<FeedSnapshot<Item>>.Continuation] = [:]
        @usableFromInline var statusSubscribers: [UInt64: AsyncStream<FeedStatus>.Continuation] = [:]
        @usableFromInline var eventSubscribers: [UInt64: AsyncStream<FeedEvent>.Continuation] = [:]
        @usableFromInline var diagnosticSubscribers: [UInt64: AsyncStream<FeedDiagnostic>.Continuation] = [:]
        @usableFromInline var nextSubscriberID: UInt64 = 0
        @usableFromInline var isFinished = false
        /// Wakes the fan-out task, once snapshots go through it.
        @usableFromInline var fanOutSignal: AsyncStream<Void>.Continuation?
        /// Whether the fan-out task has a round to run that it has not started.
        @usableFromInline var fanOutPending = false
        /// Subscribers that joined in fan-out mode, with the version their subscription started
        /// with: a round does not hand them that version (or an older one) again.
        @usableFromInline var joinedVersions: [UInt64: UInt64] = [:]
        /// After ``finish(finalStatus:)`` in fan-out mode: the snapshot subscribers that the
        /// fan-out task still owes the last list and the end of their stream.
        @usableFromInline var closingSnapshotSubscribers: [UInt64: AsyncStream<FeedSnapshot<Item>>.Continuation] = [:]

        @usableFromInline init(snapshot: FeedSnapshot<Item>, status: FeedStatus, loadingSides: [FeedSide]) {
            self.snapshot = snapshot
            self.status = status
            self.loadingSides = loadingSides
        }
    }

    /// The most snapshot subscribers the publishing call serves itself; see the type's notes.
    @usableFromInline static var directSnapshotSubscribers: Int { 8 }

    @usableFromInline let state: Locked<State>

    @usableFromInline init(snapshot: FeedSnapshot<Item>, status: FeedStatus, loadingSides: [FeedSide]) {
        state = Locked(State(snapshot: snapshot, status: status, loadingSides: loadingSides))
    }

    // MARK: Subscribing

    @inlinable func subscribeToSnapshots() -> AsyncStream<FeedSnapshot<Item>> {
        subscribe(\.snapshotSubscribers, bufferingPolicy: .bufferingNewest(1), replaysAfterFinish: true) {
            [$0.snapshot]
        }
    }

    @inlinable func subscribeToStatuses() -> AsyncStream<FeedStatus> {
        subscribe(\.statusSubscribers, bufferingPolicy: .bufferingNewest(1), replaysAfterFinish: true) {
            [$0.status]
        }
    }

    /// A late subscriber first gets `began` for each side in flight, so that for it too every
    /// `ended` follows a `began`.
    @inlinable func subscribeToEvents() -> AsyncStream<FeedEvent> {
        subscribe(\.eventSubscribers, bufferingPolicy: .unbounded, replaysAfterFinish: false) {
            $0.loadingSides.map(FeedEvent.began)
        }
    }

    @inlinable func subscribeToDiagnostics() -> AsyncStream<FeedDiagnostic> {
        subscribe(\.diagnosticSubscribers, bufferingPolicy: .unbounded, replaysAfterFinish: false) { _ in [] }
    }

    /// Makes a stream, yields what `initialValues` gives under the lock (so no publish can come
    /// between) and registers it in `subscribers`. After ``finish(finalStatus:)`` the stream
    /// gets the initial values only if `replaysAfterFinish`, and finishes at once.
    @inlinable func subscribe<Element: Sendable>(
        _ subscribers: WritableKeyPath<State, [UInt64: AsyncStream<Element>.Continuation]> & Sendable,
        bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy,
        replaysAfterFinish: Bool,
        initialValues: (State) -> [Element]
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: bufferingPolicy)
        let finished = state.withLock { state -> Bool in
            if state.isFinished && !replaysAfterFinish { return true }
            for value in initialValues(state) { continuation.yield(value) }
            guard !state.isFinished else { return true }
            let id = state.nextSubscriberID
            state.nextSubscriberID += 1
            state[keyPath: subscribers][id] = continuation
            if state.fanOutSignal != nil, Element.self == FeedSnapshot<Item>.self {
                state.joinedVersions[id] = state.snapshot.version
            }
            continuation.onTermination = { [weak self] _ in
                self?.state.withLock { _ = $0[keyPath: subscribers].removeValue(forKey: id) }
            }
            return false
        }
        if finished { continuation.finish() }
        return stream
    }

    /// The number of live subscriptions of each kind, for tests and diagnostics.
    @inlinable var subscriberCounts: (snapshots: Int, statuses: Int, events: Int) {
        state.withLock { ($0.snapshotSubscribers.count, $0.statusSubscribers.count, $0.eventSubscribers.count) }
    }

    @inlinable var latestSnapshot: FeedSnapshot<Item> { state.withLock { $0.snapshot } }
    @inlinable var latestStatus: FeedStatus { state.withLock { $0.status } }

    // MARK: Publishing (called by the controller only, so in order)

    // `yield` never calls `onTermination`, so yielding under the lock cannot re-enter it;
    // `finish()` does call it, so ``finish(finalStatus:)`` finishes outside the lock.

    @inlinable func publish(_ snapshot: FeedSnapshot<Item>) {
        let signal = state.withLock { state -> AsyncStream<Void>.Continuation? in
            guard !state.isFinished else { return nil }
            state.snapshot = snapshot
            if state.fanOutSignal == nil && state.snapshotSubscribers.count <= Self.directSnapshotSubscribers {
                for continuation in state.snapshotSubscribers.values { continuation.yield(snapshot) }
                return nil
            }
            if state.fanOutSignal == nil { startFanOut(&state) }
            guard !state.fanOutPending else { return nil } // the next round takes this one too
            state.fanOutPending = true
            return state.fanOutSignal
        }
        signal?.yield(())
    }

    /// Switches snapshot delivery to a fan-out task, for good (called under the lock).
    @usableFromInline func startFanOut(_ state: inout State) {
        let (signals, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        state.fanOutSignal = signal
        Task { [self] in
            var delivered: UInt64? // nothing handed out by the task yet
            for await _ in signals {
                delivered = fanOutRound(after: delivered)
            }
            _ = fanOutRound(after: delivered) // the last list, then the end of every stream
        }
    }

    /// Hands the newest snapshot, if newer than `delivered`, to every subscriber that does not
    /// have it yet; after ``finish(finalStatus:)``, also finishes every snapshot stream.
    /// Returns the version handed out.
    @usableFromInline func fanOutRound(after delivered: UInt64?) -> UInt64 {
        let (snapshot, receivers, finished) = state.withLock { state in
            state.fanOutPending = false
            let snapshot = state.snapshot
            let audience = state.isFinished ? state.closingSnapshotSubscribers : state.snapshotSubscribers
            var receivers: [AsyncStream<FeedSnapshot<Item>>.Continuation] = []
            if delivered.map({ snapshot.version > $0 }) ?? true {
                receivers.reserveCapacity(audience.count)
                for (id, continuation) in audience {
                    if let joined = state.joinedVersions[id] {
                        if joined >= snapshot.version { continue }
                        state.joinedVersions[id] = nil
                    }
                    receivers.append(continuation)
                }
            }
            var finished: [AsyncStream<FeedSnapshot<Item>>.Continuation] = []
            if state.isFinished {
                finished = Array(audience.values)
                state.closingSnapshotSubscribers = [:]
                state.joinedVersions = [:]
            }
            return (snapshot, receivers, finished)
        }
        for continuation in receivers { continuation.yield(snapshot) }
        for continuation in finished { continuation.finish() }
        return max(delivered ?? 0, snapshot.version)
    }

    @inlinable func publish(_ status: FeedStatus) {
        state.withLock { state in
            guard !state.isFinished, state.status != status else { return }
            state.status = status
            for continuation in state.statusSubscribers.values { continuation.yield(status) }
        }
    }

    @inlinable func publish(_ diagnostic: FeedDiagnostic) {
        state.withLock { state in
            guard !state.isFinished else { return }
            for continuation in state.diagnosticSubscribers.values { continuation.yield(diagnostic) }
        }
    }

    @inlinable func publish(_ event: FeedEvent) {
        state.withLock { state in
            guard !state.isFinished else { return }
            switch event {
            case .began(let side): state.loadingSides.append(side)
            case .ended(let side, _): state.loadingSides.removeAll { $0 == side }
            }
            for continuation in state.eventSubscribers.values { continuation.yield(event) }
        }
    }

    /// Publishes `finalStatus` and finishes every stream; later subscriptions get the latest
    /// snapshot and status and finish at once.
    @inlinable func finish(finalStatus: FeedStatus) {
        let subscribers = state.withLock { state -> (
            fanOutSignal: AsyncStream<Void>.Continuation?,
            snapshots: [AsyncStream<FeedSnapshot<Item>>.Continuation],
            statuses: [AsyncStream<FeedStatus>.Continuation],
            events: [AsyncStream<FeedEvent>.Continuation],
            diagnostics: [AsyncStream<FeedDiagnostic>.Continuation]
        )? in
            guard !state.isFinished else { return nil }
            state.isFinished = true
            if state.status != finalStatus {
                state.status = finalStatus
                for continuation in state.statusSubscribers.values { continuation.yield(finalStatus) }
            }
            // With a fan-out task, it hands out the last list and then finishes the snapshot
            // streams itself, so that no subscriber misses the list the feed closed with.
            let fanOutSignal = state.fanOutSignal
            if fanOutSignal != nil { state.closingSnapshotSubscribers = state.snapshotSubscribers }
            defer {
                state.snapshotSubscribers = [:]
                state.statusSubscribers = [:]
                state.eventSubscribers = [:]
                state.diagnosticSubscribers = [:]
            }
            return (fanOutSignal, fanOutSignal == nil ? Array(state.snapshotSubscribers.values) : [],
                    Array(state.statusSubscribers.values),
                    Array(state.eventSubscribers.values), Array(state.diagnosticSubscribers.values))
        }
        guard let subscribers else { return }
        subscribers.fanOutSignal?.finish()
        subscribers.snapshots.forEach { $0.finish() }
        subscribers.statuses.forEach { $0.finish() }
        subscribers.events.forEach { $0.finish() }
        subscribers.diagnostics.forEach { $0.finish() }
    }
}
