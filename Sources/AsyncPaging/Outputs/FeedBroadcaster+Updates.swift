// The broadcaster's side of ``FeedUpdates``: a reader takes the newest update under the lock,
// or registers as a waiter; publishing wakes the waiters through the outbox (after the lock);
// cancelling a waiting reader removes it under the lock and resumes it after.
//
// Why this cannot deadlock or lose a reader:
// - No continuation is resumed while the lock is held: `takeUpdate` and the registration only
//   decide; a wake-up is a ``FeedBroadcaster/Delivery`` carried out by the drainer after the
//   lock is released, and the cancellation handler resumes the waiter it removed after its
//   critical section. `Task.cancel()` runs the handler while holding the reader task's own
//   lock and the handler takes this lock: nothing holds this lock while waiting for a task's.
// - Every waiter is resumed exactly once: it leaves `updateWaiters` in the critical section
//   that decides its resumption (publishing, finishing, or its cancellation), whichever comes
//   first; the others no longer find it.
// - A cancellation that comes before the reader registers is seen by the registration:
//   `Task.cancel()` marks the task cancelled before it runs the handler, and the handler takes
//   the lock, so either the handler's critical section comes second (and removes the waiter) or
//   the registration sees `Task.isCancelled` and does not wait.
// - An update published between `takeUpdate` and the registration is seen by the
//   registration, which compares versions again under the lock.
// - A reader never gets half a turn: the controller publishes a page's snapshot, then (at the
//   end of the same turn, always) the status and load states, and the update version grows only
//   then. While a snapshot is published and its turn's states are not (`updatePending`), a
//   reader waits, even one that is behind: the end of the turn wakes it.
// - A snapshot published with no load in flight (the edits: update, remove, insert at the top)
//   is an update at once: no states follow it. One published while a load is in flight cannot
//   be told from that load's page, so it waits for the load's turn (known gap, reported to the
//   lead with a known-issue test: the edits should end with the controller's `publishStates()`,
//   which would make every turn end the same way).
extension FeedBroadcaster {
    /// What a ``FeedUpdates`` reader at `version` gets now.
    @usableFromInline enum UpdateTake {
        /// A newer update, and its version.
        case update(FeedUpdate<Item>, UInt64)
        /// The feed is closed and the reader had the last update.
        case finished
        /// Nothing newer: the reader waits, under this id.
        case wait(UInt64)
    }

    /// The newest update if it is newer than `version`; else whether the reader is done or waits
    /// (then the id it waits under is reserved here, in the same critical section).
    @inlinable func takeUpdate(after version: UInt64) -> UpdateTake {
        state.withLock { state in
            if state.updateVersion > version && !state.updatePending {
                return .update(
                    FeedUpdate(snapshot: state.snapshot, status: state.status, loadStates: state.loadStates),
                    state.updateVersion)
            }
            if state.isFinished { return .finished }
            let id = state.nextSubscriberID
            state.nextSubscriberID &+= 1
            return .wait(id)
        }
    }

    /// Suspends the calling task (registering it in `actor`'s isolation, so the call itself does
    /// not hop) until an update newer than `version` is published or the feed closes (`true`),
    /// or the task is cancelled (`false`).
    @inlinable func waitForUpdate(after version: UInt64, waiterID: UInt64, isolation actor: isolated (any Actor)?) async -> Bool {
        await withTaskCancellationHandler(operation: {
            await withUnsafeContinuation(isolation: actor) { (continuation: UnsafeContinuation<Bool, Never>) in
                let answerNow = state.withLock { state -> Bool? in
                    if Task.isCancelled { return false }
                    if (state.updateVersion > version && !state.updatePending) || state.isFinished { return true }
                    state.updateWaiters.append(_FeedUpdateWaiter(id: waiterID, continuation: continuation))
                    return nil
                }
                if let answerNow { continuation.resume(returning: answerNow) }
            }
        }, onCancel: {
            let removed = state.withLock { state -> UnsafeContinuation<Bool, Never>? in
                guard let index = state.updateWaiters.firstIndex(where: { $0.id == waiterID }) else { return nil }
                return state.updateWaiters.remove(at: index).continuation
            }
            removed?.resume(returning: false)
        }, isolation: actor)
    }

    /// The number of ``FeedUpdates`` readers waiting now, for tests.
    var updateWaiterCount: Int { state.withLock { $0.updateWaiters.count } }
}

/// A ``FeedUpdates`` reader waiting for the next update (see ``FeedBroadcaster``).
@usableFromInline struct _FeedUpdateWaiter: Sendable {
    /// Finds the waiter again when its task is cancelled.
    @usableFromInline let id: UInt64
    /// Resumed with `true` when an update is published (or the feed closes), with `false` when
    /// the reader's task is cancelled.
    @usableFromInline let continuation: UnsafeContinuation<Bool, Never>

    @inlinable init(id: UInt64, continuation: UnsafeContinuation<Bool, Never>) {
        self.id = id
        self.continuation = continuation
    }
}
