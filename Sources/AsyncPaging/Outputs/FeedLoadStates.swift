/// The state of each side of a feed at once, as ``FeedController/loadStates`` publishes it: a
/// UI can show "loading older" at the top and "no more newer" at the bottom at the same time.
///
/// Unlike the summary ``FeedStatus``, a side that reached the end of the data keeps saying so
/// while another side loads.
public struct FeedLoadStates: Sendable, Equatable, CustomStringConvertible {
    /// The refresh (header): idle, loading or failed.
    public var refresh: FeedLoadState
    /// The start of the list (``FeedController/loadPrevious()``).
    public var loadPrevious: FeedLoadState
    /// The end of the list (``FeedController/loadMore()``).
    public var loadMore: FeedLoadState

    /// Creates a set of states.
    public init(refresh: FeedLoadState, loadPrevious: FeedLoadState, loadMore: FeedLoadState) {
        self.refresh = refresh
        self.loadPrevious = loadPrevious
        self.loadMore = loadMore
    }

    /// Every side idle: a new controller that loads nothing by itself.
    public static let idle = FeedLoadStates(refresh: .idle, loadPrevious: .idle, loadMore: .idle)

    /// The state of `side`.
    public subscript(side: FeedSide) -> FeedLoadState {
        switch side {
        case .refresh: refresh
        case .loadPrevious: loadPrevious
        case .loadMore: loadMore
        }
    }

    /// Whether any side is loading.
    public var isLoading: Bool { refresh.isLoading || loadPrevious.isLoading || loadMore.isLoading }

    /// The three states in a compact form for logs.
    public var description: String {
        "refresh: \(refresh), loadPrevious: \(loadPrevious), loadMore: \(loadMore)"
    }
}
