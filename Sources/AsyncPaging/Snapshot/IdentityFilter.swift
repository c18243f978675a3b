/// The ids of the items in a feed's list, for dropping duplicates: made where the id type is
/// known, so that ids are hashed and compared as their own type (no `AnyHashable` boxing).
///
/// It is three closures over one typed index (``_IdentityIndex``). The closures are literals
/// in `@inlinable` initializers, so the module that makes the filter (the app's, which knows
/// `Item` and `ID`) compiles them specialized: a page pays one indirect call and then typed
/// code (``recordNew(_:at:in:)``). Each closure captures only the index, so it uses the index as
/// its context: the filter costs one allocation (the index) until the first id arrives.
///
/// The index holds the items' logical positions in the store, not their ids (see
/// ``_IdentityIndex``): every call is given the store's contents (`in:`), from which it reads an
/// id where a bucket's hash bits match. A page is recorded *before* it goes into the store, at
/// the positions it will have there; removals name the item's position; a store made again
/// (edits folded into it) renumbers the index (``renumber(removing:in:)``).
///
/// For `Identifiable` items the closures read `item.id` in place; with an `id` closure the
/// index calls it, which costs a copy of each item (a retain per reference it holds) where the
/// closure's generic form differs from the concrete one. Measured in Benchmarks/README.md.
@usableFromInline
struct _IdentityFilter<Item: Sendable> {
    /// Where a page goes: after the store's items, or before them.
    @usableFromInline enum _Side { case end, start }
    @usableFromInline enum _ItemOperation { case contains, remove(position: Int) }
    @usableFromInline enum _WholeOperation { case removeAll, count, renumber(removed: [Int]) }

    @usableFromInline let _onItem: (Item, _ItemOperation, ItemStoreContents<Item>) -> Bool
    @usableFromInline let _onPage: ([Item], _Side, ItemStoreContents<Item>) -> (kept: [Item], dropped: Int)
    @usableFromInline let _onWhole: (_WholeOperation, ItemStoreContents<Item>) -> Int

    /// A filter that identifies items by `id`.
    @inlinable init<ID: Hashable>(id: @escaping (Item) -> ID) {
        let index = _KeyedIdentityIndex(key: id)
        _onItem = { item, operation, contents in
            Self._perform(operation, on: item, in: contents, index: index, key: index.key)
        }
        _onPage = { items, side, contents in Self._recordNew(items, at: side, in: contents, index: index, key: index.key) }
        _onWhole = { operation, contents in Self._perform(operation, on: index, in: contents) }
    }

    /// Records the ids of `items`, which are about to go at `side` of the store whose contents
    /// are `contents`, and returns the items whose id was not recorded before (nor earlier in
    /// `items`), in order, and how many were left out. The kept items must then go into the
    /// store, at that side, before the next call. One call per page: the loop runs in the
    /// typed code.
    @inlinable func recordNew(
        _ items: [Item], at side: _Side, in contents: ItemStoreContents<Item>
    ) -> (kept: [Item], dropped: Int) {
        _onPage(items, side, contents)
    }

    /// Whether an item with the id of `item` is recorded.
    @inlinable func contains(_ item: Item, in contents: ItemStoreContents<Item>) -> Bool {
        _onItem(item, .contains, contents)
    }

    /// Forgets the id of `item`, at logical `position` of the store (when its page is dropped,
    /// or it is removed; before the store lets it go); `false` if it was not recorded there.
    @inlinable @discardableResult func remove(_ item: Item, at position: Int, in contents: ItemStoreContents<Item>) -> Bool {
        _onItem(item, .remove(position: position), contents)
    }

    /// Forgets every id and frees the index's tables.
    @inlinable func removeAll() { _ = _onWhole(.removeAll, .empty) }

    /// The number of ids recorded.
    @inlinable var count: Int { _onWhole(.count, .empty) }

    /// Renumbers the recorded positions for a store made of the items of `contents` without
    /// those at the logical positions `removed` (ascending), in order, from position 0: the
    /// edits folded into a new store.
    @inlinable func renumber(removing removed: [Int], in contents: ItemStoreContents<Item>) {
        _ = _onWhole(.renumber(removed: removed), contents)
    }

    /// The loop of ``recordNew(_:at:in:)``; inlined with its `key` closure into each initializer.
    ///
    /// The page's items are recorded at the positions they will have in the store. At the end
    /// those are known as they are kept; at the start they depend on how many are kept, so they
    /// are recorded as if every item were kept and moved up by the count dropped afterwards
    /// (only when some were).
    @inlinable static func _recordNew<Key>(
        _ items: [Item], at side: _Side, in contents: ItemStoreContents<Item>, index: _IdentityIndex<Key>,
        key: (Item) -> Key
    ) -> (kept: [Item], dropped: Int) {
        let pageCount = items.count
        let storeCount = contents.count
        let offset = contents.counts.logicalOffset
        let atEnd = side == .end
        // Positions from `base` up: the store's items, then the page's (at the end), or the
        // page's, then the store's (at the start).
        let base = atEnd ? offset : offset &- pageCount
        let pageFrom = atEnd ? storeCount : 0
        let storeFrom = atEnd ? 0 : pageCount
        var kept: [Item]?
        var inserted = 0
        func keyAt(_ relative: Int) -> Key {
            let inPage = relative &- pageFrom
            if inPage >= 0 && inPage < inserted {
                if let kept { return key(kept[inPage]) }
                return key(items[inPage])
            }
            return contents._key(at: relative &- storeFrom, key)
        }
        index._reserve(span: storeCount + pageCount, base: base, keyAt: keyAt)
        for position in items.indices {
            let recorded = index._insertDeferringGrowthStep(
                key(items[position]), at: base &+ pageFrom &+ inserted, base: base, keyAt: keyAt)
            if recorded {
                inserted += 1
                kept?.append(items[position])
            } else if kept == nil {
                kept = Array(items[..<position])
            }
        }
        // The page's share of a growth, in one call rather than one per item.
        index._stepGrowth(inserts: inserted, base: base, keyAt: keyAt)
        guard let kept else { return (items, 0) }
        let dropped = pageCount - kept.count
        if !atEnd && dropped > 0 {
            // Last first: a kept item moves up to a position no other kept item still has.
            for slot in kept.indices.reversed() {
                index._reposition(key(kept[slot]), from: base &+ slot, to: base &+ dropped &+ slot)
            }
        }
        return (kept, dropped)
    }

    @inlinable static func _perform<Key>(
        _ operation: _ItemOperation, on item: Item, in contents: ItemStoreContents<Item>, index: _IdentityIndex<Key>,
        key: (Item) -> Key
    ) -> Bool {
        func keyAt(_ relative: Int) -> Key { contents._key(at: relative, key) }
        let offset = contents.counts.logicalOffset
        switch operation {
        case .contains:
            return index.contains(key(item), base: offset, keyAt: keyAt)
        case .remove(let position):
            return index.remove(key(item), at: position, base: offset, keyAt: keyAt)
        }
    }

    @inlinable static func _perform<Key>(
        _ operation: _WholeOperation, on index: _IdentityIndex<Key>, in contents: ItemStoreContents<Item>
    ) -> Int {
        switch operation {
        case .removeAll:
            index.removeAll()
            return 0
        case .count:
            return index.count
        case .renumber(let removed):
            let offset = contents.counts.logicalOffset
            index.renumber(base: offset) { position in
                position &- offset &- _EditOverlay<Item>.countBelow(position, in: removed)
            }
            return 0
        }
    }
}

extension _IdentityFilter where Item: Identifiable {
    /// A filter that identifies items by their `id`, read in place.
    @inlinable init() {
        let index = _IdentityIndex<Item.ID>()
        _onItem = { item, operation, contents in
            Self._perform(operation, on: item, in: contents, index: index, key: { $0.id })
        }
        _onPage = { items, side, contents in Self._recordNew(items, at: side, in: contents, index: index, key: { $0.id }) }
        _onWhole = { operation, contents in Self._perform(operation, on: index, in: contents) }
    }
}

/// An ``_IdentityIndex`` that also holds how to get an item's key, so that the filter's
/// closures capture one object.
@usableFromInline
final class _KeyedIdentityIndex<Item, Key: Hashable>: _IdentityIndex<Key> {
    @usableFromInline let key: (Item) -> Key

    @inlinable init(key: @escaping (Item) -> Key) {
        self.key = key
        super.init()
    }
}

extension ItemStoreContents {
    /// `key` of the item at `index`, read in place (the item is not copied out of its chunk
    /// where `key` reads a stored property).
    @inline(__always)
    @inlinable func _key<Key>(at index: Int, _ key: (Item) -> Key) -> Key {
        precondition(index >= 0 && index < count, "index \(index) out of range 0..<\(count)")
        if index >= frontCount {
            return Self._key(at: backOffset + index, in: back.unsafelyUnwrapped, key)
        }
        return Self._key(at: frontUpper - 1 - index, in: front.unsafelyUnwrapped, key)
    }

    @inline(__always)
    @inlinable static func _key<Key>(at position: Int, in table: ChunkTable<Item>, _ key: (Item) -> Key) -> Key {
        let (chunkIndex, offset) = ChunkLayout.locate(position)
        return table.withUnsafeMutablePointers { header, chunks in
            chunks[chunkIndex - header.pointee.firstChunk].withUnsafeMutablePointerToElements { key($0[offset]) }
        }
    }
}
