/// One fetch raced against the clock: the source's answer, or ``FeedError/timedOut(after:)`` when
/// the timeout elapses first, or `CancellationError` as soon as the waiting task is cancelled.
///
/// The fetch runs in a task of its own and the waiting task waits on a continuation, not on that
/// task, so that a source that ignores cancellation cannot hold the caller past its timeout or
/// its cancellation (as with ``FeedController``, whatever such a source returns late is dropped).
/// Whichever comes first — the answer, the timeout, the clock's failure or the cancellation —
/// cancels the other tasks and resumes the continuation.
///
/// `@unchecked Sendable` is safe: the only stored property is a `let` ``Locked``, whose value is
/// reached only inside its lock; the continuation is taken out under the lock and resumed after
/// it is released, exactly once (the state moves to `resolved` in the same critical section).
@usableFromInline final class _TimedFetch<Answer: Sendable>: @unchecked Sendable {
    @usableFromInline struct State {
        @usableFromInline var continuation: CheckedContinuation<Result<Answer, any Error>, Never>?
        @usableFromInline var result: Result<Answer, any Error>?
        @usableFromInline var isResolved = false
        @usableFromInline var tasks: [Task<Void, Never>] = []

        @inlinable init() {}
    }

    @usableFromInline let state = Locked(State())

    @inlinable init() {}

    /// Waits for `fetch`, for at most `timeout` on `clock`.
    @inlinable static func run(
        timeout: Duration, clock: any Clock<Duration>,
        _ fetch: @escaping @Sendable () async throws -> Answer
    ) async -> Result<Answer, any Error> {
        let race = _TimedFetch<Answer>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                race.wait(with: continuation)
                let fetchTask = Task {
                    do {
                        race.resolve(.success(try await fetch()))
                    } catch {
                        race.resolve(.failure(error))
                    }
                }
                let timerTask = Task {
                    do {
                        try await clock.sleep(for: timeout.boundedForTimers)
                    } catch {
                        if Task.isCancelled { return } // the fetch answered first
                        race.resolve(.failure(FeedError.clockFailed("\(error)")))
                        return
                    }
                    race.resolve(.failure(FeedError.timedOut(after: timeout)))
                }
                race.keep([fetchTask, timerTask])
            }
        } onCancel: {
            race.resolve(.failure(CancellationError()))
        }
    }

    /// Stores the continuation; resumes it at once (after the lock) if the race already ended.
    @inlinable func wait(with continuation: CheckedContinuation<Result<Answer, any Error>, Never>) {
        let early: Result<Answer, any Error>? = state.withLock { state in
            if let result = state.result { return result }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(returning: early) }
    }

    /// Records the tasks; cancels them at once (after the lock) if the race already ended.
    @inlinable func keep(_ tasks: [Task<Void, Never>]) {
        let ended = state.withLock { state in
            if state.isResolved { return true }
            state.tasks = tasks
            return false
        }
        if ended { for task in tasks { task.cancel() } }
    }

    /// Ends the race with `result` unless it has ended already: decided under the lock, the
    /// continuation resumed and the other tasks cancelled after it.
    @inlinable func resolve(_ result: Result<Answer, any Error>) {
        let (continuation, tasks) = state.withLock { state -> (CheckedContinuation<Result<Answer, any Error>, Never>?, [Task<Void, Never>]) in
            if state.isResolved { return (nil, []) }
            state.isResolved = true
            let continuation = state.continuation.take()
            if continuation == nil { state.result = result }
            defer { state.tasks = [] }
            return (continuation, state.tasks)
        }
        for task in tasks { task.cancel() } // first, so the waiter finds them cancelled
        continuation?.resume(returning: result)
    }
}
