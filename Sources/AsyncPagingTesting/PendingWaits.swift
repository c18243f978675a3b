import AsyncPaging

/// The suspended waits of a test-kit type, kept inside its locked state: each ends when its
/// condition is met or when its task is cancelled, whichever comes first.
///
/// A wait first reserves an entry under the lock, then stores its continuation under the lock.
/// Cancellation may come at any point: before the entry is reserved (the task is already
/// cancelled, so the handler runs at once and finds the entry reserved), between the two steps
/// (the entry is marked, and storing the continuation resumes it at once instead), or while it
/// waits (the handler removes it and resumes it). Every continuation is removed from the list
/// under the lock before it is resumed, and resumed after the lock is released, so each is
/// resumed exactly once and never under the lock.
struct PendingWaits<Condition, Value: Sendable> {
    private enum Entry {
        /// Reserved; the continuation is not stored yet.
        case reserved
        /// Cancelled before its continuation was stored: storing it resumes it at once.
        case cancelledBeforeWaiting
        case waiting(Condition, CheckedContinuation<Value, Never>)
    }

    private var entries: [(id: UInt64, entry: Entry)] = []
    private var nextID: UInt64 = 0

    /// The number of waits suspended now.
    var count: Int {
        entries.count { if case .waiting = $0.entry { true } else { false } }
    }

    /// Removes and returns the waits whose condition `value` turns into a value to return.
    mutating func takeSatisfied(
        _ value: (Condition) -> Value?
    ) -> [(continuation: CheckedContinuation<Value, Never>, value: Value)] {
        var ready: [(continuation: CheckedContinuation<Value, Never>, value: Value)] = []
        entries.removeAll { element in
            guard case .waiting(let condition, let continuation) = element.entry, let result = value(condition)
            else { return false }
            ready.append((continuation, result))
            return true
        }
        return ready
    }

    fileprivate mutating func reserve() -> UInt64 {
        defer { nextID += 1 }
        entries.append((nextID, .reserved))
        return nextID
    }

    /// Stores the continuation of `id`, or returns the value to resume it with at once.
    fileprivate mutating func store(
        _ id: UInt64, _ condition: Condition, _ continuation: CheckedContinuation<Value, Never>,
        satisfied: Value?, cancelled: Value
    ) -> Value? {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return cancelled }
        if let satisfied {
            entries.remove(at: index)
            return satisfied
        }
        if case .cancelledBeforeWaiting = entries[index].entry {
            entries.remove(at: index)
            return cancelled
        }
        entries[index].entry = .waiting(condition, continuation)
        return nil
    }

    /// Handles the cancellation of `id`: returns its continuation if it is waiting (removed).
    fileprivate mutating func cancel(_ id: UInt64) -> CheckedContinuation<Value, Never>? {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return nil } // already resumed
        switch entries[index].entry {
        case .reserved:
            entries[index].entry = .cancelledBeforeWaiting
            return nil
        case .cancelledBeforeWaiting:
            return nil
        case .waiting(_, let continuation):
            entries.remove(at: index)
            return continuation
        }
    }
}

extension Locked {
    /// Suspends until `condition` is met — `satisfied` turns the state into the value to
    /// return — or until the task is cancelled, then returns what `cancelled` makes of the
    /// state. A wait whose condition already holds returns at once, cancelled or not.
    func wait<Condition, Value: Sendable>(
        in waits: WritableKeyPath<State, PendingWaits<Condition, Value>> & Sendable,
        for condition: Condition,
        satisfied: (State) -> Value?,
        cancelled: @escaping @Sendable (State) -> Value
    ) async -> Value {
        let id = withLock { $0[keyPath: waits].reserve() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Value, Never>) in
                let immediate = withLock { state -> Value? in
                    let now = satisfied(state)
                    let ifCancelled = cancelled(state)
                    return state[keyPath: waits].store(id, condition, continuation, satisfied: now, cancelled: ifCancelled)
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let resumption = withLock { state -> (CheckedContinuation<Value, Never>, Value)? in
                guard let continuation = state[keyPath: waits].cancel(id) else { return nil }
                return (continuation, cancelled(state))
            }
            if let (continuation, value) = resumption { continuation.resume(returning: value) }
        }
    }
}
