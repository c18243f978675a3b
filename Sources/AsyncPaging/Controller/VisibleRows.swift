/// The rows on screen as the bound reads them: the logical positions (a store index plus the
/// store's ``_ItemStoreCounts/logicalOffset``, which stays the same for an item while pages
/// come and go at either end) of the rows reported, widened by the prefetch distance and one
/// row on each side, in the list of one generation. A refresh that replaces the list makes
/// them stale until the UI reports again.
@usableFromInline struct _VisibleRows: Sendable, Equatable {
    @usableFromInline let positions: Range<Int>
    @usableFromInline let generation: UInt64
    /// The logical position of the first row on screen: the anchor an invalidation reloads
    /// around (``FeedController/invalidate()``).
    @usableFromInline let anchor: Int

    @inlinable init(positions: Range<Int>, generation: UInt64, anchor: Int? = nil) {
        self.positions = positions
        self.generation = generation
        self.anchor = anchor ?? positions.lowerBound
    }

    /// The rows `rows` of `snapshot` with `prefetchDistance` rows around them (and one more,
    /// where a prefetch's page lands); `nil` for an empty list. Rows outside the list are
    /// clamped to it, a negative distance counts as 0, and every sum saturates.
    @inlinable init?<Item>(rows: Range<Int>, prefetchDistance: Int, in snapshot: FeedSnapshot<Item>) {
        let count = snapshot.count
        guard count > 0 else { return nil }
        let first = Swift.min(Swift.max(rows.lowerBound, 0), count - 1)
        let last = Swift.min(Swift.max(rows.upperBound - 1, first), count - 1)
        let offset = snapshot.contents.counts.logicalOffset
        let firstStore = snapshot.overlay?.storeIndex(of: first, offset: offset) ?? first
        let lastStore = snapshot.overlay?.storeIndex(of: last, offset: offset) ?? last
        let margin = Swift.max(prefetchDistance, 0)._saturatingAdd(1)
        let lower = (firstStore &+ offset)._saturatingSubtract(margin)
        let upper = (lastStore &+ offset)._saturatingAdd(1)._saturatingAdd(margin)
        positions = lower..<Swift.max(lower, upper)
        generation = snapshot.generation
        anchor = firstStore &+ offset
    }

    /// The store indices of these rows in a store whose logical offset is `offset`, if they
    /// belong to the list of `generation`.
    @inlinable func storeIndices(offset: Int, generation: UInt64) -> Range<Int>? {
        guard generation == self.generation else { return nil }
        let lower = positions.lowerBound._saturatingSubtract(offset)
        return lower..<Swift.max(lower, positions.upperBound._saturatingSubtract(offset))
    }
}
