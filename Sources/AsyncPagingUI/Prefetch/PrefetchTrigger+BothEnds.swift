import AsyncPaging

// The two-ended decisions: each end of the list decides on its own, from the feed's per-side
// ``FeedLoadStates``, so that a start that reached the start of the data (or failed) stops
// loading while the end still loads, and the other way round.
extension PrefetchTrigger {
    /// One end of the list.
    public enum Edge: Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// The top: loads the page before the first (``AsyncPaging/FeedSide/loadPrevious``).
        case start
        /// The bottom: loads the page after the last (``AsyncPaging/FeedSide/loadMore``).
        case end

        /// The side a load at this end runs on.
        public var side: FeedSide { self == .start ? .loadPrevious : .loadMore }

        /// The other end.
        public var opposite: Edge { self == .start ? .end : .start }

        /// The decision that loads at this end.
        public var load: Decision { self == .start ? .loadPrevious : .loadMore }

        /// `start` or `end`.
        public var description: String { self == .start ? "start" : "end" }
    }

    /// What the two-ended decisions read of the feed: its per-side states, whether it is
    /// closed, its both-ends policy, and the requests the caller sent that are not answered yet.
    public struct FeedState: Sendable, Equatable {
        /// The feed's newest per-side states (``AsyncPaging/FeedController/currentLoadStates``).
        public var loadStates: FeedLoadStates
        /// Whether the controller is closed.
        public var isClosed: Bool
        /// The controller's ``AsyncPaging/FeedConfiguration/bothEnds``: under
        /// ``AsyncPaging/BothEndsPolicy/cancelOther`` an end does not load while the other loads,
        /// since its load would cancel that one.
        public var bothEnds: BothEndsPolicy
        /// The sides of the requests the caller sent that the controller has not answered
        /// yet: the states do not show a request until the controller has taken it. A pending
        /// ``AsyncPaging/FeedSide/refresh`` (or a retry, whose side is not known yet) blocks both
        /// ends.
        public var pendingSides: Set<FeedSide>

        /// Creates the state the decisions read.
        public init(
            loadStates: FeedLoadStates, isClosed: Bool = false, bothEnds: BothEndsPolicy = .runBoth,
            pendingSides: Set<FeedSide> = []
        ) {
            self.loadStates = loadStates
            self.isClosed = isClosed
            self.bothEnds = bothEnds
            self.pendingSides = pendingSides
        }
    }

    /// The answer to one report at both ends of the list.
    public struct Decisions: Sendable, Hashable, CustomStringConvertible {
        /// The top: ``Decision/loadPrevious`` or why not.
        public var start: Decision
        /// The bottom: ``Decision/loadMore`` or why not.
        public var end: Decision

        /// Creates a pair of decisions.
        public init(start: Decision, end: Decision) {
            self.start = start
            self.end = end
        }

        /// The decision of `edge`.
        public subscript(edge: Edge) -> Decision { edge == .start ? start : end }

        /// The loads to send, the end first: empty, one side, or both.
        public var sides: [FeedSide] {
            (end == .loadMore ? [FeedSide.loadMore] : []) + (start == .loadPrevious ? [.loadPrevious] : [])
        }

        /// One decision for callers that want one: ``Decision/loadMore`` if the end loads, else
        /// ``Decision/loadPrevious`` if the start loads, else the end's reason when the position
        /// is near the end, else the start's reason when the position is near a start that can
        /// still load, else ``SkipReason/notNearEnd``. So a list that only loads at its end
        /// (whose start is at the start of the data) reads what the one-ended decision reads.
        public var summary: Decision {
            if end == .loadMore { return .loadMore }
            if start == .loadPrevious { return .loadPrevious }
            if end != .skip(.notNearEnd) { return end }
            return start == .skip(.endOfData) ? end : start
        }

        /// Both decisions, e.g. `start: skip(endOfData), end: loadMore`.
        public var description: String { "start: \(start), end: \(end)" }
    }

    // MARK: Positions at the start

    /// Whether row `index` is within ``prefetchDistance`` rows of the first item. A negative
    /// index, or an empty list, is never near the start.
    public func isNearStart(row index: Int, itemCount: Int) -> Bool {
        guard index >= 0, itemCount > 0 else { return false }
        return index <= prefetchDistance
    }

    /// Whether the first of the visible `rows` is near the start; an empty range is not.
    public func isNearStart(visibleRows rows: Range<Int>, itemCount: Int) -> Bool {
        guard let first = rows.first else { return false }
        return isNearStart(row: first, itemCount: itemCount)
    }

    /// Whether `geometry` is within ``topDistance`` points of the top, or pulled past it.
    public func isNearStart(_ geometry: FeedScrollGeometry) -> Bool {
        geometry.isAtTop(within: topDistance)
    }

    // MARK: Decisions at both ends

    /// The decision for one end of the list, whose position is (or is not) near that end.
    ///
    /// In order: a position that is not near answers ``SkipReason/notNearEnd``; a closed feed
    /// ``SkipReason/closed``; a refresh in flight, a load in flight at this end, or (under
    /// ``AsyncPaging/BothEndsPolicy/cancelOther``) at the other end ``SkipReason/loadInFlight``;
    /// an end that reached the end of the data ``SkipReason/endOfData``; an end whose last load
    /// failed ``SkipReason/failed``; a pending request for this end or a refresh
    /// ``SkipReason/loadInFlight``; else the end loads. The other end's failure or end of the
    /// data does not matter.
    public func decision(at edge: Edge, near: Bool, in feed: FeedState) -> Decision {
        guard near else { return .skip(.notNearEnd) }
        if feed.isClosed { return .skip(.closed) }
        let states = feed.loadStates
        if states.refresh.isLoading { return .skip(.loadInFlight) }
        switch states[edge.side] {
        case .loading: return .skip(.loadInFlight)
        case .reachedEnd: return .skip(.endOfData)
        case .failed: return .skip(.failed)
        case .idle: break
        }
        let pending = feed.pendingSides
        if pending.contains(edge.side) || pending.contains(.refresh) { return .skip(.loadInFlight) }
        if feed.bothEnds == .cancelOther,
           states[edge.opposite.side].isLoading || pending.contains(edge.opposite.side) {
            return .skip(.loadInFlight)
        }
        return edge.load
    }

    /// The decisions for a position that is (or is not) near each end. When both ends would
    /// load under ``AsyncPaging/BothEndsPolicy/cancelOther``, the end loads and the start waits
    /// (``SkipReason/loadInFlight``): one load at a time.
    public func decisions(nearStart: Bool, nearEnd: Bool, in feed: FeedState) -> Decisions {
        var decisions = Decisions(
            start: decision(at: .start, near: nearStart, in: feed), end: decision(at: .end, near: nearEnd, in: feed))
        if feed.bothEnds == .cancelOther, decisions.start == .loadPrevious, decisions.end == .loadMore {
            decisions.start = .skip(.loadInFlight)
        }
        return decisions
    }

    /// The decisions for row `index` about to appear in a list of `itemCount` items.
    public func decisions(forRow index: Int, itemCount: Int, in feed: FeedState) -> Decisions {
        decisions(
            nearStart: isNearStart(row: index, itemCount: itemCount),
            nearEnd: isNearEnd(row: index, itemCount: itemCount), in: feed)
    }

    /// The decisions for the visible `rows` of a list of `itemCount` items: the first row
    /// decides at the start, the last at the end.
    public func decisions(forVisibleRows rows: Range<Int>, itemCount: Int, in feed: FeedState) -> Decisions {
        decisions(
            nearStart: isNearStart(visibleRows: rows, itemCount: itemCount),
            nearEnd: isNearEnd(visibleRows: rows, itemCount: itemCount), in: feed)
    }

    /// The decisions for a list scrolled to `geometry`: ``topDistance`` at the start,
    /// ``bottomDistance`` at the end.
    public func decisions(for geometry: FeedScrollGeometry, in feed: FeedState) -> Decisions {
        decisions(nearStart: isNearStart(geometry), nearEnd: isNearEnd(geometry), in: feed)
    }
}
