// Lists that stay true (issue 25): invalidation around the row on screen, invalidations a
// source publishes, and jumps. The rules are the machine's (`reloadRequested`); this file finds
// the anchor, names the cursor, and says where the anchor's item went.
extension FeedController {
    /// Says the data changed: the list reloads around the row the user sees, and the published
    /// change says where that row's item went (``FeedChange/reloaded(_:)``).
    ///
    /// The anchor is the first row reported with ``reportVisibleRows(_:prefetchDistance:)``.
    /// The reload fetches one page — by default the page that holds the anchor, from the cursor
    /// it was fetched with (``ReloadAnchor/pageCursor``), or the cursor
    /// ``ReloadPolicy/refreshCursor`` names for the anchor — and replaces the list with it; both
    /// ends then load on from that page's cursors. Without rows reported, the list's first page
    /// is reloaded (a list opened in the middle of the data stays there); before the first page,
    /// the first page loads. A feed that keeps no page cursors
    /// (``FeedConfiguration/keepsPageCursors``, implied by ``FeedConfiguration/maximumItems`` and
    /// ``RefreshMode/refetchLoaded``) knows its list as one page, and reloads its first page.
    ///
    /// With loads in flight:
    /// - Loads at either end are cancelled (``CancellationReason/preemptedByRefresh``): their
    ///   pages belong to the old list and are never applied.
    /// - A refresh in flight (a reload, a refresh, a refetch) is joined, and its fetch in flight
    ///   is marked stale: its answer, which may predate the change, is dropped
    ///   (``FeedDiagnostic/staleResultDiscarded(side:attempt:succeeded:)``) and the load fetches
    ///   again from where it started. However many invalidations come during one fetch, it
    ///   fetches once more (they coalesce). A refresh waiting for a retry's backoff is joined
    ///   as it is: its next try fetches after the change.
    /// - While the reload is in flight, ``loadMore()`` and ``loadPrevious()`` are ignored
    ///   (``IgnoreReason/refreshInFlight``): the reload wins. ``refresh()`` follows
    ///   ``RefreshDuringRefreshPolicy``; ``close()`` ends it.
    /// - Edits made before the reload lands are replaced with the list, as by any refresh: the
    ///   reloaded page is the source's truth. With ``FeedConfiguration/maximumItems``, the
    ///   reloaded list is one page, under the bound.
    ///
    /// - Returns: The reload's outcome (``FeedSide/refresh``), once it has ended; joined
    ///   (``LoadResult/joinedInFlightLoad``) when a refresh was in flight.
    @discardableResult
    public func invalidate() async -> LoadResult {
        let (anchor, cursor) = reloadStart()
        return await call(side: .refresh) { machine, actions in
            let decision = machine.reloadRequested(from: cursor, coalesces: true, into: &actions)
            if case .started(let id) = decision { self.rememberAnchor(anchor, for: id) }
            return decision
        }
    }

    /// Follows a source's invalidations — a database observation, a push channel: each element
    /// is an ``invalidate()`` (its value is not read), with the same rules, so that a burst of
    /// them during a fetch reloads once more. Following ends when the sequence ends or throws,
    /// or on ``close()`` (the following task is cancelled); call it once per sequence. Following
    /// does not keep the controller alive.
    public nonisolated func followInvalidations<Invalidations: AsyncSequence & Sendable>(_ invalidations: Invalidations) {
        let tasks = self.tasks // not `self`: following must not keep the controller alive
        tasks.adopt(self)
        let follower = Task {
            do {
                for try await _ in invalidations {
                    guard let owner = tasks.owner else { return }
                    await owner.invalidatedBySource()
                }
            } catch {
                // A sequence that throws ends following; the list stays as it is.
            }
        }
        _ = tasks.addInvalidationFollower(follower)
    }

    /// Sets how the controller reloads where the user is: the cursor an invalidation reloads
    /// from, and jumps (``ReloadPolicy``). Replaces the policy set before; reloads and jumps in
    /// flight go on.
    public func setReloadPolicy(_ policy: ReloadPolicy<Item, Cursor>) {
        reloadState.policy = policy
        tasks.jumpThreshold = policy.jumps?.threshold
    }

    /// One invalidation from a followed sequence.
    @inlinable func invalidatedBySource() {
        let (anchor, cursor) = reloadStart()
        _ = run { machine, actions in
            let decision = machine.reloadRequested(from: cursor, coalesces: true, into: &actions)
            if case .started(let id) = decision { self.rememberAnchor(anchor, for: id) }
            return decision
        }
    }

    /// The UI reported row `row` of the list of `generation` on screen, past the threshold:
    /// the feed refreshes at the page the jump policy names, unless the list changed since or
    /// the policy names none. A jump to the page a jump in flight fetches joins it.
    @inlinable func jumpReported(row: Int, generation: UInt64) {
        guard let jumps = _reloads?.policy.jumps, published.generation == generation, machine.hasLoadedFirstPage,
              !machine.isClosed
        else { return }
        let count = published.counts.count
        guard count > 0, Self.isJump(row: row, count: count, threshold: jumps.threshold) else { return }
        let target = JumpTarget(
            row: row, itemCount: count, firstPageCursor: machine.start.edgePageCursor,
            lastPageCursor: machine.end.edgePageCursor)
        guard let cursor = jumps.cursor(target) else { return }
        run { _ = $0.reloadRequested(from: cursor, coalesces: false, into: &$1) }
    }

    /// Whether a first row on screen at `row` of a list of `count` items is farther than
    /// `threshold` rows past the list (after its last row, or before its first).
    @inlinable static func isJump(row: Int, count: Int, threshold: Int) -> Bool {
        let threshold = Swift.max(threshold, 0)
        return row >= (count - 1)._saturatingAdd(threshold)._saturatingAdd(1) || row < -threshold
    }

    /// The reload state, made on first use.
    @inlinable var reloadState: _ReloadState<Item, Cursor> {
        if let state = _reloads { return state }
        let state = _ReloadState<Item, Cursor>()
        _reloads = state
        return state
    }

    /// The anchor (the first row on screen, if reported for the current list) and the cursor
    /// an invalidation reloads from.
    @inlinable func reloadStart() -> (anchor: ReloadAnchor<Item, Cursor>?, cursor: Cursor?) {
        guard machine.hasLoadedFirstPage else { return (nil, machine.refreshStartCursor) }
        guard let anchor = currentAnchor() else { return (nil, machine.start.edgePageCursor) }
        if let refreshCursor = _reloads?.policy.refreshCursor { return (anchor, refreshCursor(anchor)) }
        return (anchor, anchor.pageCursor)
    }

    /// The first row on screen as last reported, in the current list, with the page that holds
    /// it; `nil` when no rows were reported for this list. A row removed by an edit since gives
    /// the next row shown.
    @inlinable func currentAnchor() -> ReloadAnchor<Item, Cursor>? {
        guard let rows = tasks.visibleRows, rows.generation == published.generation else { return nil }
        let contents = store.contents
        guard contents.count > 0 else { return nil }
        let offset = contents.counts.logicalOffset
        var storeIndex = Swift.min(Swift.max(rows.anchor._saturatingSubtract(offset), 0), contents.count - 1)
        if let overlay {
            while storeIndex < contents.count - 1 && overlay.isRemoved(storeIndex + offset) { storeIndex += 1 }
            if overlay.isRemoved(storeIndex + offset) { return nil } // nothing shown from there on
        }
        let item = overlay?.replacement(at: storeIndex + offset) ?? contents[storeIndex]
        let index = overlay?.visibleIndex(ofStoreIndex: storeIndex, offset: offset) ?? storeIndex
        let (pageCursor, indexInPage) = inMachine { machine in
            guard machine.keepsPages, !machine.pages.isEmpty else { return (machine.start.edgePageCursor, storeIndex) }
            var pageStart = 0
            for record in machine.pages {
                if storeIndex < pageStart + record.itemCount { return (record.fetchedWith, storeIndex - pageStart) }
                pageStart += record.itemCount
            }
            let last = machine.pages[machine.pages.endIndex - 1]
            return (last.fetchedWith, Swift.max(0, storeIndex - (pageStart - last.itemCount)))
        }
        return ReloadAnchor(item: item, index: index, pageCursor: pageCursor, indexInPage: indexInPage)
    }

    /// Keeps `anchor` for reload `id`, to say where its item went when the reload lands.
    @inlinable func rememberAnchor(_ anchor: ReloadAnchor<Item, Cursor>?, for id: LoadID) {
        guard let anchor else {
            _reloads?.anchor = nil
            return
        }
        reloadState.anchor = _ReloadState.PendingAnchor(
            loadID: id.rawValue, item: anchor.item, index: anchor.index, indexInPage: anchor.indexInPage)
    }

    /// The anchor of reload `id`, taken; `nil` when `id` is no reload with an anchor.
    @inlinable func takeAnchor(of id: LoadID) -> _ReloadState<Item, Cursor>.PendingAnchor? {
        guard let state = _reloads, let anchor = state.anchor, anchor.loadID == id.rawValue else { return nil }
        state.anchor = nil
        return anchor
    }

    /// The anchor's index in the list as it is now, before the reload replaces it: found by id
    /// when the feed has ids (edits and bound drops since the invalidation moved it), else the
    /// index it had.
    @inlinable func indexBeforeReload(_ anchor: _ReloadState<Item, Cursor>.PendingAnchor) -> Int {
        let contents = store.contents
        guard let identities, let position = identities.position(of: anchor.item, in: contents) else { return anchor.index }
        let storeIndex = position - contents.counts.logicalOffset
        return overlay?.visibleIndex(ofStoreIndex: storeIndex, offset: contents.counts.logicalOffset) ?? storeIndex
    }

    /// The anchor's index in the reloaded list: found by id when the feed has ids, else its
    /// place in its page (the reload fetched that page); `nil` when it is not there.
    @inlinable func indexAfterReload(_ anchor: _ReloadState<Item, Cursor>.PendingAnchor) -> Int? {
        let contents = store.contents
        if let identities {
            return identities.position(of: anchor.item, in: contents).map { $0 - contents.counts.logicalOffset }
        }
        return anchor.indexInPage < contents.count ? anchor.indexInPage : nil
    }
}
