/// The ids of the items in a feed's list, for dropping duplicates: made where the id type is
/// known, so that ids are hashed and compared as their own type (no `AnyHashable` boxing).
///
/// It is a pair of closures over one typed index (``_KeyedIdentityIndex``). The closures are
/// literals in an `@inlinable` initializer, so the module that makes the filter (the app's,
/// which knows `Item` and `ID`) compiles them specialized: a page pays one indirect call per
/// item and then typed code. A closure that captures only one object uses it as its context,
/// so the filter costs one allocation (the index) until the first id arrives.
@usableFromInline
struct _IdentityFilter<Item> {
    @usableFromInline enum _ItemOperation { case insert, contains, remove }
    @usableFromInline enum _WholeOperation { case removeAll, count }

    @usableFromInline let _onItem: (Item, _ItemOperation) -> Bool
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
        _onWhole = { operation in
            switch operation {
            case .removeAll:
                index.removeAll()
                return 0
            case .count:
                return index.count
            }
        }
    }

    /// Records the id of `item`; `false` if an item with that id is already recorded.
    @inlinable func insert(_ item: Item) -> Bool { _onItem(item, .insert) }

    /// Whether an item with the id of `item` is recorded.
    @inlinable func contains(_ item: Item) -> Bool { _onItem(item, .contains) }

    /// Forgets the id of `item` (when its page is dropped); `false` if it was not recorded.
    @inlinable @discardableResult func remove(_ item: Item) -> Bool { _onItem(item, .remove) }

    /// Forgets every id and frees the index's tables.
    @inlinable func removeAll() { _ = _onWhole(.removeAll) }

    /// The number of ids recorded.
    @inlinable var count: Int { _onWhole(.count) }
}

/// An ``_IdentityIndex`` that also knows how to get an item's key, so that the filter's
/// closures capture one object.
@usableFromInline
final class _KeyedIdentityIndex<Item, Key: Hashable>: _IdentityIndex<Key> {
    @usableFromInline let key: (Item) -> Key

    @inlinable init(key: @escaping (Item) -> Key) {
        self.key = key
        super.init()
    }
}
