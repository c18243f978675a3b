/// A fixed-capacity block of items: one allocation, header = number of initialized items.
///
/// Only the ``ChunkRun`` that made a chunk writes to it, and only past every slot that any
/// published ``FeedSnapshot`` can read; see ``ItemStoreContents`` for why sharing it is safe.
@usableFromInline final class ItemChunk<Item>: ManagedBuffer<Int, Item> {
    @inlinable static func make(capacity: Int) -> ItemChunk<Item> {
        let buffer = ItemChunk.create(minimumCapacity: capacity) { _ in 0 }
        return unsafeDowncast(buffer, to: ItemChunk<Item>.self)
    }

    deinit {
        _ = withUnsafeMutablePointers { initialized, items in
            items.deinitialize(count: initialized.pointee)
        }
    }
}

/// The table of a store's chunks: one allocation; its header counts the chunks in use and
/// says which chunk its first slot holds.
///
/// It grows by copying its chunk references into a table twice its size; snapshots keep the
/// table they were made with, whose used slots never change. A run that dropped its first
/// chunks (a bounded feed) moves to a new table that starts at its first live chunk
/// (``_ChunkTableHeader/firstChunk``), so the dropped chunks are freed with the last view of
/// the older table.
@usableFromInline final class ChunkTable<Item>: ManagedBuffer<_ChunkTableHeader, ItemChunk<Item>> {
    @inlinable static func make(capacity: Int, firstChunk: Int = 0) -> ChunkTable<Item> {
        let buffer = ChunkTable.create(minimumCapacity: capacity) { _ in _ChunkTableHeader(used: 0, firstChunk: firstChunk) }
        return unsafeDowncast(buffer, to: ChunkTable<Item>.self)
    }

    deinit {
        _ = withUnsafeMutablePointers { header, chunks in
            chunks.deinitialize(count: header.pointee.used)
        }
    }
}

/// The header of a ``ChunkTable``: `used` slots hold chunks `firstChunk ..< firstChunk + used`
/// of the run. Only the run's owner writes `used`; `firstChunk` never changes, and views read it.
@usableFromInline struct _ChunkTableHeader {
    @usableFromInline var used: Int
    @usableFromInline let firstChunk: Int

    @inlinable init(used: Int, firstChunk: Int) {
        self.used = used
        self.firstChunk = firstChunk
    }
}

/// Where item `index` lives: chunks of 32, 32, 64, … 4,096 items, then 4,096 each.
///
/// Small feeds stay small (15 items take one chunk of 32) and a feed of a million items wastes
/// less than one chunk of 4,096 slots.
@usableFromInline enum ChunkLayout {
    @usableFromInline static let firstChunkShift = 5 // 32 items
    @usableFromInline static let largestChunkShift = 12 // 4,096 items
    /// Items before the first chunk of the largest size: 32 << (12 - 5 + 1) = 8,192.
    @usableFromInline static let geometricLimit = 1 << (largestChunkShift + 1)
    @usableFromInline static let geometricChunks = largestChunkShift - firstChunkShift + 2 // chunks 0...8

    @inline(__always)
    @inlinable static func locate(_ index: Int) -> (chunk: Int, offset: Int) {
        if index < (1 << firstChunkShift) { return (0, index) }
        if index < geometricLimit {
            let chunk = Int.bitWidth - (index >> firstChunkShift).leadingZeroBitCount
            return (chunk, index - (1 << (firstChunkShift + chunk - 1)))
        }
        let beyond = index - geometricLimit
        return (geometricChunks + beyond >> largestChunkShift, beyond & ((1 << largestChunkShift) - 1))
    }

    @inlinable static func capacity(ofChunk chunk: Int) -> Int {
        if chunk == 0 { return 1 << firstChunkShift }
        if chunk < geometricChunks { return 1 << (firstChunkShift + chunk - 1) }
        return 1 << largestChunkShift
    }
}
