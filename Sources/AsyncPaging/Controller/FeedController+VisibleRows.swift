// The rows on screen, for the bound (issue 22): pages near them are never dropped.
extension FeedController {
    /// Tells the bound (``FeedConfiguration/maximumItems``) which rows the UI shows, so that it
    /// never drops the pages the user sees or is about to see.
    ///
    /// With rows reported, a page that lands over the bound drops whole pages from the end
    /// farther from these rows first, then from the other end, but never a page holding one of
    /// these rows or one of the `prefetchDistance + 1` rows before and after them (where the
    /// pages a prefetch loads land). So a page that a prefetch near the rows loaded is never
    /// dropped by the next load at the other end, and two ends loading at the bound always make
    /// progress. While the pages near the rows hold more than the bound, the list stays over it
    /// (a screen taller than the bound, or a large prefetch distance).
    ///
    /// Without a report (or after ``clearVisibleRows()``), the bound drops at the end far from
    /// the end that grew, wherever the user is: a screen that loads at both ends by itself
    /// should report its rows. ``AsyncPagingUI``'s `FeedModel` reports them when the list tells
    /// it which rows are on screen.
    ///
    /// Cheap and callable from any context (it takes one lock, it does not wait for the
    /// controller): call it whenever the rows on screen change. The rows are indices of the
    /// newest list (``currentSnapshot``) and follow their items as pages come and go at either
    /// end; a refresh that replaces the list forgets them until the next report. Rows outside
    /// the list count as its first or last row (for the bound; with a jump policy, rows far past
    /// the list jump there, ``JumpPolicy``); a negative distance counts as 0; nothing overflows.
    ///
    /// The first row is also the anchor that ``invalidate()`` reloads around.
    /// - Parameters:
    ///   - rows: The indices of the rows on screen in ``currentSnapshot``.
    ///   - prefetchDistance: How many rows beyond the visible ones the UI prefetches (the
    ///     `PrefetchTrigger`'s distance).
    @inlinable public nonisolated func reportVisibleRows(_ rows: Range<Int>, prefetchDistance: Int = 0) {
        reportVisibleRows(rows, prefetchDistance: prefetchDistance, of: currentSnapshot)
    }

    /// ``reportVisibleRows(_:prefetchDistance:)`` with the rows as indices of `snapshot`, the
    /// list the UI shows (when it may be older than ``currentSnapshot``).
    @inlinable public nonisolated func reportVisibleRows(
        _ rows: Range<Int>, prefetchDistance: Int = 0, of snapshot: FeedSnapshot<Item>
    ) {
        let jumpThreshold = tasks.setVisibleRows(_VisibleRows(rows: rows, prefetchDistance: prefetchDistance, in: snapshot))
        // Rows far past the list, with a jump policy (``setReloadPolicy(_:)``): maybe a jump.
        if let jumpThreshold, snapshot.count > 0,
           Self.isJump(row: rows.lowerBound, count: snapshot.count, threshold: jumpThreshold) {
            let generation = snapshot.generation
            Task { await self.jumpReported(row: rows.lowerBound, generation: generation) }
        }
    }

    /// Forgets the rows reported with ``reportVisibleRows(_:prefetchDistance:)``: the bound drops
    /// at the end far from the end that grew again (a list that is off screen).
    @inlinable public nonisolated func clearVisibleRows() {
        tasks.visibleRows = nil
    }

    /// The store indices the bound keeps now: the rows reported, if they belong to this list.
    @inlinable var protectedStoreIndices: Range<Int>? {
        guard configuration.maximumItems != nil, let rows = tasks.visibleRows else { return nil }
        return rows.storeIndices(offset: store.contents.counts.logicalOffset, generation: published.generation)
    }
}
