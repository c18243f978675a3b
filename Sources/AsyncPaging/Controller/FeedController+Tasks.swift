// The tasks of a controller: one fetch per load attempt, and its timers (timeout, backoff).
extension FeedController {
    // Nonisolated: they touch only `let` properties, so the initializer can start one.

    /// Starts the fetch of `attempt` of load `id`.
    ///
    /// With `handsOverInPlace`, the fetch starts with `Task.immediate`: it runs on this thread
    /// until it first suspends, and a source that answers without suspending has its answer
    /// returned here, for the caller to hand over, rather than through a hop back onto the
    /// actor and a thread wake-up (``ControllerTasks`` explains the hand-over). Otherwise, and where
    /// `Task.immediate` is unavailable, the fetch is an ordinary task that delivers its answer.
    /// - Returns: The answer, when the source gave it before the launch ended.
    @inlinable nonisolated func launchFetch(
        _ id: LoadID, side: FeedSide, cursor: Cursor?, attempt: Int, step: Int, handsOverInPlace: Bool
    ) -> FetchAnswer? {
        let request = PageRequest(
            cursor: cursor, side: side, pageSize: configuration.pageSize, attempt: attempt, clock: clock)
        let source = self.source
        let tasks = self.tasks
                // The two task bodies are closure literals, not one shared closure value: converting a
        // closure value into a task's operation costs three more allocations per fetch.
        if handsOverInPlace, #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            tasks.beginLaunch(loadID: id.rawValue, attempt: attempt, owner: self)
            let fetch = Task.immediate {
                let answer = await Self.fetchAnswer(from: source, for: request)
                if tasks.answerInPlace(answer, loadID: id.rawValue, attempt: attempt) { return }
                await tasks.owner?.fetchDelivered(id, side: side, attempt: attempt, step: step, answer)
            }
            if let answer = tasks.endLaunch(fetch, loadID: id.rawValue) {
                return answer // the load has no fetch left to time out
            }
        } else {
            tasks.adopt(self) // before the task starts: it may answer at once
            let fetch = Task {
                let answer = await Self.fetchAnswer(from: source, for: request)
                await tasks.owner?.fetchDelivered(id, side: side, attempt: attempt, step: step, answer)
            }
            tasks.setFetch(fetch, for: id.rawValue)
        }
        if let timeout = configuration.timeout {
            launchTimer(id, attempt: attempt, step: step, after: timeout, isTimeout: true)
        }
        return nil
    }

    /// What `source` answers to `request`: its page, or the error it threw.
    @inlinable static func fetchAnswer(
        from source: any PageSource<Item, Cursor>, for request: PageRequest<Cursor>
    ) async -> FetchAnswer {
        do {
            return .success(try await source.page(for: request))
        } catch {
            return .failure(error)
        }
    }

    /// Starts the timeout of fetch `step` of try `attempt`, or the backoff after try `attempt`.
    /// A clock that throws from `sleep` without being cancelled ends the load as failed
    /// (``FeedError/clockFailed(_:)``): the timer could never fire, and the load must end.
    @inlinable nonisolated func launchTimer(_ id: LoadID, attempt: Int, step: Int, after delay: Duration, isTimeout: Bool) {
        let clock = self.clock
        let tasks = self.tasks // not `self`: a pending timer must not keep the controller alive
        tasks.adopt(self) // before the task starts: a clock may return at once
        let timer = Task {
            do {
                try await clock.sleep(for: delay.boundedForTimers)
            } catch {
                if Task.isCancelled { return } // the load ended or moved on
                await tasks.owner?.timerFailed(id, attempt: attempt, error: error)
                return
            }
            await tasks.owner?.timerFired(id, attempt: attempt, step: step, isTimeout: isTimeout)
        }
        tasks.setTimer(timer, for: id.rawValue)
    }
}
