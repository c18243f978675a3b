/// The feed's state at a glance, for a spinner and a "no more data" footer: one summary of a
/// feed that loads at its end. A feed that also loads at its start reads ``FeedLoadStates``,
/// which tells every side at once.
///
/// While loads run at both ends, the summary says `refreshing`, else `loadingMore`, else
/// `loadingPrevious`; with nothing loading, the newest failure standing, else `endOfData` when
/// the end of the list reached the end of the data, else `idle`.
public enum FeedStatus: Sendable, Equatable, CustomStringConvertible {
    /// Nothing is loading and more data may follow.
    case idle
    /// A refresh is in flight (or waiting to retry).
    case refreshing
    /// A load-more is in flight (or waiting to retry).
    case loadingMore
    /// A load before the first page (``FeedController/loadPrevious()``) is in flight (or waiting
    /// to retry), and nothing else loads.
    case loadingPrevious
    /// The last page has been loaded; `loadMore()` fetches nothing until a refresh.
    case endOfData
    /// The last load failed; `retry()` runs it again.
    case failed(FeedFailure)
    /// The controller is closed; the stream finishes after this value.
    case closed

    /// Whether a load is in flight: show a spinner.
    public var isLoading: Bool {
        switch self {
        case .refreshing, .loadingMore, .loadingPrevious: true
        default: false
        }
    }

    /// The status in a compact form for logs.
    public var description: String {
        switch self {
        case .idle: "idle"
        case .refreshing: "refreshing"
        case .loadingMore: "loadingMore"
        case .loadingPrevious: "loadingPrevious"
        case .endOfData: "endOfData"
        case .failed(let failure): "failed(\(failure))"
        case .closed: "closed"
        }
    }
}
