import AsyncPaging
import Synchronization

/// What the interactive screen shows, kept up to date by tasks that read the controller's
/// streams, and read by the drawing loop on the main thread.
final class FeedScreenModel: Sendable {
    struct State: Sendable {
        var snapshot: FeedSnapshot<FeedItem>
        var status: FeedStatus
        /// The latest load ends and notices, newest first.
        var history: [String] = []
        /// Grows with every change, so the drawing loop knows when to look again.
        var revision: UInt64 = 0
    }

    private let state: Mutex<State>

    init(snapshot: FeedSnapshot<FeedItem>, status: FeedStatus) {
        state = Mutex(State(snapshot: snapshot, status: status))
    }

    var current: State { state.withLock { $0 } }

    /// Starts the tasks that follow `feed`; they end when the feed closes.
    func follow(_ feed: FeedController<FeedItem, FeedCursor>) {
        let snapshots = feed.snapshots
        let statuses = feed.statuses
        let events = feed.events
        Task.detached { [self] in
            for await snapshot in snapshots {
                update { $0.snapshot = snapshot }
            }
        }
        Task.detached { [self] in
            for await status in statuses {
                update { $0.status = status }
            }
        }
        Task.detached { [self] in
            for await event in events {
                if let text = FeedScreenModel.describe(event) { note(text) }
            }
        }
    }

    /// Adds a line to the history.
    func note(_ text: String) {
        update { state in
            state.history.insert(text, at: 0)
            if state.history.count > 4 { state.history.removeLast() }
        }
    }

    private func update(_ change: (inout State) -> Void) {
        state.withLock { state in
            change(&state)
            state.revision &+= 1
        }
    }

    /// The history line of an event; `began` events show in the header and footer instead.
    static func describe(_ event: FeedEvent) -> String? {
        guard case .ended(let side, let reason) = event else { return nil }
        let name = side == .refresh ? "refresh" : "load-more"
        switch reason {
        case .completed: return "✓ \(name) done"
        case .endOfData: return "✓ \(name) done, no more data"
        case .cancelled(let cause): return "✗ \(name) \(cause)"
        case .failed(let failure): return "✗ \(name) failed: \(failure.error)"
        }
    }
}
