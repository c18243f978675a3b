import AsyncPaging

/// The state machine of a pull-to-refresh header or a pull-to-load-more footer.
///
/// A gesture belongs to one ``AsyncPaging/FeedSide``: the header (``header(threshold:)``) refreshes, the
/// footer (``footer(threshold:)``) loads more. It is a pure value: the UI reports the pull
/// (``pull(by:)``) and the release (``release()``); the feed reports whether the side is
/// loading (its events through ``handle(_:)``, or its status through ``setLoading(_:)``), the
/// answer to the released request (``requestAnswered()``) and whether the action is available
/// (``setAvailable(_:)``); the gesture answers with its ``state`` and ``progress``:
///
/// - ``State/stopped``: at rest, or pulled less than the threshold.
/// - ``State/triggered``: pulled past the threshold; releasing now starts the action.
/// - ``State/loading``: the action was released and not yet answered, or the side is loading
///   (whoever started it). The matching end event from the feed brings it back to stopped.
/// - ``State/invalid``: the action is unavailable: the end of the data for a footer, a
///   controller that is closed, or an overlap policy that would ignore the request (see
///   ``isAvailable(_:status:hasLoadedFirstPage:configuration:)``).
///
/// ```swift
/// var header = PullGesture.header(threshold: 60)
/// header.pull(by: 75)                          // .triggered, progress 1
/// let request = header.release()               // .refresh: send it; .loading
/// header.handle(.began(.refresh))              // .loading
/// header.handle(.ended(.refresh, .completed))  // .stopped, progress 0
/// ```
public struct PullGesture: Sendable, Hashable {
    /// What the gesture shows.
    public enum State: Sendable, Hashable, CustomStringConvertible {
        /// At rest, or not pulled far enough.
        case stopped
        /// Pulled past the threshold: releasing starts the action.
        case triggered
        /// The action is running.
        case loading
        /// The action is unavailable.
        case invalid

        /// The case name, e.g. `triggered`.
        public var description: String {
            switch self {
            case .stopped: "stopped"
            case .triggered: "triggered"
            case .loading: "loading"
            case .invalid: "invalid"
            }
        }
    }

    /// The side the gesture starts: `.refresh` for a header, `.loadMore` for a footer.
    public let side: FeedSide
    /// The pull distance, in points, at which the gesture triggers: 0 or more (see
    /// ``init(side:threshold:)``).
    public let threshold: Double
    /// How far the current pull reaches toward the threshold, from 0 to 1. Releasing and the
    /// end of a load set it back to 0; an unavailable gesture ignores pulls and keeps it at 0.
    public private(set) var progress: Double = 0
    /// Whether the action is available; see ``setAvailable(_:)``.
    public private(set) var isAvailable = true
    /// Whether the feed reported that the side is loading.
    public private(set) var isSideLoading = false
    /// Whether a release sent a request that the feed has neither begun loading nor answered.
    public private(set) var isRequestPending = false

    /// Creates a gesture for `side` that triggers at `threshold` points.
    ///
    /// Like every number the UI kit takes, a bad threshold is clamped, never trapped on: a
    /// negative, zero or NaN threshold counts as 0, so that any pull past the edge triggers;
    /// an infinite threshold is kept, and never triggers.
    public init(side: FeedSide, threshold: Double = 60) {
        self.side = side
        self.threshold = threshold.isNaN || threshold <= 0 ? 0 : threshold
    }

    /// A pull-to-refresh header.
    public static func header(threshold: Double = 60) -> PullGesture {
        PullGesture(side: .refresh, threshold: threshold)
    }

    /// A pull-to-load-more footer.
    public static func footer(threshold: Double = 60) -> PullGesture {
        PullGesture(side: .loadMore, threshold: threshold)
    }

    /// The state, derived from the load, the availability and the pull, in that order.
    public var state: State {
        if isSideLoading || isRequestPending { return .loading }
        if !isAvailable { return .invalid }
        return progress >= 1 ? .triggered : .stopped
    }

    // MARK: Inputs from the UI

    /// Reports how far the list is pulled past its edge, in points. Negative and NaN
    /// distances count as 0; the progress stops at 1 (an infinite pull toward an infinite
    /// threshold counts as 0). Ignored while the gesture is unavailable.
    public mutating func pull(by distance: Double) {
        guard isAvailable else { return }
        let ratio = distance / threshold // 0 / 0 and ∞ / ∞ are NaN: no progress
        progress = ratio.isNaN ? 0 : min(max(ratio, 0), 1)
    }

    /// Reports that the finger lifted. Returns the request to send when the gesture was
    /// triggered (it is then loading until the feed answers), `nil` otherwise. The progress
    /// goes back to 0 either way.
    public mutating func release() -> FeedRequest? {
        let wasTriggered = state == .triggered
        progress = 0
        guard wasTriggered else { return nil }
        isRequestPending = true
        return side == .refresh ? .refresh : .loadMore
    }

    // MARK: Inputs from the feed

    /// Reports a feed event: the gesture's side beginning makes it loading, its end brings it
    /// back to stopped (or invalid). Events of the other side change nothing.
    public mutating func handle(_ event: FeedEvent) {
        guard event.side == side else { return }
        switch event {
        case .began: setLoading(true)
        case .ended: setLoading(false)
        }
    }

    /// Reports whether the feed is loading the gesture's side: for a header, whether the
    /// status is ``AsyncPaging/FeedStatus/refreshing``; for a footer, ``AsyncPaging/FeedStatus/loadingMore``.
    ///
    /// A change either way settles the released request (the feed has taken it); a change to
    /// not loading is the end of the load and brings the gesture back to stopped, with a
    /// progress of 0. Reporting the same value again changes nothing.
    public mutating func setLoading(_ loading: Bool) {
        guard loading != isSideLoading else { return }
        isSideLoading = loading
        isRequestPending = false
        if !loading { progress = 0 }
    }

    /// Reports that the released request was answered (its load ended, or it started none,
    /// like a load-more answered ``AsyncPaging/LoadOutcome/endOfData``): the gesture stops waiting for it.
    /// Whether the side is still loading is up to ``handle(_:)`` and ``setLoading(_:)``.
    public mutating func requestAnswered() {
        isRequestPending = false
    }

    /// Reports whether the action is available now. An unavailable gesture is invalid unless
    /// it is loading (a load in flight ends with its event first), and drops the pull: pulling
    /// must start again once it is available.
    public mutating func setAvailable(_ available: Bool) {
        isAvailable = available
        if !available { progress = 0 }
    }

    /// Whether a request for `side` would start or join a load, given the feed's newest status:
    /// - nothing is available once the controller is closed;
    /// - a refresh always is otherwise (it preempts a load-more, and replaces or joins a
    ///   refresh);
    /// - a load-more is not at the end of the data, nor during a refresh that it could not
    ///   cancel: while the first page loads (`hasLoadedFirstPage` false, that is a snapshot
    ///   ``AsyncPaging/FeedSnapshot/generation`` of 0), or under ``AsyncPaging/LoadMoreDuringRefreshPolicy/ignoreLoadMore``.
    public static func isAvailable(
        _ side: FeedSide, status: FeedStatus, hasLoadedFirstPage: Bool, configuration: FeedConfiguration
    ) -> Bool {
        switch (side, status) {
        case (_, .closed): false
        case (.refresh, _): true
        case (.loadMore, .endOfData): false
        case (.loadMore, .refreshing):
            hasLoadedFirstPage && configuration.loadMoreDuringRefresh == .cancelRefresh
        case (.loadMore, _): true
        case (.loadPrevious, .refreshing):
            hasLoadedFirstPage && configuration.loadPreviousDuringRefresh == .cancelRefresh
        case (.loadPrevious, _): true
        }
    }
}
