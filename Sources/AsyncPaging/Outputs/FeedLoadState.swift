/// What one side of a feed is doing: see ``FeedLoadStates``.
public enum FeedLoadState: Sendable, Equatable, CustomStringConvertible {
    /// Nothing loads on this side, and it can load.
    case idle
    /// A load of this side is in flight (or waiting to retry).
    case loading
    /// The last load of this side failed; `retry(side)` runs it again. (Boxed, so that a set of
    /// three states stays small: failures are rare.)
    indirect case failed(FeedFailure)
    /// The data has no more items in this direction: loading here fetches nothing until a
    /// refresh. (A refresh never reaches an end.)
    case reachedEnd

    /// Whether a load of this side is in flight: show its spinner.
    public var isLoading: Bool { self == .loading }

    /// The state in a compact form for logs.
    public var description: String {
        switch self {
        case .idle: "idle"
        case .loading: "loading"
        case .failed(let failure): "failed(\(failure))"
        case .reachedEnd: "reachedEnd"
        }
    }
}
