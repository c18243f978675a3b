/// Fans the controller's outputs out to any number of subscribers, each with its own stream.
///
/// Subscribing is synchronous and needs no hop to the actor, so `controller.snapshots` works
/// from any context and a subscription exists as soon as the property returns. Snapshot and
/// status streams keep only the newest value (a slow reader skips to the latest); event
/// streams keep every event.
final class FeedBroadcaster<Item: Sendable>: Sendable {
    private struct State {
        var snapshot: FeedSnapshot<Item>
        var status: FeedStatus
        var loadingSides: [FeedSide] = []
        var snapshotSubscribers: [UInt64: AsyncStream<FeedSnapshot<Item>>.Continuation] = [:]
        var statusSubscribers: [UInt64: AsyncStream<FeedStatus>.Continuation] = [:]
        var eventSubscribers: [UInt64: AsyncStream<FeedEvent>.Continuation] = [:]
        var diagnosticSubscribers: [UInt64: AsyncStream<FeedDiagnostic>.Continuation] = [:]
        var nextSubscriberID: UInt64 = 0
        var isFinished = false
    }

    private let state: Locked<State>

    init(snapshot: FeedSnapshot<Item>, status: FeedStatus, loadingSides: [FeedSide]) {
        state = Locked(State(snapshot: snapshot, status: status, loadingSides: loadingSides))
    }

    // MARK: Subscribing

    func subscribeToSnapshots() -> AsyncStream<FeedSnapshot<Item>> {
        subscribe(\.snapshotSubscribers, bufferingPolicy: .bufferingNewest(1), replaysAfterFinish: true) {
            [$0.snapshot]
        }
    }

    func subscribeToStatuses() -> AsyncStream<FeedStatus> {
        subscribe(\.statusSubscribers, bufferingPolicy: .bufferingNewest(1), replaysAfterFinish: true) {
            [$0.status]
        }
    }

    /// A late subscriber first gets `began` for each side in flight, so that for it too every
    /// `ended` follows a `began`.
    func subscribeToEvents() -> AsyncStream<FeedEvent> {
        subscribe(\.eventSubscribers, bufferingPolicy: .unbounded, replaysAfterFinish: false) {
            $0.loadingSides.map(FeedEvent.began)
        }
    }

    func subscribeToDiagnostics() -> AsyncStream<FeedDiagnostic> {
        subscribe(\.diagnosticSubscribers, bufferingPolicy: .unbounded, replaysAfterFinish: false) { _ in [] }
    }

    /// Makes a stream, yields what `initialValues` gives under the lock (so no publish can come
    /// between) and registers it in `subscribers`. After ``finish(finalStatus:)`` the stream
    /// gets the initial values only if `replaysAfterFinish`, and finishes at once.
    private func subscribe<Element: Sendable>(
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
            continuation.onTermination = { [weak self] _ in
                self?.state.withLock { _ = $0[keyPath: subscribers].removeValue(forKey: id) }
            }
            return false
        }
        if finished { continuation.finish() }
        return stream
    }

    /// The number of live subscriptions of each kind, for tests and diagnostics.
    var subscriberCounts: (snapshots: Int, statuses: Int, events: Int) {
        state.withLock { ($0.snapshotSubscribers.count, $0.statusSubscribers.count, $0.eventSubscribers.count) }
    }

    var latestSnapshot: FeedSnapshot<Item> { state.withLock { $0.snapshot } }
    var latestStatus: FeedStatus { state.withLock { $0.status } }

    // MARK: Publishing (called by the controller only, so in order)

    // `yield` never calls `onTermination`, so yielding under the lock cannot re-enter it;
    // `finish()` does call it, so ``finish(finalStatus:)`` finishes outside the lock.

    func publish(_ snapshot: FeedSnapshot<Item>) {
        state.withLock { state in
            guard !state.isFinished else { return }
            state.snapshot = snapshot
            for continuation in state.snapshotSubscribers.values { continuation.yield(snapshot) }
        }
    }

    func publish(_ status: FeedStatus) {
        state.withLock { state in
            guard !state.isFinished, state.status != status else { return }
            state.status = status
            for continuation in state.statusSubscribers.values { continuation.yield(status) }
        }
    }

    func publish(_ diagnostic: FeedDiagnostic) {
        state.withLock { state in
            guard !state.isFinished else { return }
            for continuation in state.diagnosticSubscribers.values { continuation.yield(diagnostic) }
        }
    }

    func publish(_ event: FeedEvent) {
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
    func finish(finalStatus: FeedStatus) {
        let subscribers = state.withLock { state -> (
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
            defer {
                state.snapshotSubscribers = [:]
                state.statusSubscribers = [:]
                state.eventSubscribers = [:]
                state.diagnosticSubscribers = [:]
            }
            return (Array(state.snapshotSubscribers.values), Array(state.statusSubscribers.values),
                    Array(state.eventSubscribers.values), Array(state.diagnosticSubscribers.values))
        }
        guard let subscribers else { return }
        subscribers.snapshots.forEach { $0.finish() }
        subscribers.statuses.forEach { $0.finish() }
        subscribers.events.forEach { $0.finish() }
        subscribers.diagnostics.forEach { $0.finish() }
    }
}
