// The broadcaster's side of ``FeedController/snapshots``: an `AsyncStream` made with
// `AsyncStream(unfolding:onCancel:)` over a reader (``_SnapshotReader``) that, like an iterator
// of ``FeedUpdates``, takes the newest snapshot under the lock when its version is newer than
// the one it returned last, and otherwise waits (an `UnsafeContinuation` in
// `State.snapshotWaiters`) until publishing wakes it. The public type stays
// `AsyncStream<FeedSnapshot<Item>>`; what goes is the stream's buffer, its continuation and
// its yields: a snapshot published costs nothing per subscriber that is not waiting, and a
// reader's `next()` with a newer list ready does not suspend.
//
// What the stream promises, and why it holds:
// - Newest only (as `.bufferingNewest(1)` did): a reader takes the broadcaster's current
//   snapshot, whatever was published between its reads; its first value is the current list.
// - Never an older list after a newer one: the reader remembers the version it returned and
//   takes only a newer one; versions only grow.
// - Finish after close (or the controller's release): `finish(finalStatus:)` wakes every
//   waiter; a reader then takes the last list if it has not had it, and ends (`nil`) after it.
//   A stream made after the close gives the last list, then ends.
// - Cancelling a reader's task ends its `next()` with `nil`, and every later one: the stream's
//   `onCancel` (run by the standard library while `next()` is running, or at once if the task
//   was already cancelled) calls ``_SnapshotReader/cancel()``, which ends the reader and removes
//   its waiter under the lock, and resumes that waiter after releasing it.
// - No deadlock: no continuation is resumed while the broadcaster's lock is held (wake-ups are
//   ``FeedBroadcaster/Delivery/wake(_:)`` values carried out by the drainer after the lock is
//   released). `Task.cancel()` runs `onCancel` while holding the reader task's own lock; it only
//   takes this lock briefly, and nothing holding this lock waits for a task's.
// - No lost wake-up: a snapshot published between the reader's take and its registration is
//   seen by the registration, which compares versions again under the lock; a cancellation
//   before the registration is seen by it too (`Task.cancel()` marks the task cancelled before
//   it runs the handler, and the handler takes the lock).
// - `subscriberCounts.snapshots` counts the readers made and not yet ended: a reader leaves the
//   count when its `next()` returns `nil`, when its task is cancelled, or when its stream is
//   released (the reader's `deinit`); after the close it is 0.
extension FeedBroadcaster {
    /// A new subscription to the list: see ``FeedController/snapshots``.
    @inlinable func subscribeToSnapshots() -> AsyncStream<FeedSnapshot<Item>> {
        let reader = _SnapshotReader<Item>(state)
        state.withLock { state in
            reader.id = state.nextSubscriberID
            state.nextSubscriberID &+= 1
            if !state.isFinished {
                state.snapshotReaders += 1
                reader.isCounted = true
            }
        }
        return AsyncStream(unfolding: { await reader.next() }, onCancel: { reader.cancel() })
    }
}

extension FeedBroadcaster.State {
    /// Queues the wake-up of every waiting snapshot reader (each takes the newest list when it
    /// runs).
    @inlinable mutating func queueSnapshotWakeUps() {
        for waiter in snapshotWaiters { outbox.append(.wake(waiter.continuation)) }
        snapshotWaiters.removeAll(keepingCapacity: true)
    }
}

/// One subscription to ``FeedController/snapshots``: what its stream's `next()` does. Its
/// mutable fields are read and written only under the broadcaster's lock (hence
/// `@unchecked Sendable`).
@usableFromInline final class _SnapshotReader<Item: Sendable>: @unchecked Sendable {
    @usableFromInline let state: Locked<FeedBroadcaster<Item>.State>
    /// Takes the released reader out of the count. A function made where `Item` is known (a
    /// closure that captures nothing: no allocation): the `deinit` itself is compiled once for
    /// every `Item`, and reaching the state there looked its type up at run time on every
    /// release (~330 instructions, measured with callgrind).
    @usableFromInline let leave: @Sendable (_SnapshotReader<Item>) -> Void
    // The mutable fields, read and written only under the broadcaster's lock, never overlap:
    // release builds skip their dynamic exclusivity checks (~800 instructions a first list,
    // measured with callgrind); debug builds, which run the tests, keep them.
    #if DEBUG
    /// Finds this reader's waiter again when its task is cancelled.
    @usableFromInline var id: UInt64 = 0
    /// The lowest snapshot version this reader takes: 0 before its first, then one more than
    /// the version it returned last.
    @usableFromInline var nextVersion: UInt64 = 0
    /// Whether it is in the broadcaster's count of snapshot readers.
    @usableFromInline var isCounted = false
    /// Whether it has ended: its task was cancelled or it returned the last list.
    @usableFromInline var isEnded = false
    #else
    @exclusivity(unchecked) @usableFromInline var id: UInt64 = 0
    @exclusivity(unchecked) @usableFromInline var nextVersion: UInt64 = 0
    @exclusivity(unchecked) @usableFromInline var isCounted = false
    @exclusivity(unchecked) @usableFromInline var isEnded = false
    #endif

    @inlinable init(_ state: Locked<FeedBroadcaster<Item>.State>) {
        self.state = state
        leave = { reader in reader.state.withLock { reader.uncount(&$0) } }
    }

    deinit {
        leave(self) // the stream was released
    }

    /// Leaves the count of readers (under the lock). After the close the count is 0 already.
    @inlinable func uncount(_ state: inout FeedBroadcaster<Item>.State) {
        guard isCounted else { return }
        isCounted = false
        if !state.isFinished { state.snapshotReaders -= 1 }
    }

    /// The newest list this reader has not returned, waiting for one if there is none; `nil`
    /// once the feed has closed and it returned the last list, or when its task is cancelled.
    @inlinable func next() async -> FeedSnapshot<Item>? {
        while true {
            let (snapshot, waits) = state.withLock { state -> (FeedSnapshot<Item>?, Bool) in
                if isEnded { return (nil, false) }
                if state.snapshot.version >= nextVersion {
                    nextVersion = state.snapshot.version &+ 1
                    return (state.snapshot, false)
                }
                if state.isFinished {
                    isEnded = true
                    uncount(&state)
                    return (nil, false)
                }
                return (nil, true)
            }
            if !waits { return snapshot }
            guard await wait() else { return nil }
        }
    }

    /// Suspends until a newer list is published or the feed closes (`true`), or the task is
    /// cancelled (`false`).
    @inlinable func wait() async -> Bool {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Bool, Never>) in
            let answerNow = state.withLock { state -> Bool? in
                if isEnded { return false }
                if Task.isCancelled {
                    isEnded = true
                    uncount(&state)
                    return false
                }
                if state.snapshot.version >= nextVersion || state.isFinished { return true }
                state.snapshotWaiters.append(_FeedUpdateWaiter(id: id, continuation: continuation))
                return nil
            }
            if let answerNow { continuation.resume(returning: answerNow) }
        }
    }

    /// The stream's `onCancel`: ends the reader and removes its waiter under the lock, and
    /// resumes it after. Runs while the cancelled task holds its own lock: takes this lock only
    /// briefly.
    @inlinable func cancel() {
        let removed = state.withLock { state -> UnsafeContinuation<Bool, Never>? in
            isEnded = true
            uncount(&state)
            guard let index = state.snapshotWaiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.snapshotWaiters.remove(at: index).continuation
        }
        removed?.resume(returning: false)
    }
}
