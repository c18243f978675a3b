/// The controller's list of items, growing and shrinking at both ends in chunks that snapshots
/// share without copying.
///
/// Two ``ChunkRun``s: `back` holds the items from the first page loaded onward, in order;
/// `front` holds the items prepended before them, nearest first (a prepended page is written
/// last item first). Appending or prepending a page writes only the new items (O(page size),
/// whatever the feed length; a prepend never shifts the store), and making a ``FeedSnapshot``
/// copies nothing: it keeps a reference to each run's chunk table and its bounds. Dropping
/// items at either end (a bounded feed) moves bounds and frees whole chunks. The store counts
/// what it added and dropped at each end, so that two views of one store tell what changed
/// between them (``ItemStoreContents/change(since:)``). The store is noncopyable so that
/// exactly one owner ever writes to its chunks.
@usableFromInline struct ItemStore<Item: Sendable>: ~Copyable {
    @usableFromInline var front = ChunkRun<Item>()
    @usableFromInline var back = ChunkRun<Item>()
    /// Items added at the start since the store was made.
    @usableFromInline var addedAtStart = 0
    /// Items dropped at the start since the store was made.
    @usableFromInline var droppedAtStart = 0
    /// Items dropped at the end since the store was made.
    @usableFromInline var droppedAtEnd = 0

    @inlinable init() {}

    /// The number of items.
    @inlinable var count: Int { front.count + back.count }

    /// Appends `items` in order.
    @inlinable mutating func append(contentsOf items: some Collection<Item>) {
        Self.withContiguousItems(items) { back.append(copying: $0, reversed: false) }
    }

    /// Inserts `items`, in order, before the first item.
    @inlinable mutating func prepend(contentsOf items: some Collection<Item>) {
        Self.withContiguousItems(items) { front.append(copying: $0, reversed: true) }
        addedAtStart += items.count
    }

    /// Drops the first `count` items (at most ``count``).
    @inlinable mutating func dropFirst(_ count: Int) {
        precondition(count >= 0 && count <= self.count, "dropping \(count) of \(self.count) items")
        let fromFront = Swift.min(count, front.count)
        front.dropHigh(fromFront)
        back.dropLow(count - fromFront)
        droppedAtStart += count
    }

    /// Drops the last `count` items (at most ``count``).
    @inlinable mutating func dropLast(_ count: Int) {
        precondition(count >= 0 && count <= self.count, "dropping \(count) of \(self.count) items")
        let fromBack = Swift.min(count, back.count)
        back.dropHigh(fromBack)
        front.dropLow(count - fromBack)
        droppedAtEnd += count
    }

    /// Runs `body` on `items` as contiguous storage.
    ///
    /// Items are copied in bulk from contiguous storage: iterating a collection element by
    /// element costs heap allocations in unspecialized generic code (the engine runs that way
    /// when the app's module cannot specialize it), two per item for an `ArraySlice`.
    @inlinable static func withContiguousItems(
        _ items: some Collection<Item>, _ body: (UnsafeBufferPointer<Item>) -> Void
    ) {
        let copied: Void? = items.withContiguousStorageIfAvailable { body($0) }
        if copied == nil {
            Array(items).withUnsafeBufferPointer { body($0) }
        }
    }

    /// A read-only view of the items as they are now.
    @inlinable var contents: ItemStoreContents<Item> {
        ItemStoreContents(
            front: front.table, frontUpper: front.upper, frontCount: front.count,
            back: back.table, backLower: back.lower, backCount: back.count,
            addedAtStart: addedAtStart, droppedAtStart: droppedAtStart, droppedAtEnd: droppedAtEnd)
    }
}

/// An immutable view of an ``ItemStore`` as it was when the view was made; the storage of a
/// ``FeedSnapshot``.
///
/// `@unchecked Sendable` because `ManagedBuffer` (under the chunk tables and the chunks) opts out
/// of `Sendable`. Sharing is safe: every slot a view can read (chunk slots and item slots inside
/// its bounds, and a table's `firstChunk`) was initialized before the view was made and is never
/// written again; the store's single owner (it is noncopyable) only writes slots past every
/// position written so far in each run (a run whose upper bound was lowered moves to a fresh
/// run before it writes again), and the `used` count of a table's header, which views never
/// read. Views cross threads only through synchronizing hand-offs (streams, actors, locks),
/// which order the owner's writes before the reads. Items are `Sendable`, and
/// deinitialization runs only when no reference is left.
@usableFromInline struct ItemStoreContents<Item: Sendable>: @unchecked Sendable {
    @usableFromInline let front: ChunkTable<Item>?
    /// One past the front run's highest live position: index 0 reads position `frontUpper - 1`.
    @usableFromInline let frontUpper: Int
    /// How many live items the front run holds: the first `frontCount` indices read `front`
    /// backwards.
    @usableFromInline let frontCount: Int
    @usableFromInline let back: ChunkTable<Item>?
    /// The back run's position of index `i` (for `i >= frontCount`) is `backOffset + i`.
    @usableFromInline let backOffset: Int
    /// The number of items and the store's counts when the view was made.
    @usableFromInline let counts: _ItemStoreCounts

    @inlinable init(
        front: ChunkTable<Item>?, frontUpper: Int, frontCount: Int,
        back: ChunkTable<Item>?, backLower: Int, backCount: Int,
        addedAtStart: Int, droppedAtStart: Int, droppedAtEnd: Int
    ) {
        self.front = front
        self.frontUpper = frontUpper
        self.frontCount = frontCount
        self.back = back
        self.backOffset = backLower - frontCount
        self.counts = _ItemStoreCounts(
            count: frontCount + backCount, addedAtStart: addedAtStart, droppedAtStart: droppedAtStart,
            droppedAtEnd: droppedAtEnd)
    }

    @inlinable static var empty: ItemStoreContents {
        ItemStoreContents(
            front: nil, frontUpper: 0, frontCount: 0, back: nil, backLower: 0, backCount: 0,
            addedAtStart: 0, droppedAtStart: 0, droppedAtEnd: 0)
    }

    @inlinable var count: Int { counts.count }

    @inline(__always)
    @inlinable subscript(index: Int) -> Item {
        precondition(index >= 0 && index < count, "index \(index) out of range 0..<\(count)")
        if index >= frontCount {
            return Self.item(at: backOffset + index, in: back.unsafelyUnwrapped)
        }
        return Self.item(at: frontUpper - 1 - index, in: front.unsafelyUnwrapped)
    }

    @inline(__always)
    @inlinable static func item(at position: Int, in table: ChunkTable<Item>) -> Item {
        let (chunkIndex, offset) = ChunkLayout.locate(position)
        return table.withUnsafeMutablePointers { header, chunks in
            chunks[chunkIndex - header.pointee.firstChunk].withUnsafeMutablePointerToElements { $0[offset] }
        }
    }

    /// Appends the items at `indices` to `items`, in order, a chunk's stretch at a time (an
    /// export: no position look-up per item).
    @inlinable func _append(_ indices: Range<Int>, to items: inout [Item]) {
        precondition(indices.lowerBound >= 0 && indices.upperBound <= count, "indices \(indices) out of range 0..<\(count)")
        var index = indices.lowerBound
        // The front run holds its items nearest first: read backwards.
        while index < Swift.min(indices.upperBound, frontCount) {
            let (chunkIndex, offset) = ChunkLayout.locate(frontUpper - 1 - index)
            let batch = Swift.min(offset + 1, Swift.min(indices.upperBound, frontCount) - index)
            front.unsafelyUnwrapped.withUnsafeMutablePointers { header, chunks in
                chunks[chunkIndex - header.pointee.firstChunk].withUnsafeMutablePointerToElements { base in
                    for position in stride(from: offset, to: offset - batch, by: -1) { items.append(base[position]) }
                }
            }
            index += batch
        }
        while index < indices.upperBound {
            let (chunkIndex, offset) = ChunkLayout.locate(backOffset + index)
            let batch = Swift.min(ChunkLayout.capacity(ofChunk: chunkIndex) - offset, indices.upperBound - index)
            back.unsafelyUnwrapped.withUnsafeMutablePointers { header, chunks in
                chunks[chunkIndex - header.pointee.firstChunk].withUnsafeMutablePointerToElements { base in
                    if _isPOD(Item.self) {
                        items.append(contentsOf: UnsafeBufferPointer(start: base + offset, count: batch))
                    } else {
                        // Specialized copies: `append(contentsOf:)` copies a type with
                        // references through the runtime (a value-witness call per item).
                        for position in offset..<offset + batch { items.append(base[position]) }
                    }
                }
            }
            index += batch
        }
    }

    /// What changed between `older`, a view of the same store, and this one.
    @inlinable func change(since older: ItemStoreContents) -> FeedChange {
        counts.change(since: older.counts)
    }
}

/// The number of items in a view of an ``ItemStore`` and what the store had added and dropped
/// at each end when the view was made: enough to tell what changed between two views.
@usableFromInline struct _ItemStoreCounts: Equatable, Sendable {
    @usableFromInline let count: Int
    /// Items added at the start since the store was made.
    @usableFromInline let addedAtStart: Int
    /// Items dropped at the start since the store was made.
    @usableFromInline let droppedAtStart: Int
    /// Items dropped at the end since the store was made.
    @usableFromInline let droppedAtEnd: Int

    @inlinable init(count: Int, addedAtStart: Int, droppedAtStart: Int, droppedAtEnd: Int) {
        self.count = count
        self.addedAtStart = addedAtStart
        self.droppedAtStart = droppedAtStart
        self.droppedAtEnd = droppedAtEnd
    }

    /// Items added at the end since the store was made (the first page's included).
    @inlinable var addedAtEnd: Int { count - addedAtStart + droppedAtStart + droppedAtEnd }

    /// Added to a store index, the item's logical position, which stays the same while items
    /// are added and dropped at either end (see ``_EditOverlay``).
    @inlinable var logicalOffset: Int { droppedAtStart - addedAtStart }

    /// What changed between `older`, counts of the same store, and these: the items removed
    /// and added at each end. Items dropped and then loaded again in between count as removed
    /// and added (their values may differ).
    @inlinable func change(since older: _ItemStoreCounts) -> FeedChange {
        var removedAtStart = droppedAtStart - older.droppedAtStart
        var removedAtEnd = droppedAtEnd - older.droppedAtEnd
        var insertedAtStart = addedAtStart - older.addedAtStart
        var insertedAtEnd = addedAtEnd - older.addedAtEnd
        guard removedAtStart >= 0, removedAtEnd >= 0, insertedAtStart >= 0, insertedAtEnd >= 0 else {
            return .replaced // `older` is the newer view
        }
        if removedAtStart == 0 && removedAtEnd == 0 {
            let appended = (count - insertedAtEnd)..<count
            if insertedAtStart == 0 { return .appended(appended) }
            if insertedAtEnd == 0 { return .prepended(0..<insertedAtStart) }
            return .extended(prepended: 0..<insertedAtStart, appended: appended)
        }
        if removedAtStart + removedAtEnd >= older.count {
            // No older item is left: say the whole older list went, and every item came.
            removedAtStart = Swift.min(removedAtStart, older.count)
            removedAtEnd = older.count - removedAtStart
            insertedAtStart = Swift.min(insertedAtStart, count)
            insertedAtEnd = count - insertedAtStart
            if removedAtStart == 0 && removedAtEnd == 0 {
                // The older list was empty: only items added (what went had come after it).
                if insertedAtStart == 0 { return .appended(0..<count) }
                if insertedAtEnd == 0 { return .prepended(0..<insertedAtStart) }
                return .extended(prepended: 0..<insertedAtStart, appended: insertedAtStart..<count)
            }
        }
        return .ends(FeedEndsChange(
            removedAtStart: removedAtStart, insertedAtStart: insertedAtStart,
            insertedAtEnd: insertedAtEnd, removedAtEnd: removedAtEnd))
    }
}
