/// The tasks of the load in flight: its fetch and its timer (a timeout or a retry backoff).
///
/// Kept behind a lock (``Locked``) in a `let` so that the controller's nonisolated initializer can hand
/// over the initial load's task and its `deinit` can cancel whatever is still running.
final class LoadTasks: Sendable {
    private struct Running {
        var loadID: UInt64
        var fetch: Task<Void, Never>?
        var timer: Task<Void, Never>?
    }

    private let running = Locked<Running?>(nil)

    /// Records the fetch task of `loadID`.
    func setFetch(_ task: Task<Void, Never>, for loadID: UInt64) {
        running.withLock { running in
            if running?.loadID != loadID { running = Running(loadID: loadID) }
            running!.fetch = task
        }
    }

    /// Records the timer task of `loadID`.
    func setTimer(_ task: Task<Void, Never>, for loadID: UInt64) {
        running.withLock { running in
            if running?.loadID != loadID { running = Running(loadID: loadID) }
            running!.timer = task
        }
    }

    /// Cancels and forgets the tasks of `loadID`.
    func cancel(_ loadID: UInt64) {
        let tasks = running.withLock { running -> Running? in
            guard running?.loadID == loadID else { return nil }
            defer { running = nil }
            return running
        }
        tasks?.fetch?.cancel()
        tasks?.timer?.cancel()
    }

    /// Cancels and forgets whatever runs.
    func cancelAll() {
        let tasks = running.withLock { running -> Running? in
            defer { running = nil }
            return running
        }
        tasks?.fetch?.cancel()
        tasks?.timer?.cancel()
    }
}
