import AsyncPaging

/// The answers of the calls a randomized run made, by call number, and a way to wait for them.
final class CallOutcomes: Sendable {
    private struct State {
        var results: [Int: LoadResult] = [:]
        var versionsSeen: [Int: UInt64] = [:]
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Locked(State())
    private let progress: Progress

    init(progress: Progress) {
        self.progress = progress
    }

    var results: [Int: LoadResult] { state.withLock { $0.results } }
    /// The list version each answered caller saw when it resumed.
    var versionsSeen: [Int: UInt64] { state.withLock { $0.versionsSeen } }

    func record(_ call: Int, _ result: LoadResult, seeingVersion version: UInt64) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.results[call] = result
            state.versionsSeen[call] = version
            let count = state.results.count
            defer { state.waiters.removeAll { $0.count <= count } }
            return state.waiters.filter { $0.count <= count }.map(\.continuation)
        }
        ready.forEach { $0.resume() }
        progress.signal()
    }

    /// Suspends until at least `count` calls have been answered.
    func waitForCount(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.results.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
