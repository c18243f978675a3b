/// The ids of the items in a feed's list, for dropping duplicates: made where the id type is
/// known, so that ids are hashed and compared as their own type (no `AnyHashable` boxing).
///
/// It is three closures over one typed index (``_IdentityIndex``). The closures are literals
/// in `@inlinable` initializers, so the module that makes the filter (the app's, which knows
/// `Item` and `ID`) compiles them specialized: a page pays one indirect call and then typed
/// code (``recordNew(_:)``). Each closure captures only the index, so it uses the index as its
/// context: the filter costs one allocation (the index) until the first id arrives.
///
/// For `Identifiable` items the closures read `item.id` in place; with an `id` closure the
/// index calls it, which costs a copy of each item (a retain per reference it holds) where the
/// closure's generic form differs from the concrete one. Measured in Benchmarks/README.md.
@usableFromInline
struct _IdentityFilter<Item> {
    @usableFromInline enum _ItemOperation { case insert, contains, remove }
    @usableFromInline enum _WholeOperation { case removeAll, count }

    @usableFromInline let _onItem: (Item, _ItemOperation) -> Bool
    @usableFromInline let _onPage: ([Item]) -> (kept: [Item], dropped: Int)
    @usableFromInline let _onWhole: (_WholeOperation) -> Int

    /// A filter that identifies items by `id`.
    @inlinable init<ID: Hashable>(id: @escaping (Item) -> ID) {
        let index = _KeyedIdentityIndex(key: id)
        _onItem = { item, operation in
            switch operation {
            case .insert: index.insert(index.key(item))
            case .contains: index.contains(index.key(item))
            case .remove: index.remove(index.key(item))
            }
        }
        _onPage = { items in Self._recordNew(items, in: index, key: index.key) }
        _onWhole = { operation in Self._perform(operation, on: index) }
    }

    /// Records the id of `item`; `false` if an item with that id is already recorded.
    @inlinable func insert(_ item: Item) -> Bool { _onItem(item, .insert) }

    /// Records the ids of `items` and returns the items whose id was not recorded before (nor
    /// earlier in `items`), in order, and how many were left out. One call per page: the loop
    /// runs in the typed code.
    @inlinable func recordNew(_ items: [Item]) -> (kept: [Item], dropped: Int) { _onPage(items) }

    /// Whether an item with the id of `item` is recorded.
    @inlinable func contains(_ item: Item) -> Bool { _onItem(item, .contains) }

    /// Forgets the id of `item` (when its page is dropped); `false` if it was not recorded.
    @inlinable @discardableResult func remove(_ item: Item) -> Bool { _onItem(item, .remove) }

    /// Forgets every id and frees the index's tables.
    @inlinable func removeAll() { _ = _onWhole(.removeAll) }

    /// The number of ids recorded.
    @inlinable var count: Int { _onWhole(.count) }

    /// The loop of ``recordNew(_:)``; inlined with its `key` closure into each initializer.
    @inlinable static func _recordNew<Key>(
        _ items: [Item], in index: _IdentityIndex<Key>, key: (Item) -> Key
    ) -> (kept: [Item], dropped: Int) {
        var kept: [Item]?
        var inserted = 0
        for position in items.indices {
            if index._insertDeferringGrowthStep(key(items[position])) {
                inserted += 1
                kept?.append(items[position])
            } else if kept == nil {
                kept = Array(items[..<position])
            }
        }
        // The page's share of a growth, in one call rather than one per item.
        index._stepGrowth(inserts: inserted)
        guard let kept else { return (items, 0) }
        return (kept, items.count - kept.count)
    }

    @inlinable static func _perform<Key>(_ operation: _WholeOperation, on index: _IdentityIndex<Key>) -> Int {
        switch operation {
        case .removeAll:
            index.removeAll()
            return 0
        case .count:
            return index.count
        }
    }
}

extension _IdentityFilter where Item: Identifiable {
    /// A filter that identifies items by their `id`, read in place.
    @inlinable init() {
        let index = _IdentityIndex<Item.ID>()
        _onItem = { item, operation in
            switch operation {
            case .insert: index.insert(item.id)
            case .contains: index.contains(item.id)
            case .remove: index.remove(item.id)
            }
        }
        _onPage = { items in Self._recordNew(items, in: index, key: { $0.id }) }
        _onWhole = { operation in Self._perform(operation, on: index) }
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
