/// How a load ended.
public enum FeedEndReason: Sendable, Equatable, CustomStringConvertible {
    /// The page was applied and more data follows.
    case completed
    /// The page was applied and it was the last one.
    case endOfData
    /// The load was cancelled; its data was never applied.
    case cancelled(CancellationReason)
    /// The load failed; the list is unchanged.
    case failed(FeedFailure)

    /// The reason in a compact form for logs, e.g. `cancelled(by a refresh)`.
    public var description: String {
        switch self {
        case .completed: "completed"
        case .endOfData: "endOfData"
        case .cancelled(let reason): "cancelled(\(reason))"
        case .failed(let failure): "failed(\(failure.error))"
        }
    }
}

/// A refresh-control event: a side began loading, or ended.
///
/// For each side, `began` and `ended` strictly alternate, and every `began` gets exactly one
/// `ended`: bind `ended(.refresh, _)` to "end header refreshing" and `ended(.loadMore, _)` to
/// "end footer refreshing". A subscriber that joins while a side is loading first receives
/// that side's `began`, so the rule holds for every subscriber.
public enum FeedEvent: Sendable, Equatable, CustomStringConvertible {
    /// The side started loading.
    case began(FeedSide)
    /// The side stopped loading, for the reason given.
    case ended(FeedSide, FeedEndReason)

    /// The side the event concerns.
    public var side: FeedSide {
        switch self {
        case .began(let side), .ended(let side, _): side
        }
    }

    /// The event in a compact form for logs, e.g. `ended(loadMore, completed)`.
    public var description: String {
        switch self {
        case .began(let side): "began(\(side))"
        case .ended(let side, let reason): "ended(\(side), \(reason))"
        }
    }
}
