/// The edits made to a list without refetching (``FeedController/update(_:)``,
/// ``FeedController/remove(ids:)``), laid over the store's items instead of written into them:
/// the store's chunks are shared with older snapshots and never change, and copying a chunk of
/// 4,096 items for one edit would cost more than a page.
///
/// Items are named by *logical position*: a store index plus the items dropped at the start
/// minus the items prepended (``_ItemStoreCounts/logicalOffset``), which stays the same for an
/// item while pages come and go at either end. An overlay is immutable and shared by the
/// snapshots made with it; an edit makes a new one (O(edits so far), folded into a new store
/// when it grows past ``FeedController`` 's limit).
@usableFromInline final class _EditOverlay<Item: Sendable>: Sendable {
    /// Logical positions of removed items, ascending.
    @usableFromInline let removed: [Int]
    /// Logical positions of replaced items, ascending; `replacements[i]` replaces the item at
    /// `replacedPositions[i]`.
    @usableFromInline let replacedPositions: [Int]
    @usableFromInline let replacements: [Item]
    /// Removed items that the bound dropped since, at each end: the counts a snapshot compares
    /// leave them out (they were no longer shown).
    @usableFromInline let removedDroppedAtStart: Int
    @usableFromInline let removedDroppedAtEnd: Int
    /// The edits made in this generation: snapshots with different numbers have an edit
    /// between them.
    @usableFromInline let editNumber: Int

    @inlinable init(
        removed: [Int], replacedPositions: [Int], replacements: [Item], removedDroppedAtStart: Int,
        removedDroppedAtEnd: Int, editNumber: Int
    ) {
        self.removed = removed
        self.replacedPositions = replacedPositions
        self.replacements = replacements
        self.removedDroppedAtStart = removedDroppedAtStart
        self.removedDroppedAtEnd = removedDroppedAtEnd
        self.editNumber = editNumber
    }

    /// The store index of the item at visible `index`: removed items are skipped.
    @inlinable func storeIndex(of index: Int, offset: Int) -> Int {
        // The number m of removed items before it: the j with removed[j] - offset - j <= index
        // (that quantity never decreases with j), found by bisection.
        var low = 0
        var high = removed.count
        while low < high {
            let middle = (low + high) / 2
            if removed[middle] - offset - middle <= index { low = middle + 1 } else { high = middle }
        }
        return index + low
    }

    /// The visible index of the item at store index `storeIndex`, which is not removed.
    @inlinable func visibleIndex(ofStoreIndex storeIndex: Int, offset: Int) -> Int {
        storeIndex - Self.countBelow(storeIndex + offset, in: removed)
    }

    /// Whether the item at logical position `position` was removed.
    @inlinable func isRemoved(_ position: Int) -> Bool {
        let slot = Self.countBelow(position, in: removed)
        return slot < removed.count && removed[slot] == position
    }

    /// The replacement of the item at logical position `position`, if it was replaced.
    @inlinable func replacement(at position: Int) -> Item? {
        guard !replacedPositions.isEmpty else { return nil }
        let slot = Self.countBelow(position, in: replacedPositions)
        guard slot < replacedPositions.count, replacedPositions[slot] == position else { return nil }
        return replacements[slot]
    }

    /// The item at visible `index` of `contents`.
    @inlinable func item(at index: Int, in contents: ItemStoreContents<Item>) -> Item {
        let offset = contents.counts.logicalOffset
        let storeIndex = storeIndex(of: index, offset: offset)
        return replacement(at: storeIndex + offset) ?? contents[storeIndex]
    }

    /// How many of the ascending `positions` are below `position`.
    @inlinable static func countBelow(_ position: Int, in positions: [Int]) -> Int {
        var low = 0
        var high = positions.count
        while low < high {
            let middle = (low + high) / 2
            if positions[middle] < position { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The counts of `contents` as a snapshot shows them: removed items left out.
    @inlinable func visibleCounts(of contents: ItemStoreContents<Item>) -> _ItemStoreCounts {
        let counts = contents.counts
        return _ItemStoreCounts(
            count: counts.count - removed.count, addedAtStart: counts.addedAtStart,
            droppedAtStart: counts.droppedAtStart - removedDroppedAtStart,
            droppedAtEnd: counts.droppedAtEnd - removedDroppedAtEnd)
    }
}
