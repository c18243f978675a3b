/// The list, the status and the state of each side of a feed, taken together: one value of
/// ``FeedController/updates``.
///
/// The three always belong to the same moment: the controller publishes them together at the
/// end of each of its turns, so an update never pairs a new list with the status of the load
/// that produced it still running (a page that landed comes with `idle`, not `loadingMore`).
public struct FeedUpdate<Item: Sendable>: Sendable {
    /// The newest list (as ``FeedController/snapshots`` publishes it).
    public let snapshot: FeedSnapshot<Item>
    /// The summary status (as ``FeedController/statuses`` publishes it).
    public let status: FeedStatus
    /// What each side is doing (as ``FeedController/loadStates`` publishes it).
    public let loadStates: FeedLoadStates

    /// Creates an update of the three values.
    @inlinable public init(snapshot: FeedSnapshot<Item>, status: FeedStatus, loadStates: FeedLoadStates) {
        self.snapshot = snapshot
        self.status = status
        self.loadStates = loadStates
    }
}

extension FeedUpdate: CustomStringConvertible {
    /// The snapshot's description, the status and the load states, for logs.
    public var description: String {
        "FeedUpdate(\(snapshot), status: \(status), \(loadStates))"
    }
}
