import AsyncPaging

/// What ``FeedModel`` keeps to load at both ends of the list: the rows last reported (for the
/// fill rule), its requests per side that are not answered yet, the hints buffered while a
/// refresh wins, and the ends whose last request was ignored.
@usableFromInline struct _EdgeBookkeeping {
    /// The rows the list last reported, in indices of the model's ``FeedModel/items``: moved by
    /// a prepend, dropped when the list is replaced.
    @usableFromInline var visibleRows: Range<Int>?
    /// The model's requests not answered yet, by side; a retry counts as a refresh (its side
    /// is not known before the answer, and it blocks both ends like one). Counters, not a
    /// dictionary: every request of every page passes here.
    @usableFromInline var pendingRefreshes = 0
    @usableFromInline var pendingLoadsMore = 0
    @usableFromInline var pendingLoadsPrevious = 0
    /// The ends whose load was ignored because the first page or a refresh was loading, and the
    /// policy let the refresh win: their load is sent again once the refresh has ended.
    @usableFromInline var buffered: Set<FeedSide> = []
    /// The ends the fill rule leaves alone until the list reports its rows again: their last
    /// request was ignored for another reason (a guard stopped the end, no first page).
    @usableFromInline var halted: Set<FeedSide> = []

    @inlinable init() {}

    /// The requests of `side` not answered yet.
    @usableFromInline subscript(pending side: FeedSide) -> Int {
        get {
            switch side {
            case .refresh: pendingRefreshes
            case .loadMore: pendingLoadsMore
            case .loadPrevious: pendingLoadsPrevious
            }
        }
        set {
            switch side {
            case .refresh: pendingRefreshes = newValue
            case .loadMore: pendingLoadsMore = newValue
            case .loadPrevious: pendingLoadsPrevious = newValue
            }
        }
    }

    /// The sides with a request not answered yet.
    var pendingSides: Set<FeedSide> {
        Set(FeedSide.allCases.filter { self[pending: $0] > 0 })
    }
}

extension FeedModel.Operation {
    /// The side whose pending request this is: a retry blocks like a refresh.
    @inlinable var pendingSide: FeedSide {
        switch self {
        case .refresh, .retry: .refresh
        case .loadMore: .loadMore
        case .loadPrevious: .loadPrevious
        }
    }

    /// The load of `side` at an end.
    static func load(_ side: FeedSide) -> Self { side == .loadPrevious ? .loadPrevious : .loadMore }
}

extension FeedModel {
    /// Whether the data has no page before the first one: the top shows "start of the data".
    /// A feed opened at its first page is at its start at once.
    public var isAtStartOfData: Bool { loadStates.loadPrevious == .reachedEnd }

    /// What the two-ended decisions read: the newest states, the policy, the pending requests.
    func _feedState() -> PrefetchTrigger.FeedState {
        PrefetchTrigger.FeedState(
            loadStates: controller.currentLoadStates, isClosed: controller.currentStatus == .closed,
            bothEnds: controller.configuration.bothEnds, pendingSides: _edges.pendingSides)
    }

    // MARK: Reports

    /// A report of the rows on screen: remembered for the fill rule, decided at both ends.
    func _prefetch(rows: Range<Int>) -> PrefetchTrigger.Decisions {
        _edges.visibleRows = rows
        _edges.halted = []
        _reportToBound(rows)
        let count = controller.currentSnapshot.count
        return _carryOut(
            nearStart: prefetch.isNearStart(visibleRows: rows, itemCount: count),
            nearEnd: prefetch.isNearEnd(visibleRows: rows, itemCount: count))
    }

    /// A report of one row about to appear: remembered as the position, decided at both ends.
    func _prefetch(row index: Int) -> PrefetchTrigger.Decisions {
        _edges.visibleRows = index < .max ? index..<(index + 1) : nil
        _edges.halted = []
        if let rows = _edges.visibleRows { _reportToBound(rows) }
        let count = controller.currentSnapshot.count
        return _carryOut(
            nearStart: prefetch.isNearStart(row: index, itemCount: count),
            nearEnd: prefetch.isNearEnd(row: index, itemCount: count))
    }

    /// Tells a bounded controller which rows are on screen, with the prefetch distance, so that
    /// its bound never drops them (``AsyncPaging/FeedController/reportVisibleRows(_:prefetchDistance:of:)``).
    func _reportToBound(_ rows: Range<Int>) {
        guard controller.configuration.maximumItems != nil else { return }
        controller.reportVisibleRows(rows, prefetchDistance: prefetch.prefetchDistance, of: _items)
    }

    /// A report of the geometry: decided at both ends; nothing is remembered (a geometry has
    /// no rows; the list reports a new one when its content grows).
    func _prefetch(geometry: FeedScrollGeometry) -> PrefetchTrigger.Decisions {
        _carryOut(nearStart: prefetch.isNearStart(geometry), nearEnd: prefetch.isNearEnd(geometry))
    }

    /// Decides at both ends and sends the loads; an end near the position while a refresh that
    /// wins is loading keeps its hint for when the refresh has ended.
    private func _carryOut(nearStart: Bool, nearEnd: Bool) -> PrefetchTrigger.Decisions {
        let feed = _feedState()
        let decisions = prefetch.decisions(nearStart: nearStart, nearEnd: nearEnd, in: feed)
        for side in decisions.sides { launch(.load(side)) }
        if feed.loadStates.refresh.isLoading, !feed.isClosed {
            for (edge, near) in [(PrefetchTrigger.Edge.end, nearEnd), (.start, nearStart)]
            where near && _refreshWins(over: edge.side) {
                _edges.buffered.insert(edge.side)
            }
        }
        return decisions
    }

    /// Whether a load at `side` sent now would be ignored for the refresh in flight: before the
    /// first page always, after it when the policy lets the refresh win.
    private func _refreshWins(over side: FeedSide) -> Bool {
        guard controller.currentSnapshot.generation > 0 else { return true }
        let configuration = controller.configuration
        return side == .loadPrevious
            ? configuration.loadPreviousDuringRefresh == .ignoreLoadPrevious
            : configuration.loadMoreDuringRefresh == .ignoreLoadMore
    }

    // MARK: Requests

    /// Counts a request as pending for its side, before it is sent.
    @inlinable func _requestSent(_ operation: Operation) {
        _edges[pending: operation.pendingSide] += 1
    }

    /// Takes a request's answer: no longer pending; a load ignored for a refresh that wins is
    /// buffered, one ignored for another reason stops the fill at that end.
    @usableFromInline func _requestAnswered(_ operation: Operation, _ result: LoadResult) {
        let key = operation.pendingSide
        _edges[pending: key] = max(_edges[pending: key] - 1, 0)
        guard let side = result.side, side != .refresh else { return }
        switch result.outcome {
        case .ignored(.firstPageLoading), .ignored(.refreshInFlight):
            _edges.buffered.insert(side)
        case .ignored:
            _edges.halted.insert(side)
        case .completed:
            if !_edges.halted.isEmpty { _edges.halted.remove(side) }
        case .endOfData, .cancelled, .failed:
            break
        }
    }

    // MARK: Following the controller

    /// Runs at the end of every ``sync()``, once the list and the status are the controller's
    /// newest: copies the per-side states, moves the remembered rows by what was prepended or
    /// dropped at the start (or forgets them when the list was replaced or they were dropped),
    /// replays the buffered hints once the refresh has ended, and fills: loads again at an end
    /// the remembered rows are still near.
    // Inlinable up to the decisions, so that a model with no remembered rows and no buffered
    // hint (nothing to move, replay or fill: every page of a list that reports no rows) runs
    // specialized and returns early; the rest stays in the module.
    @inlinable func _edgesSynced(previous: FeedSnapshot<Item>, states: FeedLoadStates) {
        if states != _loadStates { _set(loadStates: states) }
        guard _edges.visibleRows != nil || !_edges.buffered.isEmpty else { return }
        _edgesMoved(previous: previous, states: states)
    }

    /// The part of ``_edgesSynced(previous:states:)`` with rows or hints to handle.
    @usableFromInline func _edgesMoved(previous: FeedSnapshot<Item>, states: FeedLoadStates) {
        let snapshot = _items
        if snapshot.version != previous.version, let rows = _edges.visibleRows {
            let change = snapshot.change(since: previous)
            switch change {
            case .initial, .replaced:
                _edges.visibleRows = nil
            case .appended, .prepended, .extended, .ends, .updated:
                let shift = change.indexShift
                if shift != 0 {
                    let fits = shift > 0 ? rows.upperBound <= Int.max - shift : rows.lowerBound + shift >= 0
                    _edges.visibleRows = fits ? (rows.lowerBound + shift)..<(rows.upperBound + shift) : nil
                }
            case .reloaded(let move):
                // The rows follow the anchor's item into the reloaded list, if it is there.
                if let to = move.to, rows.lowerBound + to - move.from >= 0 {
                    let shift = to - move.from
                    _edges.visibleRows = (rows.lowerBound + shift)..<(rows.upperBound + shift)
                } else {
                    _edges.visibleRows = nil
                }
            case .removed(let indices):
                // Each row moves up by the removed rows before it.
                let before = indices.prefix { $0 < rows.lowerBound }.count
                let within = indices.prefix { $0 < rows.upperBound }.count
                _edges.visibleRows = (rows.lowerBound - before)..<Swift.max(rows.lowerBound - before, rows.upperBound - within)
            }
        }
        if _status == .closed {
            _edges.buffered = []
            return
        }
        _replayBufferedHints(states)
        _fill()
    }

    /// Sends the loads buffered while a refresh won, once no refresh is loading or pending.
    /// Under ``AsyncPaging/BothEndsPolicy/cancelOther`` one at a time, the end first.
    private func _replayBufferedHints(_ states: FeedLoadStates) {
        guard !_edges.buffered.isEmpty, !states.refresh.isLoading, _edges.pendingRefreshes == 0 else { return }
        let oneAtATime = controller.configuration.bothEnds == .cancelOther
        for side in [FeedSide.loadMore, .loadPrevious] where _edges.buffered.contains(side) {
            let other: FeedSide = side == .loadMore ? .loadPrevious : .loadMore
            if oneAtATime, states[other].isLoading || _edges[pending: other] > 0 { continue }
            _edges.buffered.remove(side)
            launch(.load(side))
        }
    }

    /// The fill rule: while the remembered rows are within the prefetch distance of an end
    /// that can load, load there.
    private func _fill() {
        guard let rows = _edges.visibleRows else { return }
        let count = _items.count
        let decisions = prefetch.decisions(
            nearStart: !_edges.halted.contains(.loadPrevious) && prefetch.isNearStart(visibleRows: rows, itemCount: count),
            nearEnd: !_edges.halted.contains(.loadMore) && prefetch.isNearEnd(visibleRows: rows, itemCount: count),
            in: _feedState())
        for side in decisions.sides { launch(.load(side)) }
    }
}
