/// Fans the controller's outputs out to any number of subscribers, each with its own stream.
///
/// Subscribing is synchronous and needs no hop to the actor, so `controller.snapshots` works
/// from any context and a subscription exists as soon as the property returns. Snapshot, status
/// and load-state streams keep only the newest value (a slow reader skips to the latest); event and
/// diagnostic streams keep every value.
///
/// ## Never yield under the lock
/// Yielding to a stream can resume its reader's task, and finishing one runs its
/// `onTermination`. `Task.cancel()` runs a cancelled reader's `onTermination` while it holds
/// that task's own lock, and `onTermination` takes this broadcaster's lock to remove the
/// subscription: a yield made while holding this lock could wait on that task's lock in turn,
/// and the two threads would deadlock (the first version did, under real cancellation).
/// So every yield and finish is *decided* under the lock — appended, in order, to an outbox of
/// ``Delivery`` values — and *carried out* after the lock is released, by one drainer at a
/// time: whoever appends to an empty outbox with no drainer running drains it (see
/// ``deliver(_:)``). One drainer at a time keeps each stream's values in the order decided, so
/// a late subscriber's first value can never land after a newer one.
///
/// ## Snapshot readers, and the fan-out beyond eight readers
/// A snapshot stream is not fed by yields: its reader takes the newest snapshot under the lock
/// and waits only when it has had it (see FeedBroadcaster+Snapshots.swift), so publishing a
/// snapshot costs nothing per reader that is not waiting. With up to
/// ``directSnapshotSubscribers`` readers, the waiting ones are woken straight from the
/// publishing call. Beyond that, the broadcaster switches for good to a fan-out task: the
/// publishing call only stores the snapshot and, if a reader waits, wakes the task, which wakes
/// the waiting readers. Resuming a waiting reader costs a task wake-up each, so with a hundred
/// readers the controller would otherwise spend most of each page waking them. Each reader
/// remembers the version it returned last, so nobody gets an older list after a newer one.
@usableFromInline final class FeedBroadcaster<Item: Sendable>: Sendable {
    /// One subscription: its stream's continuation (in a ``_StreamSink``).
    @usableFromInline struct Subscription<Element: Sendable>: Sendable {
        @usableFromInline let sink: _StreamSink<Element>

        @inlinable init(_ sink: _StreamSink<Element>) {
            self.sink = sink
        }
    }

    /// A yield or finish decided under the lock, to carry out after releasing it. Its values
    /// hold each stream's continuation in a ``_StreamSink``, whose layout is known when
    /// compiled: with the continuations themselves in it (their layout is known only at run
    /// time), every copy and destroy of a delivery went through value witnesses.
    @usableFromInline enum Delivery: Sendable {
        case status(_StreamSink<FeedStatus>, FeedStatus)
        case loadStates(_StreamSink<FeedLoadStates>, FeedLoadStates)
        case event(_StreamSink<FeedEvent>, FeedEvent)
        case diagnostic(_StreamSink<FeedDiagnostic>, FeedDiagnostic)
        /// Wake a reader of ``FeedUpdates`` waiting for the next update, or a snapshot reader
        /// waiting for the next list (it reads the newest when it runs).
        case wake(UnsafeContinuation<Bool, Never>)
        /// Finish one stream (runs its `onTermination`, which takes the lock: never under it).
        case finish(@Sendable () -> Void)

        // Each yield is carried out by a function of its own that is never inlined: with the
        // yields inlined, the drain looked up the type of every kind's continuation and yield
        // result (a continuation's layout is known only at run time; each type found by
        // demangling its name) the first time it ran, whether or not a stream of that kind had
        // a subscriber (ten names, ~150,000 instructions once per process, measured with
        // callgrind). Matching a case without binding its values looks up nothing.
        @inlinable func carryOut() {
            switch self {
            case .status: yieldStatus()
            case .loadStates: yieldLoadStates()
            case .event: yieldEvent()
            case .diagnostic: yieldDiagnostic()
            case .wake(let continuation): continuation.resume(returning: true)
            case .finish(let finish): finish()
            }
        }

        @inlinable @inline(never) func yieldStatus() {
            if case .status(let sink, let value) = self { sink.continuation.yield(value) }
        }

        @inlinable @inline(never) func yieldLoadStates() {
            if case .loadStates(let sink, let value) = self { sink.continuation.yield(value) }
        }

        @inlinable @inline(never) func yieldEvent() {
            if case .event(let sink, let value) = self { sink.continuation.yield(value) }
        }

        @inlinable @inline(never) func yieldDiagnostic() {
            if case .diagnostic(let sink, let value) = self { sink.continuation.yield(value) }
        }
    }

    @usableFromInline struct State {
        @usableFromInline var snapshot: FeedSnapshot<Item>
        @usableFromInline var status: FeedStatus
        @usableFromInline var loadStates: FeedLoadStates
        @usableFromInline var loadingSides: [FeedSide] = []
        /// The snapshot readers waiting for a newer list, in the order they started waiting. A
        /// reader is here only while it waits.
        @usableFromInline var snapshotWaiters: [_FeedUpdateWaiter] = []
        @usableFromInline var statusSubscribers: [UInt64: Subscription<FeedStatus>] = .init()
        @usableFromInline var loadStateSubscribers: [UInt64: Subscription<FeedLoadStates>] = .init()
        @usableFromInline var eventSubscribers: [UInt64: Subscription<FeedEvent>] = .init()
        @usableFromInline var diagnosticSubscribers: [UInt64: Subscription<FeedDiagnostic>] = .init()
        /// The id of the next stream subscription, or of the next ``FeedUpdates`` reader that waits.
        @usableFromInline var nextSubscriberID: UInt64 = 0
        /// Deliveries decided and not yet carried out, in order.
        @usableFromInline var outbox: [Delivery] = []
        /// The emptied batch of the last drain, kept so that draining allocates nothing.
        @usableFromInline var spareOutbox: [Delivery] = []
        /// Wakes the fan-out task, once snapshots go through it. (In a box: a continuation's
        /// layout is known only at run time, and one in the state made every copy of the state,
        /// and every test of it against nil, look its type up.)
        @usableFromInline var fanOut: _FanOutSignal?
        /// The version of the update ``FeedUpdates`` readers get: grows by one each time the
        /// list, the status or the load states changed in a turn of the controller. Starts at 1,
        /// so that a new reader (at 0) gets the current update at once.
        @usableFromInline var updateVersion: UInt64 = 1
        /// The ``FeedUpdates`` readers waiting for the version after theirs, in the order they
        /// started waiting. A reader is here only while it waits. (Not generic: generic code
        /// would look its array type up at run time.)
        @usableFromInline var updateWaiters: [_FeedUpdateWaiter] = []
        // The flags last, side by side: each after an 8-byte field would take 8 bytes.
        @usableFromInline var isFinished = false
        /// Whether a thread is carrying out the outbox now.
        @usableFromInline var isDraining = false
        /// Whether the fan-out task has a round to run that it has not started.
        @usableFromInline var fanOutPending = false
        /// Whether a snapshot was published since the update version last grew, while a load was
        /// in flight: the turn's ``FeedBroadcaster/publish(_:_:)`` (the controller ends every
        /// load's turn with it) makes it one update with the states.
        @usableFromInline var updatePending = false
        /// The number of snapshot readers made and not ended (see FeedBroadcaster+Snapshots.swift).
        /// Four bytes after the flags: it fits in their padding, so the state is no larger than
        /// with the table of snapshot subscriptions it replaces.
        @usableFromInline var snapshotReaders: UInt32 = 0

        @inlinable init(snapshot: FeedSnapshot<Item>, status: FeedStatus, loadStates: FeedLoadStates, loadingSides: [FeedSide]) {
            self.snapshot = snapshot
            self.status = status
            self.loadStates = loadStates
            self.loadingSides = loadingSides
        }

        /// Returns `true` (and marks a drain running) when the outbox has work and no drainer.
        @inlinable mutating func claimDrain() -> Bool {
            guard !isDraining, !outbox.isEmpty else { return false }
            isDraining = true
            return true
        }
    }

    /// The most snapshot readers whose wake-ups the publishing call makes itself; see the type's
    /// notes.
    @usableFromInline static var directSnapshotSubscribers: Int { 8 }

    @usableFromInline let state: Locked<State>

    @inlinable init(snapshot: FeedSnapshot<Item>, status: FeedStatus, loadStates: FeedLoadStates, loadingSides: [FeedSide]) {
        state = Locked(State(snapshot: snapshot, status: status, loadStates: loadStates, loadingSides: loadingSides))
    }

    // MARK: Delivering (outside the lock)

    /// Carries out the outbox, batch by batch, until it is empty; called only by the thread that
    /// claimed the drain (a `true` from ``State/claimDrain()``).
    @inlinable func drain() {
        var batch: [Delivery] = []
        while true {
            let more = state.withLock { state -> Bool in
                if batch.capacity == 0 { swap(&batch, &state.spareOutbox) }
                guard !state.outbox.isEmpty else {
                    state.isDraining = false
                    swap(&batch, &state.spareOutbox) // kept for the next drain
                    return false
                }
                swap(&batch, &state.outbox) // the batch takes the work; the outbox, our empty buffer
                return true
            }
            guard more else { return }
            for delivery in batch { delivery.carryOut() }
            batch.removeAll(keepingCapacity: true)
        }
    }

    /// Runs `decide` under the lock, then drains if it claimed the drain.
    @inlinable func deliver(_ decide: (inout State) -> Bool) {
        if state.withLock(decide) { drain() }
    }

    // MARK: Subscribing

    @inlinable func subscribeToStatuses() -> AsyncStream<FeedStatus> {
        subscribe(
            bufferingPolicy: .bufferingNewest(1), replaysAfterFinish: true,
            register: { $0.statusSubscribers[$1] = $2 }, unregister: { $0.statusSubscribers.removeValue(forKey: $1) }
        ) { state, sink in
            .status(sink, state.status)
        }
    }

    @inlinable func subscribeToLoadStates() -> AsyncStream<FeedLoadStates> {
        subscribe(
            bufferingPolicy: .bufferingNewest(1), replaysAfterFinish: true,
            register: { $0.loadStateSubscribers[$1] = $2 }, unregister: { $0.loadStateSubscribers.removeValue(forKey: $1) }
        ) { state, sink in
            .loadStates(sink, state.loadStates)
        }
    }

    /// A late subscriber first gets `began` for each side in flight, so that for it too every
    /// `ended` follows a `began`.
    @inlinable func subscribeToEvents() -> AsyncStream<FeedEvent> {
        subscribe(
            bufferingPolicy: .unbounded, replaysAfterFinish: false,
            register: { $0.eventSubscribers[$1] = $2 }, unregister: { $0.eventSubscribers.removeValue(forKey: $1) }
        ) { state, sink in
            state.loadingSides.first.map { .event(sink, .began($0)) }
        } replayingMore: { state, sink in
            state.loadingSides.dropFirst().map { .event(sink, .began($0)) }
        }
    }

    @inlinable func subscribeToDiagnostics() -> AsyncStream<FeedDiagnostic> {
        subscribe(
            bufferingPolicy: .unbounded, replaysAfterFinish: false,
            register: { $0.diagnosticSubscribers[$1] = $2 }, unregister: { $0.diagnosticSubscribers.removeValue(forKey: $1) }
        ) { _, _ in
            nil
        }
    }

    /// Makes a stream and registers it (`register` puts it in its table), queueing its first
    /// value (`initial`, and any `replayingMore`) in the same critical section, so that no
    /// published value can come between; `unregister` takes it out when the stream ends. After
    /// ``finish(finalStatus:)`` the stream gets the first value only if `replaysAfterFinish`,
    /// and finishes at once.
    // The table is reached through two closures, not a key path: in generic code a key path
    // literal is made at run time on every call (swift_getKeyPath: ~38,000 instructions of a
    // first list's 154,000, measured with callgrind), and closures that capture nothing cost
    // nothing.
    @inlinable func subscribe<Element: Sendable>(
        bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy,
        replaysAfterFinish: Bool,
        register: (inout State, UInt64, Subscription<Element>) -> Void,
        unregister: @escaping @Sendable (inout State, UInt64) -> Subscription<Element>?,
        initial: (State, _StreamSink<Element>) -> Delivery?,
        replayingMore: (State, _StreamSink<Element>) -> [Delivery] = { _, _ in [] }
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: bufferingPolicy)
        let sink = _StreamSink(continuation)
        deliver { state in
            let first = initial(state, sink)
            if state.isFinished {
                if replaysAfterFinish, let first { state.outbox.append(first) }
                state.outbox.append(.finish { sink.continuation.finish() })
                return state.claimDrain()
            }
            if let first { state.outbox.append(first) }
            state.outbox.append(contentsOf: replayingMore(state, sink))
            let id = state.nextSubscriberID
            state.nextSubscriberID += 1
            register(&state, id, Subscription(sink))
            // The state, not a weak reference to the broadcaster: a weak reference made the
            // broadcaster's side table (an allocation per controller). The state holds the
            // continuation and the continuation this closure, a cycle that ends when the stream
            // ends (its record is removed here) or the feed finishes (every record goes).
            let locked = self.state
            continuation.onTermination = { _ in Self.unsubscribe(id, from: locked, with: unregister) }
            return state.claimDrain()
        }
        return stream
    }

    /// Removes subscription `id`; called from its stream's `onTermination`, on whatever thread
    /// ends it (a cancelled reader's, while that task holds its own lock). Takes the lock only
    /// briefly and never waits for a delivery: deliveries run outside the lock.
    @inlinable static func unsubscribe<Element: Sendable>(
        _ id: UInt64, from state: Locked<State>, with unregister: @Sendable (inout State, UInt64) -> Subscription<Element>?
    ) {
        let removed = state.withLock { unregister(&$0, id) }
        _ = consume removed // released after the lock, in case it was the last reference
    }

    /// The number of live subscriptions of each kind, for tests and diagnostics.
    @inlinable var subscriberCounts: (snapshots: Int, statuses: Int, events: Int) {
        state.withLock { (Int($0.snapshotReaders), $0.statusSubscribers.count, $0.eventSubscribers.count) }
    }

    /// The number of diagnostic subscriptions and of queued deliveries, for leak tests.
    var bookkeepingCounts: (diagnostics: Int, queuedDeliveries: Int) {
        state.withLock { ($0.diagnosticSubscribers.count, $0.outbox.count) }
    }

    @inlinable var latestSnapshot: FeedSnapshot<Item> { state.withLock { $0.snapshot } }
    @inlinable var latestStatus: FeedStatus { state.withLock { $0.status } }
    @inlinable var latestLoadStates: FeedLoadStates { state.withLock { $0.loadStates } }

    // MARK: Publishing (called by the controller only, so in order)

    @inlinable func publish(_ snapshot: FeedSnapshot<Item>) {
        var signalsFanOut = false
        deliver { state in
            guard !state.isFinished else { return false }
            state.snapshot = snapshot
            // A page's turn publishes its states after its list (its side is still loading here:
            // `ended` comes after): the update waits for them. A list published with no load in
            // flight (an edit) is an update of its own: the controller publishes no states after
            // it. (An edit made while a load is in flight waits for that load's turn: see
            // FeedBroadcaster+Updates.swift.)
            if state.loadingSides.isEmpty { state.queueUpdateWakeUps() } else { state.updatePending = true }
            if state.fanOut == nil && state.snapshotReaders <= Self.directSnapshotSubscribers {
                if state.snapshotWaiters.count != 0 { state.queueSnapshotWakeUps() }
                return state.claimDrain()
            }
            if state.snapshotWaiters.count == 0 { return state.claimDrain() } // nobody to wake
            if state.fanOut == nil { startFanOut(&state) }
            if !state.fanOutPending { // otherwise the next round takes this one too
                state.fanOutPending = true
                signalsFanOut = true
            }
            return false
        }
        if signalsFanOut { signalFanOut() }
    }

    /// Wakes the fan-out task (after the lock). Not inlined: with the signal's continuation in
    /// the publishing code, its first run looked up types by name (~50,000 instructions once
    /// per process) that only a feed with more than eight snapshot subscribers needs.
    @usableFromInline func signalFanOut() {
        let fanOut = state.withLock { $0.fanOut }
        fanOut?.signal.yield(())
    }

    /// Starts the fan-out task, which then stays (called under the lock; the task starts
    /// running only after the lock is released).
    @usableFromInline func startFanOut(_ state: inout State) {
        let (signals, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        state.fanOut = _FanOutSignal(signal)
        Task { [weak self] in
            for await _ in signals {
                guard let self else { return }
                self.deliver { state in
                    state.fanOutPending = false
                    if state.snapshotWaiters.count != 0 { state.queueSnapshotWakeUps() }
                    return state.claimDrain()
                }
            }
        }
    }

    /// Publishes the summary status and the state of each side, each only if it changed.
    @inlinable func publish(_ status: FeedStatus, _ loadStates: FeedLoadStates) {
        deliver { state in
            guard !state.isFinished else { return false }
            if state.status != status {
                state.status = status
                state.updatePending = true
                if !state.statusSubscribers.isEmpty { state.queue(status) }
            }
            if state.loadStates != loadStates {
                state.loadStates = loadStates
                state.updatePending = true
                if !state.loadStateSubscribers.isEmpty { state.queue(loadStates) }
            }
            if state.updatePending { state.queueUpdateWakeUps() }
            return state.claimDrain()
        }
    }

    @inlinable func publish(_ diagnostic: FeedDiagnostic) {
        deliver { state in
            guard !state.isFinished, !state.diagnosticSubscribers.isEmpty else { return false }
            state.queue(diagnostic)
            return state.claimDrain()
        }
    }

    @inlinable func publish(_ event: FeedEvent) {
        deliver { state in
            guard !state.isFinished else { return false }
            switch event {
            case .began(let side): state.loadingSides.append(side)
            case .ended(let side, _): state.loadingSides.removeAll { $0 == side }
            }
            if !state.eventSubscribers.isEmpty { state.queue(event) }
            return state.claimDrain()
        }
    }

    /// Publishes `finalStatus` and finishes every stream (a snapshot reader, woken, first takes
    /// the newest list if it does not have it yet); later subscriptions get the latest snapshot
    /// and status and finish at once.
    @inlinable func finish(finalStatus: FeedStatus) {
        var fanOut: _FanOutSignal?
        deliver { state in
            guard !state.isFinished else { return false }
            state.isFinished = true
            var changed = state.updatePending
            if state.status != finalStatus {
                state.status = finalStatus
                changed = true
                for subscriber in state.statusSubscribers.values {
                    state.outbox.append(.status(subscriber.sink, finalStatus))
                }
            }
            state.snapshotReaders = 0 // each takes the last list if it lacks it, then ends
            state.queueSnapshotWakeUps()
            // Each dictionary passed inout, not by key path: a key path is an object, made at
            // run time in generic code (five allocations per controller, measured).
            State.queueFinishes(of: &state.statusSubscribers, into: &state.outbox)
            State.queueFinishes(of: &state.loadStateSubscribers, into: &state.outbox)
            State.queueFinishes(of: &state.eventSubscribers, into: &state.outbox)
            State.queueFinishes(of: &state.diagnosticSubscribers, into: &state.outbox)
            // The last update (status closed), unless nothing changed since the last one: the
            // controller publishes its closed states just before, and a second, equal update
            // reached a reader that had read the first in between ("the same update twice",
            // seen once in UpdatesReaderCancellationTests). Either way the waiting readers are
            // woken: each takes what it lacks, then ends.
            if changed { state.queueUpdateWakeUps() } else if state.updateWaiters.count != 0 { state.queueWakeUpsOfWaiters() }
            fanOut = state.fanOut.take()
            return state.claimDrain()
        }
        fanOut?.finish()
    }
}

extension FeedBroadcaster.State {
    // Queue a value for every subscription of its kind. Never inlined, and called only when
    // there is a subscription: inlined, each publishing call looked up the metadata of its
    // kind's subscription type (demangling its name) the first time it ran, subscribers or not.

    @inlinable @inline(never) mutating func queue(_ status: FeedStatus) {
        for subscriber in statusSubscribers.values { outbox.append(.status(subscriber.sink, status)) }
    }

    @inlinable @inline(never) mutating func queue(_ loadStates: FeedLoadStates) {
        for subscriber in loadStateSubscribers.values { outbox.append(.loadStates(subscriber.sink, loadStates)) }
    }

    @inlinable @inline(never) mutating func queue(_ event: FeedEvent) {
        for subscriber in eventSubscribers.values { outbox.append(.event(subscriber.sink, event)) }
    }

    @inlinable @inline(never) mutating func queue(_ diagnostic: FeedDiagnostic) {
        for subscriber in diagnosticSubscribers.values { outbox.append(.diagnostic(subscriber.sink, diagnostic)) }
    }

    /// Makes the current values a new update and queues the wake-up of every waiting
    /// ``FeedUpdates`` reader (each reads the newest update when it runs).
    @inlinable mutating func queueUpdateWakeUps() {
        updatePending = false
        updateVersion &+= 1
        if updateWaiters.count != 0 { queueWakeUpsOfWaiters() }
    }

    @inlinable mutating func queueWakeUpsOfWaiters() {
        for waiter in updateWaiters { outbox.append(.wake(waiter.continuation)) }
        updateWaiters.removeAll(keepingCapacity: true)
    }

    /// Queues the finish of every subscription in `subscribers` and forgets them.
    @inlinable static func queueFinishes<Element: Sendable>(
        of subscribers: inout [UInt64: FeedBroadcaster.Subscription<Element>],
        into outbox: inout [FeedBroadcaster.Delivery]
    ) {
        for subscriber in subscribers.values {
            let sink = subscriber.sink
            outbox.append(.finish { sink.continuation.finish() })
        }
        subscribers = .init()
    }
}

/// A stream's continuation, boxed: a continuation's layout is known only at run time, and the
/// broadcaster's tables and deliveries, holding a box, have a layout known when compiled (their
/// copies are a retain, not a call through value witnesses). One per subscription.
@usableFromInline final class _StreamSink<Element: Sendable>: Sendable {
    @usableFromInline let continuation: AsyncStream<Element>.Continuation

    @inlinable init(_ continuation: AsyncStream<Element>.Continuation) {
        self.continuation = continuation
    }
}

/// The fan-out task's wake-up signal (see ``FeedBroadcaster``), boxed so that the broadcaster's
/// state has a layout known when compiled.
@usableFromInline final class _FanOutSignal: Sendable {
    @usableFromInline let signal: AsyncStream<Void>.Continuation

    init(_ signal: AsyncStream<Void>.Continuation) {
        self.signal = signal
    }

    /// Ends the fan-out task.
    @usableFromInline func finish() {
        signal.finish()
    }
}
