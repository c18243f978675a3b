import AsyncPaging

/// Counts the ``TrackedRow``s alive, to show what a controller keeps, and lets a test wait
/// until few enough are left.
final class LiveRows: Sendable {
    private struct State {
        var alive = 0
        var waiters: [(limit: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Locked(State())

    var alive: Int { state.withLock { $0.alive } }

    func made() { state.withLock { $0.alive += 1 } }

    func freed() {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.alive -= 1
            let alive = state.alive
            defer { state.waiters.removeAll { alive <= $0.limit } }
            return state.waiters.filter { alive <= $0.limit }.map(\.continuation)
        }
        ready.forEach { $0.resume() }
    }

    /// Suspends until at most `limit` rows are alive.
    ///
    /// A row can outlive its page for a moment: the fetch task that returned it holds it until
    /// that task ends, which nothing can wait for. So a test waits for the rows to go rather
    /// than counting them at an arbitrary time; rows that are never freed leave it waiting.
    func waitUntilAlive(atMost limit: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.alive <= limit { return true }
                state.waiters.append((limit, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}

/// An item that reports its own lifetime to a ``LiveRows``.
final class TrackedRow: Identifiable, Sendable {
    let id: Int
    private let rows: LiveRows

    init(id: Int, rows: LiveRows) {
        self.id = id
        self.rows = rows
        rows.made()
    }

    deinit {
        rows.freed()
    }
}
