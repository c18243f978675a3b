/// The controller's list of items, growing at both ends in chunks that snapshots share without
/// copying.
///
/// Two ``ChunkRun``s: `back` holds the items from the first page loaded onward, in order;
/// `front` holds the items prepended before them, nearest first (a prepended page is written
/// last item first). Appending or prepending a page writes only the new items (O(page size),
/// whatever the feed length; a prepend never shifts the store), and making a ``FeedSnapshot``
/// copies nothing: it keeps a reference to each run's chunk table and its count. The store is
/// noncopyable so that exactly one owner ever writes to its chunks.
@usableFromInline struct ItemStore<Item: Sendable>: ~Copyable {
    @usableFromInline var front = ChunkRun<Item>()
    @usableFromInline var back = ChunkRun<Item>()

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
        ItemStoreContents(front: front.table, frontCount: front.count, back: back.table, backCount: back.count)
    }
}

/// An immutable view of an ``ItemStore`` as it was when the view was made; the storage of a
/// ``FeedSnapshot``.
///
/// `@unchecked Sendable` because `ManagedBuffer` (under the chunk tables and the chunks) opts out
/// of `Sendable`. Sharing is safe: every slot a view can read (chunk slots and item slots below
/// its counts) was initialized before the view was made and is never written again; the store's
/// single owner (it is noncopyable) only writes slots past the end of every view made so far, in
/// each run, and the buffers' headers, which views never read. Views cross threads only through
/// synchronizing hand-offs (streams, actors, locks), which order the owner's writes before the
/// reads. Items are `Sendable`, and deinitialization runs only when no reference is left.
@usableFromInline struct ItemStoreContents<Item: Sendable>: @unchecked Sendable {
    @usableFromInline let front: ChunkTable<Item>?
    /// How many items were prepended before the first page loaded: the first `frontCount`
    /// indices read `front` backwards.
    @usableFromInline let frontCount: Int
    @usableFromInline let back: ChunkTable<Item>?
    @usableFromInline let count: Int

    @inlinable init(front: ChunkTable<Item>?, frontCount: Int, back: ChunkTable<Item>?, backCount: Int) {
        self.front = front
        self.frontCount = frontCount
        self.back = back
        self.count = frontCount + backCount
    }

    @inlinable static var empty: ItemStoreContents {
        ItemStoreContents(front: nil, frontCount: 0, back: nil, backCount: 0)
    }

    @inline(__always)
    @inlinable subscript(index: Int) -> Item {
        precondition(index >= 0 && index < count, "index \(index) out of range 0..<\(count)")
        if index >= frontCount {
            return Self.item(at: index - frontCount, in: back.unsafelyUnwrapped)
        }
        return Self.item(at: frontCount - 1 - index, in: front.unsafelyUnwrapped)
    }

    @inline(__always)
    @inlinable static func item(at position: Int, in table: ChunkTable<Item>) -> Item {
        let (chunkIndex, offset) = ChunkLayout.locate(position)
        return table.withUnsafeMutablePointerToElements { chunks in
            chunks[chunkIndex].withUnsafeMutablePointerToElements { $0[offset] }
        }
    }
}
