/// The ids a page sequence has passed on, for dropping duplicates: one per distinct item read,
/// so it grows with the items (a `Set` of ids; about the ids' size plus a third, per item).
/// A page sequence made without ids, or with ``DuplicatePolicy/keep``, has none.
///
/// The set lives in the closure, so that the sequence's type does not name the id type. Not
/// `Sendable`: each iteration makes its own (``PageSequence/Iterator`` is not shared).
@usableFromInline final class _SeenIDs<Item> {
    /// Removes from the items every item whose id was seen before (in an earlier page or
    /// earlier in this one), remembering the others.
    @usableFromInline let dropSeen: (inout [Item]) -> Void

    @inlinable init<ID: Hashable>(id: @escaping (Item) -> ID) {
        var seen = Set<ID>()
        dropSeen = { items in items.removeAll { !seen.insert(id($0)).inserted } }
    }
}
