/// A saved session as a ``FeedSessionStore`` answers it: the list with every saved record
/// applied, and the version to write on next.
public struct StoredFeedSession<Item: Sendable, Cursor: Hashable & Sendable>: Sendable {
    /// The list: the last ``FeedSessionRecord/replaced(_:)`` state with the page records saved
    /// after it applied in order (``FeedSessionRecord/applied(to:)``).
    public let state: FeedState<Item, Cursor>
    /// The version of the last save; the next write names it as its `expectedVersion`.
    public let version: FeedSessionVersion

    /// Creates a saved session.
    public init(state: FeedState<Item, Cursor>, version: FeedSessionVersion) {
        self.state = state
        self.version = version
    }
}

extension StoredFeedSession: Equatable where Item: Equatable {}
