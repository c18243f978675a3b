/// Items written one after another into append-only chunks: one direction of an ``ItemStore``.
///
/// The run's items live at positions `lower ..< upper`; positions are never reused while a view
/// may read them. Writing a page copies only the new items (O(page size), whatever the length),
/// and a view of the run (its table and bounds) copies nothing. Dropping items only moves a
/// bound: at `lower`, whole chunks below it are then released (a new, shorter table); at
/// `upper`, the positions above stay as older views saw them, so the next write first moves
/// the live items to a fresh run (O(live items), once per change of direction; never when the
/// run was emptied). Noncopyable, so that exactly one owner ever writes to its chunks; see
/// ``ItemStoreContents`` for why sharing the chunks is safe.
@usableFromInline struct ChunkRun<Item: Sendable>: ~Copyable {
    @usableFromInline var table: ChunkTable<Item>?
    /// The first live position.
    @usableFromInline var lower = 0
    /// One past the last live position.
    @usableFromInline var upper = 0
    /// One past the last position ever written in this run's chunks (at least `upper`).
    @usableFromInline var written = 0

    @inlinable init() {}

    /// The number of live items.
    @inlinable var count: Int { upper - lower }

    /// Writes `items` after the run's last item, in order (`reversed`: last item first).
    @inlinable mutating func append(copying items: UnsafeBufferPointer<Item>, reversed: Bool) {
        guard let source = items.baseAddress else { return }
        if upper != written { restartKeepingLiveItems() }
        var copied = 0
        while copied < items.count {
            let (chunkIndex, offset) = ChunkLayout.locate(written)
            let batch = min(ChunkLayout.capacity(ofChunk: chunkIndex) - offset, items.count - copied)
            let chunk = chunkForWriting(chunkIndex, filledTo: offset + batch)
            chunk.withUnsafeMutablePointers { initialized, base in
                if reversed {
                    for position in 0..<batch {
                        (base + offset + position).initialize(to: source[items.count - 1 - copied - position])
                    }
                } else if _isPOD(Item.self) {
                    (base + offset).initialize(from: source + copied, count: batch)
                } else {
                    // Item by item in the specialized code: `initialize(from:count:)` copies a
                    // type with references through the runtime (a value-witness call per item).
                    for position in 0..<batch { (base + offset + position).initialize(to: source[copied + position]) }
                }
                initialized.pointee += batch
            }
            written += batch
            copied += batch
        }
        upper = written
    }

    /// Drops the `count` live items at the lowest positions, releasing the chunks left wholly
    /// below the first live position.
    @inlinable mutating func dropLow(_ count: Int) {
        precondition(count >= 0 && count <= self.count, "dropping \(count) of \(self.count) items")
        lower += count
        if lower == upper {
            self = ChunkRun()
            return
        }
        releaseChunksBelowLower()
    }

    /// Drops the `count` live items at the highest positions. Their slots stay as older views
    /// saw them; the next write moves the live items to a fresh run first.
    @inlinable mutating func dropHigh(_ count: Int) {
        precondition(count >= 0 && count <= self.count, "dropping \(count) of \(self.count) items")
        upper -= count
        if lower == upper { self = ChunkRun() }
    }

    /// Moves the live items to a fresh run, so that writing starts right after them: the slots
    /// after `upper` were written before and older views may still read them.
    @inlinable mutating func restartKeepingLiveItems() {
        var fresh = ChunkRun()
        if let table, upper > lower {
            var position = lower
            while position < upper {
                let (chunkIndex, offset) = ChunkLayout.locate(position)
                let batch = min(ChunkLayout.capacity(ofChunk: chunkIndex) - offset, upper - position)
                let chunk = table.withUnsafeMutablePointers { header, chunks in
                    chunks[chunkIndex - header.pointee.firstChunk]
                }
                chunk.withUnsafeMutablePointerToElements { base in
                    fresh.append(copying: UnsafeBufferPointer(start: base + offset, count: batch), reversed: false)
                }
                position += batch
            }
        }
        self = fresh
    }

    /// Moves to a table without the chunks that lie wholly below `lower` (views made before
    /// keep the older table, and with it those chunks, until they are gone).
    @inlinable mutating func releaseChunksBelowLower() {
        guard let table else { return }
        let firstLive = ChunkLayout.locate(lower).chunk
        let (used, firstChunk) = table.withUnsafeMutablePointerToHeader { ($0.pointee.used, $0.pointee.firstChunk) }
        guard firstLive > firstChunk else { return }
        let live = used - (firstLive - firstChunk)
        let moved = ChunkTable<Item>.make(capacity: Swift.max(4, live * 2), firstChunk: firstLive)
        table.withUnsafeMutablePointerToElements { old in
            moved.withUnsafeMutablePointers { header, new in
                new.initialize(from: old + (firstLive - firstChunk), count: live)
                header.pointee.used = live
            }
        }
        self.table = moved
    }

    /// The chunk `chunkIndex`, made (and added to the table) if the run has none yet, able to
    /// hold `filledTo` items.
    ///
    /// The first chunk of a run is made only as large as its first write needs (a feed's first
    /// page: 20 items of the layout's 32), and grows to the layout's capacity on the write that
    /// overflows it: a copy of its items into a full-size chunk, in a new table, so that views
    /// still reading the old table and chunk see them unchanged. A controller holding one page
    /// of 20 posts saves the 12 unused slots (480 bytes of 40-byte posts); the copy happens once
    /// per run, at most 31 items. Later chunks are made full-size: regrowing them would copy up
    /// to 4,096 items.
    @inlinable mutating func chunkForWriting(_ chunkIndex: Int, filledTo needed: Int) -> ItemChunk<Item> {
        let table = self.table ?? ChunkTable.make(capacity: 4, firstChunk: chunkIndex)
        self.table = table
        let (used, firstChunk) = table.withUnsafeMutablePointerToHeader { ($0.pointee.used, $0.pointee.firstChunk) }
        let slot = chunkIndex - firstChunk
        if slot < used {
            let chunk = table.withUnsafeMutablePointerToElements { $0[slot] }
            if chunkIndex == 0, chunk.capacity < needed { return regrowFirstChunk(chunk, slot: slot) }
            return chunk
        }
        precondition(slot == used, "chunks are added in order")
        let capacity = chunkIndex == 0 ? needed : ChunkLayout.capacity(ofChunk: chunkIndex)
        let chunk = ItemChunk<Item>.make(capacity: capacity)
        if used == table.capacity {
            let grown = ChunkTable<Item>.make(capacity: table.capacity * 2, firstChunk: firstChunk)
            table.withUnsafeMutablePointerToElements { old in
                grown.withUnsafeMutablePointerToElements { new in
                    new.initialize(from: old, count: used)
                }
            }
            grown.header.used = used
            self.table = grown
        }
        self.table!.withUnsafeMutablePointers { header, chunks in
            (chunks + used).initialize(to: chunk)
            header.pointee.used = used + 1
        }
        return chunk
    }

    /// Replaces the run's first chunk, made to the size of the first write, with one of the
    /// layout's capacity holding the same items, in a copy of the table (see
    /// ``chunkForWriting(_:filledTo:)``): the old table and chunk stay as views saw them.
    @inlinable mutating func regrowFirstChunk(_ small: ItemChunk<Item>, slot: Int) -> ItemChunk<Item> {
        let grown = ItemChunk<Item>.make(capacity: ChunkLayout.capacity(ofChunk: 0))
        small.withUnsafeMutablePointers { initialized, items in
            grown.withUnsafeMutablePointers { grownInitialized, grownItems in
                grownItems.initialize(from: items, count: initialized.pointee)
                grownInitialized.pointee = initialized.pointee
            }
        }
        let table = self.table!
        let (used, firstChunk) = table.withUnsafeMutablePointerToHeader { ($0.pointee.used, $0.pointee.firstChunk) }
        let copy = ChunkTable<Item>.make(capacity: table.capacity, firstChunk: firstChunk)
        table.withUnsafeMutablePointerToElements { old in
            copy.withUnsafeMutablePointers { header, new in
                new.initialize(from: old, count: used)
                new[slot] = grown
                header.pointee.used = used
            }
        }
        self.table = copy
        return grown
    }
}
