/// A request that UI code sends without waiting for its outcome; see ``FeedController/send(_:)``.
public enum FeedRequest: Sendable, Hashable {
    /// Same as ``FeedController/refresh()``.
    case refresh
    /// Same as ``FeedController/loadMore()``.
    case loadMore
    /// Same as ``FeedController/loadPrevious()``.
    case loadPrevious
    /// Same as ``FeedController/retry(_:)`` with no side.
    case retry
    /// Same as ``FeedController/close()``.
    case close
}
