import AsyncPaging

/// The demo's own wording of the engine's events: the engine's `description`s are for logs and
/// may change; what the screen says is decided here.
enum EventText {
    /// The history line of an event and its tone; `began` events show in the header and the
    /// status line instead.
    static func describe(_ event: FeedEvent) -> (text: String, tone: Tone)? {
        guard case .ended(let side, let reason) = event else { return nil }
        let name = self.name(of: side)
        switch reason {
        case .completed: return ("✓ \(name) done", .plain)
        case .endOfData where side == .loadPrevious: return ("✓ \(name) done, start of the data", .quiet)
        case .endOfData: return ("✓ \(name) done, no more data", .quiet)
        case .cancelled(let cause): return ("✗ \(name) \(cancelled(cause))", .cancellation)
        case .failed(let failure): return ("✗ \(name) failed: \(error(failure.error))", .failure)
        }
    }

    /// "cancelled by a refresh" and the like.
    static func cancelled(_ reason: CancellationReason) -> String {
        switch reason {
        case .preemptedByRefresh: "cancelled by a refresh"
        case .preemptedByLoadMore: "cancelled by a load-more"
        case .preemptedByLoadPrevious: "cancelled by a load-previous"
        case .supersededByNewerRequest: "replaced by a newer request"
        case .closed: "cancelled on close"
        case .pagesDropped: "cancelled: the bound dropped the pages at its end"
        }
    }

    /// Why a call started nothing, e.g. "the first page is still loading".
    static func ignored(_ reason: IgnoreReason) -> String {
        switch reason {
        case .closed: "the feed is closed"
        case .nothingToRetry: "nothing to retry"
        case .refreshInFlight: "a refresh is in flight"
        case .firstPageLoading: "the first page is still loading"
        case .noFirstPage: "no first page yet: refresh first"
        case .stoppedByGuard: "stopped after a bad page: retry or refresh"
        }
    }

    /// An error on one line: an HTTP error's body excerpt may hold line breaks.
    static func error(_ error: any Error) -> String {
        String(describing: error).singleLine
    }

    static func name(of side: FeedSide) -> String {
        switch side {
        case .refresh: "refresh"
        case .loadMore: "load-more"
        case .loadPrevious: "load-previous"
        }
    }
}
