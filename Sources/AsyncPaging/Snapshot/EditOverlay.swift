/// The edits made to a list without refetching (`update(_:)`,
/// `remove(ids:)`), laid over the store's items instead of written into them:
/// the store's chunks are shared with older snapshots and never change, and copying a chunk of
/// 4,096 items for one edit would cost more than a page.
///
/// Items are named by *logical position*: a store index plus the items dropped at the start
/// minus the items prepended (``_ItemStoreCounts/logicalOffset``), which stays the same for an
/// item while pages come and go at either end. An overlay is immutable and shared by the
/// snapshots made with it; an edit makes a new one, which shares all but one run of each
/// ``_EditRuns`` with it (O(edits / 64 + 128), never O(list): edits are never folded into the
/// store).
@usableFromInline final class _EditOverlay<Item: Sendable>: Sendable {
    /// Logical positions of removed items.
    @usableFromInline let removed: _EditRuns<Void>
    /// Logical positions of replaced items, with their replacements.
    @usableFromInline let replaced: _EditRuns<Item>
    /// Removed items that the bound dropped since, at each end: the counts a snapshot compares
    /// leave them out (they were no longer shown).
    @usableFromInline let removedDroppedAtStart: Int
    @usableFromInline let removedDroppedAtEnd: Int
    /// The edits made in this generation: snapshots with different numbers have an edit
    /// between them.
    @usableFromInline let editNumber: Int

    @inlinable init(
        removed: _EditRuns<Void>, replaced: _EditRuns<Item>, removedDroppedAtStart: Int,
        removedDroppedAtEnd: Int, editNumber: Int
    ) {
        self.removed = removed
        self.replaced = replaced
        self.removedDroppedAtStart = removedDroppedAtStart
        self.removedDroppedAtEnd = removedDroppedAtEnd
        self.editNumber = editNumber
    }

    /// Whether the overlay holds an edit (it may hold only an edit number).
    @inlinable var hasEdits: Bool { !removed.isEmpty || !replaced.isEmpty }

    /// The store index of the item at visible `index`: removed items are skipped.
    @inlinable func storeIndex(of index: Int, offset: Int) -> Int {
        index + removed.countRemoved(beforeVisible: index, offset: offset)
    }

    /// The visible index of the item at store index `storeIndex`, which is not removed.
    @inlinable func visibleIndex(ofStoreIndex storeIndex: Int, offset: Int) -> Int {
        storeIndex - removed.countBelow(storeIndex + offset)
    }

    /// Whether the item at logical position `position` was removed.
    @inlinable func isRemoved(_ position: Int) -> Bool { removed.contains(position) }

    /// The replacement of the item at logical position `position`, if it was replaced.
    @inlinable func replacement(at position: Int) -> Item? {
        guard !replaced.isEmpty else { return nil }
        return replaced.value(at: position)
    }

    /// The item at visible `index` of `contents`.
    @inlinable func item(at index: Int, in contents: ItemStoreContents<Item>) -> Item {
        let offset = contents.counts.logicalOffset
        let storeIndex = storeIndex(of: index, offset: offset)
        return replacement(at: storeIndex + offset) ?? contents[storeIndex]
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
