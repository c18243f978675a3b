/// The ids a page sequence has passed on, for dropping duplicates: one per distinct item read,
/// so it grows with the items (a `Set` of ids; about the ids' size plus a third, per item).
/// A page sequence made without ids, or with ``DuplicatePolicy/keep``, has none.
///
/// A class with a generic subclass, so that the sequence's type does not name the id type.
@usableFromInline class _SeenIDs<Item> {
    @inlinable init() {}

    /// Removes from `items` every item whose id was seen before (in an earlier page or earlier
    /// in this one), remembering the others.
    @inlinable func dropSeen(from items: inout [Item]) {
        fatalError("_SeenIDs is abstract")
    }
}

@usableFromInline final class _SeenIDsByID<Item, ID: Hashable>: _SeenIDs<Item> {
    @usableFromInline var seen: Set<ID> = []
    @usableFromInline let id: (Item) -> ID

    @inlinable init(id: @escaping (Item) -> ID) {
        self.id = id
    }

    @inlinable override func dropSeen(from items: inout [Item]) {
        items.removeAll { !seen.insert(id($0)).inserted }
    }
}
