/// Where each item of the list is, by id, for edits (``FeedController/update(_:)`` and the
/// others): made on the first edit (O(list), once), then kept up to date as pages land and go
/// (O(page)), and dropped with the list on a refresh. Positions are logical positions (see
/// ``_EditOverlay``), which stay put while pages come and go at either end.
///
/// The base class is what the controller's page path sees (it does not know ids); the
/// `Identifiable` subclass holds the positions.
@usableFromInline class _EditIndex<Item> {
    @inlinable init() {}

    /// Records `items`, at consecutive logical positions from `position`.
    @inlinable func record(_ items: [Item], from position: Int) {}

    /// Forgets `item`, at logical `position` (its page was dropped, or it was removed); an id
    /// recorded at another position since stays.
    @inlinable func forget(_ item: Item, at position: Int) {}
}

/// The positions of `Identifiable` items, by id.
@usableFromInline final class _IdentifiableEditIndex<Item: Identifiable>: _EditIndex<Item> {
    @usableFromInline var positions: [Item.ID: Int] = [:]

    @inlinable override init() {}

    @inlinable override func record(_ items: [Item], from position: Int) {
        var position = position
        for item in items {
            positions[item.id] = position
            position += 1
        }
    }

    @inlinable override func forget(_ item: Item, at position: Int) {
        if positions[item.id] == position { positions.removeValue(forKey: item.id) }
    }
}
