/// Items written one after another into append-only chunks: one direction of an ``ItemStore``.
///
/// Writing a page copies only the new items (O(page size), whatever the length), and a view of
/// the run (its table and a count) copies nothing. Noncopyable, so that exactly one owner ever
/// writes to its chunks; see ``ItemStoreContents`` for why sharing the chunks is safe.
@usableFromInline struct ChunkRun<Item: Sendable>: ~Copyable {
    @usableFromInline var table: ChunkTable<Item>?
    @usableFromInline var count = 0

    @inlinable init() {}

    /// Writes `items` after the run's last item, in order (`reversed`: last item first).
    @inlinable mutating func append(copying items: UnsafeBufferPointer<Item>, reversed: Bool) {
        guard let source = items.baseAddress else { return }
        var copied = 0
        while copied < items.count {
            let (chunkIndex, offset) = ChunkLayout.locate(count)
            let chunk = chunkForWriting(chunkIndex)
            let batch = min(ChunkLayout.capacity(ofChunk: chunkIndex) - offset, items.count - copied)
            chunk.withUnsafeMutablePointers { initialized, base in
                if reversed {
                    for position in 0..<batch {
                        (base + offset + position).initialize(to: source[items.count - 1 - copied - position])
                    }
                } else {
                    (base + offset).initialize(from: source + copied, count: batch)
                }
                initialized.pointee += batch
            }
            count += batch
            copied += batch
        }
    }

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
