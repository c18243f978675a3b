/// The cursors a feed has fetched since its last refresh, for the repeated-cursor guard: a set
/// that grows without a stall.
///
/// A `Set` rehashes every element on the insert that outgrows it: one cursor per page, so a
/// feed growing to a million items paused for milliseconds on a single page (page 24,577 in the
/// growth benchmark). Here, when the live set is full, it is kept whole as `draining` and a set
/// twice as large takes new cursors; every insert copies a few cursors of `draining` over,
/// walking it with an index (it is never mutated, so the index stays valid), and lookups search
/// both until the copy is done. The copy ends long before the next growth: the old set holds C
/// cursors and 8 move per insert, while the new set grows again only after about C more.
/// A value, like the machine that holds it: copies share storage until written.
@usableFromInline struct _FollowedCursors<Cursor: Hashable & Sendable>: Sendable {
    @usableFromInline var live: Set<Cursor> = []
    @usableFromInline var draining: Set<Cursor> = []
    /// The next cursor of `draining` to copy into `live`.
    @usableFromInline var drainIndex: Set<Cursor>.Index

    /// Cursors copied from `draining` per insert.
    @usableFromInline static var movedPerInsert: Int { 8 }
    /// Sets smaller than this simply grow (their rehash is short).
    @usableFromInline static var smallCapacity: Int { 64 }

    @inlinable init() {
        drainIndex = draining.endIndex
    }

    @inlinable func contains(_ cursor: Cursor) -> Bool {
        live.contains(cursor) || (!draining.isEmpty && draining.contains(cursor))
    }

    @inlinable mutating func insert(_ cursor: Cursor) {
        if !draining.isEmpty { copyFromDraining(upTo: Self.movedPerInsert) }
        if contains(cursor) { return }
        if live.count >= live.capacity && live.capacity >= Self.smallCapacity {
            if !draining.isEmpty { copyFromDraining(upTo: .max) } // never: it finished long ago
            draining = live
            drainIndex = draining.startIndex
            live = Set(minimumCapacity: draining.capacity * 2)
        }
        live.insert(cursor)
    }

    /// Inserts `cursor`; `false` when it was there already. One lookup where `contains` then
    /// `insert` take three: the page sequences check every page's cursor this way.
    @inlinable mutating func insertIfNew(_ cursor: Cursor) -> Bool {
        if !draining.isEmpty {
            copyFromDraining(upTo: Self.movedPerInsert)
            if !draining.isEmpty && draining.contains(cursor) { return false }
        }
        if live.count >= live.capacity && live.capacity >= Self.smallCapacity {
            if live.contains(cursor) { return false }
            if !draining.isEmpty { copyFromDraining(upTo: .max) } // never: it finished long ago
            draining = live
            drainIndex = draining.startIndex
            live = Set(minimumCapacity: draining.capacity * 2)
        }
        return live.insert(cursor).inserted
    }

    /// Forgets `cursor`: its page was dropped for the bound, and fetching it again is no loop.
    /// (While a copy is under way, it first finishes: only then can `draining` change. A bounded
    /// feed keeps few cursors, so that copy is short.)
    @inlinable mutating func remove(_ cursor: Cursor) {
        if !draining.isEmpty { copyFromDraining(upTo: .max) }
        live.remove(cursor)
    }

    @inlinable mutating func copyFromDraining(upTo limit: Int) {
        var copied = 0
        while copied < limit && drainIndex != draining.endIndex {
            live.insert(draining[drainIndex])
            draining.formIndex(after: &drainIndex)
            copied += 1
        }
        if drainIndex == draining.endIndex {
            draining = []
            drainIndex = draining.endIndex
        }
    }

    @inlinable mutating func removeAll() {
        self = _FollowedCursors()
    }

    /// Makes room for `count` more cursors in the live set at once (a restore inserts every
    /// page's cursor in one go: no growth or copy along the way).
    @inlinable mutating func reserveCapacity(_ count: Int) {
        guard draining.isEmpty else { return }
        live.reserveCapacity(live.count + count)
    }
}
