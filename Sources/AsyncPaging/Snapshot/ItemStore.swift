/// The controller's list of items: append-only chunks that snapshots share without copying.
///
/// Appending a page writes only the new items (O(page size), whatever the feed length), and
/// making a ``FeedSnapshot`` copies nothing: it keeps a reference to the chunk table and a
/// count. The store is noncopyable so that exactly one owner ever writes to its chunks.
@usableFromInline struct ItemStore<Item: Sendable>: ~Copyable {
    @usableFromInline var table: ChunkTable<Item>?
    @usableFromInline var count = 0

    @inlinable init() {}

    /// Appends `items` in order.
    ///
    /// Items are copied in bulk from contiguous storage: iterating a collection element by
    /// element costs heap allocations in unspecialized generic code (the engine runs that way
    /// when the app's module cannot specialize it), two per item for an `ArraySlice`.
    @inlinable mutating func append(contentsOf items: some Collection<Item>) {
        let copied: Void? = items.withContiguousStorageIfAvailable { append(copying: $0) }
        if copied == nil {
            Array(items).withUnsafeBufferPointer { append(copying: $0) }
        }
    }

    @inlinable mutating func append(copying items: UnsafeBufferPointer<Item>) {
        guard let source = items.baseAddress else { return }
        var copied = 0
        while copied < items.count {
            let (chunkIndex, offset) = ChunkLayout.locate(count)
            let chunk = chunkForWriting(chunkIndex)
            let batch = min(ChunkLayout.capacity(ofChunk: chunkIndex) - offset, items.count - copied)
            chunk.withUnsafeMutablePointers { initialized, base in
                (base + offset).initialize(from: source + copied, count: batch)
                initialized.pointee += batch
            }
            count += batch
            copied += batch
        }
    }

    /// A read-only view of the first `count` items.
    @inlinable var contents: ItemStoreContents<Item> { ItemStoreContents(table: table, count: count) }

    @inlinable mutating func chunkForWriting(_ chunkIndex: Int) -> ItemChunk<Item> {
        let table = self.table ?? ChunkTable.make(capacity: 4)
        self.table = table
        let used = table.header
        if chunkIndex < used {
            return table.withUnsafeMutablePointerToElements { $0[chunkIndex] }
        }
        precondition(chunkIndex == used, "chunks are added in order")
        let chunk = ItemChunk<Item>.make(capacity: ChunkLayout.capacity(ofChunk: chunkIndex))
        if used == table.capacity {
            let grown = ChunkTable<Item>.make(capacity: table.capacity * 2)
            table.withUnsafeMutablePointerToElements { old in
                grown.withUnsafeMutablePointerToElements { new in
                    new.initialize(from: old, count: used)
                }
            }
            grown.header = used
            self.table = grown
        }
        self.table!.withUnsafeMutablePointers { usedCount, chunks in
            (chunks + used).initialize(to: chunk)
            usedCount.pointee = used + 1
        }
        return chunk
    }
}

/// An immutable view of a prefix of an ``ItemStore``; the storage of a ``FeedSnapshot``.
///
/// `@unchecked Sendable` because `ManagedBuffer` (under the chunk table and the chunks) opts out
/// of `Sendable`. Sharing is safe: every slot a view can read (chunk slots and item slots below
/// its `count`) was initialized before the view was made and is never written again; the store's
/// single owner (it is noncopyable) only writes slots past the end of every view made so far, and
/// the buffers' headers, which views never read. Views cross threads only through synchronizing
/// hand-offs (streams, actors, locks), which order the owner's writes before the reads. Items are
/// `Sendable`, and deinitialization runs only when no reference is left.
@usableFromInline struct ItemStoreContents<Item: Sendable>: @unchecked Sendable {
    @usableFromInline let table: ChunkTable<Item>?
    @usableFromInline let count: Int

    @inlinable init(table: ChunkTable<Item>?, count: Int) {
        self.table = table
        self.count = count
    }

    @inlinable static var empty: ItemStoreContents { ItemStoreContents(table: nil, count: 0) }

    @inline(__always)
    @inlinable subscript(index: Int) -> Item {
        precondition(index >= 0 && index < count, "index \(index) out of range 0..<\(count)")
        let (chunkIndex, offset) = ChunkLayout.locate(index)
        return table.unsafelyUnwrapped.withUnsafeMutablePointerToElements { chunks in
            chunks[chunkIndex].withUnsafeMutablePointerToElements { $0[offset] }
        }
    }
}
