import AsyncPaging

/// A change counter that every observer of a randomized run bumps (a request reached the
/// source, an event, a diagnostic or a snapshot was recorded, a caller was answered), and a
/// way to wait for the next change.
///
/// The run re-checks the engine against the model after every change and stops at the first
/// contradiction, so an engine that does something the model does not expect is reported with
/// its seed instead of leaving the run waiting for what never comes.
final class Progress: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var waiters: [(after: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Locked(State())

    var generation: UInt64 { state.withLock { $0.generation } }

    func signal() {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.generation += 1
            defer { state.waiters = [] }
            return state.waiters.map(\.continuation)
        }
        ready.forEach { $0.resume() }
    }

    /// Suspends until something changed after `generation` was read.
    func waitForChange(after generation: UInt64) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.generation != generation { return true }
                state.waiters.append((generation, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
