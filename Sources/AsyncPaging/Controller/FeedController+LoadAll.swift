// Loading a feed to the end of its data with one call.

extension FeedController {
    /// Loads every page the feed can reach — load-previouses to the start of the data, then
    /// load-mores to its end — and answers once, with how many pages and items it loaded
    /// and how it ended: Apollo's `loadAll`, for a feed.
    ///
    /// - If the feed has no first page yet, it loads it first (or joins the initial load in
    ///   flight), as ``waitForFirstPage()`` does, and a refresh in flight is joined rather than
    ///   cancelled by a load at an end; a first page that fails ends the call with that
    ///   failure (``LoadAllResult/Ending/failed(_:)`` on ``FeedSide/refresh``), not with
    ///   ``IgnoreReason/noFirstPage``.
    /// - Each page after it is a ``loadPrevious()`` (then a ``loadMore()``): a load in flight
    ///   is joined as those calls join it, and every rule of the feed applies (retry, timeout,
    ///   the guards, duplicates, the outputs). A feed that only pages forward has no start to
    ///   load: its first load-previous answers ``LoadOutcome/endOfData`` without a fetch.
    /// - Only loads that complete are counted in ``LoadAllResult``: a page applied by a load
    ///   that then fails on a guard (``FeedError/repeatedCursor(_:)``) is in the list, not in
    ///   the counts.
    /// - It stops at the first load that does not complete: a failure, a cancellation (say a
    ///   refresh started elsewhere), or a load that starts nothing (say after a guard stopped an
    ///   end); the list keeps what was loaded.
    /// - With a bound on the list (``FeedConfiguration/maximumItems``), pages are dropped at the
    ///   other end as usual while it loads: the call walks the data to its start, then to its
    ///   end (never back), and the list keeps the pages at the end, and ``LoadAllResult/itemsApplied`` counts every item loaded, not the
    ///   list's count. To load only so much, pass `maximumItems` here instead.
    /// - Cancelling the calling task does not cancel the load in flight (other callers may wait
    ///   on it); no later load starts, and the call answers ``LoadAllResult/Ending/callerCancelled``.
    ///
    /// ```swift
    /// let result = await feed.loadAll()
    /// if let failure = result.failure { print("stopped after \(result.itemsApplied) items: \(failure)") }
    /// ```
    /// - Parameters:
    ///   - refreshingFirst: Start with a ``refresh()`` (Apollo's `fetchFromInitialPage`), so that
    ///     the list is loaded afresh from its first page; by default the call goes on from the
    ///     list as it is.
    ///   - maximumPages: Stop after loading this many pages (the first page included when this
    ///     call loads it); `nil` for no limit. A value below 1 loads nothing more.
    ///   - maximumItems: Stop once the pages this call loaded applied at least this many items
    ///     (the page that passes it is kept whole); `nil` for no limit.
    public func loadAll(
        refreshingFirst: Bool = false, maximumPages: Int? = nil, maximumItems: Int? = nil
    ) async -> LoadAllResult {
        var result = LoadAllResult(pagesLoaded: 0, itemsApplied: 0, ending: .reachedEnd)
        func limitReached() -> Bool {
            if let maximumPages, result.pagesLoaded >= maximumPages { return true }
            if let maximumItems, result.itemsApplied >= maximumItems { return true }
            return false
        }
        func ended(_ ending: LoadAllResult.Ending) -> LoadAllResult {
            result.ending = ending
            return result
        }
        if limitReached() { return ended(.reachedLimit) }
        // The first page: loaded (or joined) when the feed has none, or on request; a refresh
        // in flight is joined (a load at an end would cancel it, under the default policies).
        let refreshInFlight = machine.refreshLoad
        if refreshingFirst || !machine.hasLoadedFirstPage || refreshInFlight != nil {
            let first: LoadResult
            if refreshingFirst {
                first = await refresh()
            } else if let refreshInFlight {
                first = await call(side: .refresh) { _, _ in .joined(refreshInFlight.id) }
            } else {
                first = await waitForFirstPage()
            }
            switch first.outcome {
            case .completed(let summary):
                result.pagesLoaded = 1
                result.itemsApplied = summary.itemsApplied
                result.droppedDuplicates = summary.droppedDuplicates
            case .endOfData:
                break
            case .failed(let failure): return ended(.failed(failure))
            case .cancelled(let reason): return ended(.cancelled(reason))
            case .ignored(let reason): return ended(.ignored(reason))
            }
        }
        for side in [FeedSide.loadPrevious, .loadMore] {
            while true {
                if limitReached() { return ended(.reachedLimit) }
                if Task.isCancelled { return ended(.callerCancelled) }
                let load = side == .loadMore ? await loadMore() : await loadPrevious()
                switch load.outcome {
                case .completed(let summary):
                    result.pagesLoaded += 1
                    result.itemsApplied += summary.itemsApplied
                    result.droppedDuplicates += summary.droppedDuplicates
                    if summary.reachedEnd { break } // this end is done
                    continue
                case .endOfData:
                    break
                case .failed(let failure): return ended(.failed(failure))
                case .cancelled(let reason): return ended(.cancelled(reason))
                case .ignored(let reason): return ended(.ignored(reason))
                }
                break
            }
        }
        return ended(.reachedEnd)
    }
}
