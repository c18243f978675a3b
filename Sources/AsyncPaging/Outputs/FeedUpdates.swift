/// The list, the status and the state of each side together, as one sequence that keeps only
/// the newest: what ``FeedController/updates`` returns, made for a screen that shows all three.
///
/// Each iteration is an independent subscriber, and a sequence can be iterated any number of
/// times, from any number of tasks at once. An iteration first gets the current
/// ``FeedUpdate``, then, each time it asks for the next one, the newest: a reader that is busy
/// while the feed changes several times gets one update with the newest values, never a
/// backlog (a gap in ``FeedSnapshot/version`` tells that lists were skipped, and
/// ``FeedSnapshot/change(since:)`` tells what changed). Updates come at most once per turn of
/// the controller, with the list and the states of the same moment. An edit (``FeedController``'s
/// `update`, `remove(ids:)`, `insertAtTop`) is an update of its own; one made while a load is in
/// flight comes with that load's update (``FeedController/snapshots`` has it at once).
///
/// The iteration ends (`next()` returns `nil`) after the controller closes — once the reader
/// has had the last update, whose status is ``FeedStatus/closed`` — or when the task iterating
/// is cancelled while it waits for an update (or would have to wait). A sequence made after
/// the close gives the last update, then ends.
///
/// ```swift
/// for await update in feed.updates {
///     render(update.snapshot, footer: update.status, top: update.loadStates.loadPrevious)
/// }
/// ```
///
/// Why not an `AsyncStream` per value: one update per turn wakes a reader once, where a screen
/// following the list and the status had a yield and a wake-up per stream. And ``Iterator``
/// implements `next(isolation:)`: it takes an update that is ready in the caller's isolation,
/// without suspending, and waits there, where an `AsyncStream`'s iterator calls a nonisolated
/// function, so each `next()` from an actor hops to the global executor and back. (A waiting
/// reader's wake-up itself still passes through the global executor: the Swift runtime resumes
/// every continuation there and the task then hops to its actor.) Subscribers are not
/// registered: only a reader that waits is known to the controller, until it is woken.
public struct FeedUpdates<Item: Sendable>: AsyncSequence, Sendable {
    /// Each value: the list, the status and the load states of one moment.
    public typealias Element = FeedUpdate<Item>
    /// Iterating never throws.
    public typealias Failure = Never

    @usableFromInline let broadcaster: FeedBroadcaster<Item>

    @inlinable init(_ broadcaster: FeedBroadcaster<Item>) {
        self.broadcaster = broadcaster
    }

    /// The number of readers of the controller's updates waiting now (any sequence's), for tests.
    var waitingReaders: Int { broadcaster.updateWaiterCount }

    /// Starts an iteration: a new subscriber whose first value is the current update.
    @inlinable public func makeAsyncIterator() -> Iterator {
        Iterator(broadcaster)
    }

    /// One subscriber of ``FeedUpdates``: see the sequence for what it gets and when it ends.
    public struct Iterator: AsyncIteratorProtocol {
        @usableFromInline let broadcaster: FeedBroadcaster<Item>
        /// The update version this iterator returned last; 0 before its first.
        @usableFromInline var deliveredVersion: UInt64 = 0
        /// Whether the iteration has ended (the feed closed, or the task was cancelled).
        @usableFromInline var isDone = false

        @inlinable init(_ broadcaster: FeedBroadcaster<Item>) {
            self.broadcaster = broadcaster
        }

        /// The newest update this iterator has not returned yet, waiting for one if there is
        /// none; `nil` once the feed has closed and the last update was returned, or when the
        /// task is cancelled while it waits.
        @inlinable public mutating func next() async -> FeedUpdate<Item>? {
            await next(isolation: nil)
        }

        /// The newest update this iterator has not returned yet, waiting for one in the
        /// caller's isolation (`for await` passes it): the task is resumed on its own actor.
        /// `nil` once the feed has closed and the last update was returned, or when the task is
        /// cancelled while it waits.
        @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async -> FeedUpdate<Item>? {
            guard !isDone else { return nil }
            while true {
                switch broadcaster.takeUpdate(after: deliveredVersion) {
                case .update(let update, let version):
                    deliveredVersion = version
                    return update
                case .finished:
                    isDone = true
                    return nil
                case .wait(let waiterID):
                    let woken = await broadcaster.waitForUpdate(
                        after: deliveredVersion, waiterID: waiterID, isolation: actor)
                    if !woken { // cancelled while waiting
                        isDone = true
                        return nil
                    }
                }
            }
        }
    }
}
