import AsyncPaging

/// Turns a feed's events, in order, into ``RefreshCommand``s: the pure core of
/// ``AsyncPaging/FeedController/refreshCommands``.
///
/// - `began(.refresh)` → ``RefreshCommand/beginHeaderRefresh``; `began(.loadMore)` →
///   ``RefreshCommand/beginFooterRefresh``.
/// - Every `ended` → ``RefreshCommand/endHeaderRefresh`` or ``RefreshCommand/endFooterRefresh``,
///   whatever the reason, so every begin gets exactly one end.
/// - After the end: ``RefreshCommand/noMoreData`` when the load reached the end of the data;
///   ``RefreshCommand/resetNoMoreData`` when "no more data" shows and a page arrived that
///   claims more (a completed load, or a failure of type ``AsyncPaging/FeedError/repeatedCursor(_:)`` or
///   ``AsyncPaging/FeedError/emptyPageClaimsMore``, after which the controller loads more again). Each of
///   the two is sent only when it changes what the footer shows.
public struct RefreshCommandMapper: Sendable, Hashable {
    /// Whether the footer shows "no more data" after the commands sent so far.
    public private(set) var showsNoMoreData: Bool

    /// Creates a mapper for a footer that shows "no more data" or not.
    public init(showsNoMoreData: Bool = false) {
        self.showsNoMoreData = showsNoMoreData
    }

    /// The commands for a controller whose newest status is `status`, before any event:
    /// ``RefreshCommand/noMoreData`` at the end of the data, nothing otherwise.
    public mutating func start(status: FeedStatus) -> [RefreshCommand] {
        status == .endOfData ? setNoMoreData(true) : []
    }

    /// The commands for the next event.
    public mutating func commands(for event: FeedEvent) -> [RefreshCommand] {
        switch event {
        case .began(.refresh):
            return [.beginHeaderRefresh]
        case .began(.loadMore):
            // A load-more only begins when more data may follow.
            return setNoMoreData(false) + [.beginFooterRefresh]
        case .began(.loadPrevious), .ended(.loadPrevious, _):
            // A header and a footer have nothing to show for a load before the first page.
            return []
        case .ended(let side, let reason):
            let end: RefreshCommand = side == .refresh ? .endHeaderRefresh : .endFooterRefresh
            switch reason {
            case .endOfData:
                return [end] + setNoMoreData(true)
            case .completed:
                return [end] + setNoMoreData(false)
            case .failed(let failure) where Self.claimsMoreData(failure):
                return [end] + setNoMoreData(false)
            case .failed, .cancelled:
                return [end]
            }
        }
    }

    private mutating func setNoMoreData(_ shows: Bool) -> [RefreshCommand] {
        guard shows != showsNoMoreData else { return [] }
        showsNoMoreData = shows
        return [shows ? .noMoreData : .resetNoMoreData]
    }

    /// Whether the failed load still received a page that claims more data.
    private static func claimsMoreData(_ failure: FeedFailure) -> Bool {
        switch failure.error as? FeedError {
        case .repeatedCursor, .emptyPageClaimsMore: true
        case .timedOut, .clockFailed, nil: false
        }
    }
}
