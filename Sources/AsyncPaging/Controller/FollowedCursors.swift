/// The cursors a feed has fetched since its last refresh, for the repeated-cursor guard: a set
/// that grows without a stall.
///
/// A `Set` rehashes every element on the insert that outgrows it: one cursor per page, so a
/// feed growing to a million items paused for milliseconds on a single page. Moving the cursors
/// over a few per insert (this type's first form) left the kernel's work: the page that made
/// the larger set zeroed its bitmap on fresh memory (~9 µs for 98,304 cursors) and every cursor
/// moved landed on a fresh memory page (a fault each), so the pages after a growth cost 10× the
/// median (page 49,153 of the growth benchmark, without ids). Here the table is a
/// ``_CursorTable``:
///
/// - once a live table of ``largeBucketCount`` buckets or more is half full, its successor
///   (twice as large) is allocated and made ready 64 buckets per insert (control bytes cleared,
///   slots' memory touched): ready long before the live table fills; a smaller table's
///   successor is made when it fills (at most 2.3 KB for `Int` cursors: made ahead, the 18 and
///   36 KB of the 2,048 and 4,096-bucket tables cost 10–20 µs of page faults on one page);
/// - when the live table is full it drains: the successor becomes the live table, and every
///   insert moves the cursors of the next 8 buckets of the old one over, lookups searching both
///   until the drain ends (after a sixth of the inserts the new table takes before it fills).
///
/// No insert does more than a fixed amount of work or touches much memory that is not there.
/// A value, like the machine that holds it: copies share the tables until one is written.
///
/// `@unchecked Sendable` is safe: the tables are reached only through this value, and every
/// mutating method first copies a table that is not uniquely referenced
/// (`isKnownUniquelyReferenced`; a table's successor is its own, never shared), so a table
/// shared between copies (between tasks) is only read.
@usableFromInline struct _FollowedCursors<Cursor: Hashable & Sendable>: @unchecked Sendable {
    /// The table cursors go into; `nil` until the first.
    @usableFromInline var live: _CursorTable<Cursor>?
    /// The table before it, while its cursors are moved over; `nil` otherwise.
    @usableFromInline var draining: _CursorTable<Cursor>?

    /// Buckets of `draining` moved per insert.
    @usableFromInline static var drainedPerInsert: Int { 8 }
    /// Buckets of the successor made ready per insert.
    @usableFromInline static var preparedPerInsert: Int { 64 }
    /// The first table's buckets.
    @usableFromInline static var initialBucketCount: Int { 16 }
    /// From this many buckets, a table's successor is made ready ahead of time.
    @usableFromInline static var largeBucketCount: Int { 256 }

    @inlinable init() {}

    /// The successor being made ready, for tests.
    var successor: _CursorTable<Cursor>? { live?.successor }

    @inlinable func contains(_ cursor: Cursor) -> Bool {
        guard let live else { return false }
        return contains(cursor, hash: _CursorTable<Cursor>.hash(cursor), live: live)
    }

    @inlinable func contains(_ cursor: Cursor, hash: Int, live: _CursorTable<Cursor>) -> Bool {
        if live.find(cursor, hash: hash) != nil { return true }
        if let draining, draining.find(cursor, hash: hash) != nil { return true }
        return false
    }

    @inlinable mutating func insert(_ cursor: Cursor) {
        _ = insertIfNew(cursor)
    }

    /// Inserts `cursor`; `false` when it was there already. One hash of the cursor for both.
    @inlinable mutating func insertIfNew(_ cursor: Cursor) -> Bool {
        let hash = _CursorTable<Cursor>.hash(cursor)
        guard live != nil else {
            let first = _CursorTable<Cursor>(bucketCount: Self.initialBucketCount)
            first.prepare(upTo: first.bucketCount)
            first.insertNew(cursor, hash: hash)
            live = first
            return true
        }
        if contains(cursor, hash: hash, live: live.unsafelyUnwrapped) { return false }
        makeUnique() // no other reference to the tables is held here
        var table = live.unsafelyUnwrapped
        if draining != nil { drain(upTo: Self.drainedPerInsert) }
        if table.count >= table.capacity {
            table = takeOver(from: table)
        } else if table.bucketCount >= Self.largeBucketCount && table.count >= table.capacity / 2 {
            let next = table.successor ?? _CursorTable(bucketCount: table.bucketCount * 2)
            next.prepare(upTo: next.preparedCount + Self.preparedPerInsert)
            table.successor = next
        }
        table.insertNew(cursor, hash: hash)
        return true
    }

    /// The successor becomes the live table and `full` starts draining into it.
    @inlinable mutating func takeOver(from full: _CursorTable<Cursor>) -> _CursorTable<Cursor> {
        if draining != nil { drain(upTo: .max) } // never: it ended long before
        let next = full.successor ?? _CursorTable(bucketCount: full.bucketCount * 2)
        next.prepare(upTo: next.bucketCount) // a small table's; a large one's is ready
        full.successor = nil
        full.drainPosition = 0
        draining = full
        live = next
        return next
    }

    /// Moves the cursors of the next `bucketCount` buckets of `draining` into `live`.
    @inlinable mutating func drain(upTo bucketCount: Int) {
        guard let draining, let live else { return }
        let start = draining.drainPosition
        let end = bucketCount >= draining.bucketCount - start ? draining.bucketCount : start + bucketCount
        for bucket in start..<end where draining.control(bucket).pointee >= 0x80 {
            let cursor = draining.slot(bucket).pointee
            live.insertNew(cursor, hash: _CursorTable<Cursor>.hash(cursor))
        }
        draining.drainPosition = end
        if end == draining.bucketCount { self.draining = nil }
    }

    /// Forgets `cursor`: its page was dropped for the bound, and fetching it again is no loop.
    @inlinable mutating func remove(_ cursor: Cursor) {
        guard live != nil else { return }
        makeUnique()
        let hash = _CursorTable<Cursor>.hash(cursor)
        if let live, let bucket = live.find(cursor, hash: hash) { live.remove(at: bucket) }
        // A draining table is read in order, so its cursors stay where they are: marked removed
        // (where it was already moved over too: lookups search it).
        if let draining, let bucket = draining.find(cursor, hash: hash) { draining.markRemoved(at: bucket) }
    }

    /// Copies the tables that another copy of this value shares (copy-on-write).
    @inlinable mutating func makeUnique() {
        if live != nil && !isKnownUniquelyReferenced(&live) { live = live?.copy() }
        if draining != nil && !isKnownUniquelyReferenced(&draining) { draining = draining?.copy() }
    }

    /// The cursors held (those of a draining table not yet moved included), for tests.
    var count: Int {
        guard let live else { return 0 }
        guard let draining else { return live.count }
        var notMoved = 0
        for bucket in draining.drainPosition..<draining.bucketCount where draining.control(bucket).pointee >= 0x80 {
            notMoved += 1
        }
        return live.count + notMoved
    }

    @inlinable mutating func removeAll() {
        self = _FollowedCursors()
    }

    /// Makes room for `count` more cursors in the live set at once (a restore inserts every
    /// page's cursor in one go: no growth or copy along the way).
    /// Does nothing while a table drains (it ends within a few inserts) or when the live table
    /// already has the room.
    @inlinable mutating func reserveCapacity(_ count: Int) {
        guard draining == nil else { return }
        let needed = (live?.count ?? 0) + count
        if let live, live.capacity >= needed { return }
        var bucketCount = Self.initialBucketCount
        while bucketCount / 4 * 3 < needed { bucketCount *= 2 }
        let table = _CursorTable<Cursor>(bucketCount: bucketCount)
        table.prepare(upTo: bucketCount)
        if let old = live {
            for bucket in 0..<old.preparedCount where old.control(bucket).pointee >= 0x80 {
                let cursor = old.slot(bucket).pointee
                table.insertNew(cursor, hash: _CursorTable<Cursor>.hash(cursor))
            }
        }
        live = table
    }
}
