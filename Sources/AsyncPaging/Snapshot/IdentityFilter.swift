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
/// The edits of ``FeedController`` find items through it too (``position(of:in:)``,
/// ``position(ofID:in:)``): the positions it holds are those of the listed items, so no second
/// table by id is made.
///
/// For `Identifiable` items the closures read `item.id` in place; with an `id` closure the
/// index calls it, which costs a copy of each item (a retain per reference it holds) where the
/// closure's generic form differs from the concrete one. Measured in Benchmarks/README.md.
@usableFromInline
struct _IdentityFilter<Item: Sendable> {
    /// Where a page goes: after the store's items, or before them.
    @usableFromInline enum _Side { case end, start }
    @usableFromInline enum _ItemOperation { case find, remove(position: Int) }
    @usableFromInline enum _WholeOperation {
        case removeAll, count, remove(Range<Int>, skipping: [Int])
        /// Records every item of the store into the empty index at once (a restore).
        case recordAll
        /// The position of the id (of the index's key type, or it is not found).
        case positionOfID(Any)
        /// The index of the first of the items whose id is recorded or repeats an earlier one's.
        case firstRepeated([Item])
        /// Writes the id of the item into the box (for an error).
        case describeID(Item, _IDDescription)
    }

    /// Where ``describeID(of:)`` receives its text.
    @usableFromInline final class _IDDescription {
        @usableFromInline var text = ""
        @inlinable init() {}
    }

    @usableFromInline let _onItem: (Item, _ItemOperation, ItemStoreContents<Item>) -> Int?
    @usableFromInline let _onPage: ([Item], _Side, ItemStoreContents<Item>) -> (kept: [Item], dropped: Int)
    @usableFromInline let _onWhole: (_WholeOperation, ItemStoreContents<Item>) -> Int

    /// A filter that identifies items by `id`.
    @inlinable init<ID: Hashable>(id: @escaping (Item) -> ID) {
        let index = _KeyedIdentityIndex(key: id)
        _onItem = { item, operation, contents in
            Self._perform(operation, on: item, in: contents, index: index, identity: _ClosureIdentity(key: index.key))
        }
        _onPage = { items, side, contents in
            Self._recordNew(items, at: side, in: contents, index: index, identity: _ClosureIdentity(key: index.key))
        }
        _onWhole = { operation, contents in
            Self._perform(operation, on: index, in: contents, identity: _ClosureIdentity(key: index.key))
        }
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
        _onItem(item, .find, contents) != nil
    }

    /// The logical position of the item with the id of `item`, if one is recorded. O(1).
    @inlinable func position(of item: Item, in contents: ItemStoreContents<Item>) -> Int? {
        _onItem(item, .find, contents)
    }

    /// The logical position of the item whose id is `id`, if one is recorded; an id of another
    /// type than the filter's is not found. O(1) (and a dynamic cast).
    @inlinable func position<ID: Hashable>(ofID id: ID, in contents: ItemStoreContents<Item>) -> Int? {
        let position = _onWhole(.positionOfID(id), contents)
        return position == Int.min ? nil : position
    }

    /// The id of `item`, as text (for an error).
    @inlinable func describeID(of item: Item) -> String {
        let description = _IDDescription()
        _ = _onWhole(.describeID(item, description), .empty)
        return description.text
    }

    /// The index in `items` of the first item whose id is recorded or is the id of an earlier
    /// item of `items`; `nil` if none.
    @inlinable func firstRepeated(in items: [Item], contents: ItemStoreContents<Item>) -> Int? {
        let index = _onWhole(.firstRepeated(items), contents)
        return index < 0 ? nil : index
    }

    /// Forgets the id of `item`, at logical `position` of the store (when its page is dropped,
    /// or it is removed; before the store lets it go); `false` if it was not recorded there.
    @inlinable @discardableResult func remove(_ item: Item, at position: Int, in contents: ItemStoreContents<Item>) -> Bool {
        _onItem(item, .remove(position: position), contents) != nil
    }

    /// Forgets the ids of the items at `storeIndices` of `contents` (the pages the bound drops,
    /// before the store lets them go), but those at the logical positions `skipping`
    /// (ascending: items an edit removed, whose ids left already). One call per page.
    @inlinable func remove(storeIndices: Range<Int>, skipping: [Int], in contents: ItemStoreContents<Item>) {
        _ = _onWhole(.remove(storeIndices, skipping: skipping), contents)
    }

    /// Forgets every id and frees the index's tables.
    @inlinable func removeAll() { _ = _onWhole(.removeAll, .empty) }

    /// Records the ids of every item of `contents` into the filter, which must hold none (a
    /// restore: the items went into the store first), in one pass over a table made to their
    /// number: no growth, no moves. `true` when their ids are distinct; `false` when two items
    /// share an id, and then nothing is recorded (the caller records the items page by page
    /// with ``recordNew(_:at:in:)``, which drops the later duplicates).
    @inlinable func recordAll(in contents: ItemStoreContents<Item>) -> Bool {
        _onWhole(.recordAll, contents) < 0
    }

    /// The number of ids recorded.
    @inlinable var count: Int { _onWhole(.count, .empty) }

    /// The loop of ``recordNew(_:at:in:)``; inlined with its `identity` into each initializer.
    ///
    /// Each item is recorded at the position it would have in the store if every item of the
    /// page were kept (so the index reads a recorded item of the page at its index in `items`);
    /// when some were dropped, the kept ones are moved to the positions they get afterwards.
    @inlinable static func _recordNew<Identity: _ItemIdentity>(
        _ items: [Item], at side: _Side, in contents: ItemStoreContents<Item>, index: _IdentityIndex<Identity.Key>,
        identity: Identity
    ) -> (kept: [Item], dropped: Int) where Identity.Item == Item {
        let pageCount = items.count
        let storeCount = contents.count
        let offset = contents.counts.logicalOffset
        let atEnd = side == .end
        // Positions from `base` up: the store's items, then the page's (at the end), or the
        // page's, then the store's (at the start).
        let keys = _StoreKeys(
            contents: contents, page: items, base: atEnd ? offset : offset &- pageCount,
            pageFrom: atEnd ? storeCount : 0, storeFrom: atEnd ? 0 : pageCount, identity: identity)
        let first = keys.base &+ keys.pageFrom
        index._reserve(span: storeCount + pageCount, keys: keys)
        var kept: [Item]?
        for position in items.indices {
            if index._insertDeferringGrowthStep(identity.key(of: items[position]), at: first &+ position, keys: keys) {
                kept?.append(items[position])
            } else if kept == nil {
                kept = Array(items[..<position])
            }
        }
        // The page's share of a growth, in one call rather than one per item.
        index._stepGrowth(inserts: kept?.count ?? pageCount, keys: keys)
        guard let kept else { return (items, 0) }
        Self._moveKept(of: items, kept: kept.count, from: first, atEnd: atEnd, index: index, identity: identity)
        return (kept, pageCount - kept.count)
    }

    /// Moves the kept items of a page recorded by ``_recordNew(_:at:in:index:identity:)`` with
    /// some dropped to their positions in the store: down to consecutive positions from `first`
    /// at the end; at the start, up to consecutive positions that end where the page's would.
    /// Out of line: only for pages with duplicates.
    @inlinable @inline(never) static func _moveKept<Identity: _ItemIdentity>(
        of items: [Item], kept keptCount: Int, from first: Int, atEnd: Bool, index: _IdentityIndex<Identity.Key>,
        identity: Identity
    ) where Identity.Item == Item {
        // The kept items are those recorded at their provisional position (a dropped item's id
        // is recorded elsewhere, or at the same position by an earlier item: not at its own).
        // Moving in this order, an item never lands on a position another still holds.
        if atEnd {
            var slot = 0
            for position in items.indices {
                let key = identity.key(of: items[position])
                guard index._reposition(key, from: first &+ position, to: first &+ slot) else { continue }
                slot += 1
            }
        } else {
            let dropped = items.count - keptCount
            var slot = keptCount
            for position in items.indices.reversed() {
                let key = identity.key(of: items[position])
                guard index._reposition(key, from: first &+ position, to: first &+ dropped &+ slot - 1) else { continue }
                slot -= 1
            }
        }
    }

    @inlinable static func _perform<Identity: _ItemIdentity>(
        _ operation: _ItemOperation, on item: Item, in contents: ItemStoreContents<Item>,
        index: _IdentityIndex<Identity.Key>, identity: Identity
    ) -> Int? where Identity.Item == Item {
        let keys = _StoreKeys(
            contents: contents, page: [], base: contents.counts.logicalOffset, pageFrom: 0, storeFrom: 0,
            identity: identity)
        switch operation {
        case .find:
            return index.position(of: identity.key(of: item), keys: keys)
        case .remove(let position):
            return index.remove(identity.key(of: item), at: position, keys: keys) ? position : nil
        }
    }

    @inlinable static func _perform<Identity: _ItemIdentity>(
        _ operation: _WholeOperation, on index: _IdentityIndex<Identity.Key>, in contents: ItemStoreContents<Item>,
        identity: Identity
    ) -> Int where Identity.Item == Item {
        switch operation {
        case .remove(let storeIndices, let skipping):
            let offset = contents.counts.logicalOffset
            let keys = _StoreKeys(contents: contents, page: [], base: offset, pageFrom: 0, storeFrom: 0, identity: identity)
            var next = _EditRuns<Void>.countBelow(offset &+ storeIndices.lowerBound, in: skipping)
            var removed = 0
            for storeIndex in storeIndices {
                let position = offset &+ storeIndex
                if next < skipping.count && skipping[next] == position {
                    next += 1
                    continue
                }
                if index.remove(keys.key(at: storeIndex), at: position, keys: keys) { removed += 1 }
            }
            return removed
        case .removeAll:
            index.removeAll()
            return 0
        case .recordAll:
            let keys = _StoreKeys(
                contents: contents, page: [], base: contents.counts.logicalOffset, pageFrom: 0, storeFrom: 0,
                identity: identity)
            return index._recordAll(count: contents.count, keys: keys)
        case .count:
            return index.count
        case .positionOfID(let id):
            guard let key = id as? Identity.Key else { return Int.min }
            let keys = _StoreKeys(
                contents: contents, page: [], base: contents.counts.logicalOffset, pageFrom: 0, storeFrom: 0,
                identity: identity)
            return index.position(of: key, keys: keys) ?? Int.min
        case .firstRepeated(let items):
            let keys = _StoreKeys(
                contents: contents, page: [], base: contents.counts.logicalOffset, pageFrom: 0, storeFrom: 0,
                identity: identity)
            var seen = Set<Identity.Key>()
            for (offset, item) in items.enumerated() {
                let key = identity.key(of: item)
                if index.contains(key, keys: keys) || !seen.insert(key).inserted { return offset }
            }
            return -1
        case .describeID(let item, let description):
            description.text = "\(identity.key(of: item))"
            return 0
        }
    }
}

extension _IdentityFilter where Item: Identifiable {
    /// A filter that identifies items by their `id`, read in place.
    @inlinable init() {
        let index = _IdentityIndex<Item.ID>()
        _onItem = { item, operation, contents in
            Self._perform(operation, on: item, in: contents, index: index, identity: _IdentifiableIdentity())
        }
        _onPage = { items, side, contents in
            Self._recordNew(items, at: side, in: contents, index: index, identity: _IdentifiableIdentity())
        }
        _onWhole = { operation, contents in
            Self._perform(operation, on: index, in: contents, identity: _IdentifiableIdentity())
        }
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

/// How the filter gets an item's id: ``_IdentifiableIdentity`` (`item.id`, read in place) or
/// ``_ClosureIdentity`` (the `id` closure of the controller's initializer).
@usableFromInline
protocol _ItemIdentity<Item, Key> {
    associatedtype Item
    associatedtype Key: Hashable
    func key(of item: Item) -> Key
}

@usableFromInline
struct _IdentifiableIdentity<Item: Identifiable>: _ItemIdentity {
    @inlinable init() {}
    @inlinable @inline(__always) func key(of item: Item) -> Item.ID { item.id }
}

@usableFromInline
struct _ClosureIdentity<Item, Key: Hashable>: _ItemIdentity {
    @usableFromInline let closure: (Item) -> Key
    @inlinable init(key: @escaping (Item) -> Key) { closure = key }
    @inlinable @inline(__always) func key(of item: Item) -> Key { closure(item) }
}

/// The items of a store, and of a page about to go into it, as an ``_IdentityIndex`` reads
/// them: positions from `base` up are the page's from `pageFrom` (its items in order, dropped
/// ones included) and the store's from `storeFrom`.
@usableFromInline
struct _StoreKeys<Identity: _ItemIdentity>: _IdentityKeys where Identity.Item: Sendable {
    @usableFromInline let contents: ItemStoreContents<Identity.Item>
    @usableFromInline let page: [Identity.Item]
    @usableFromInline let base: Int
    @usableFromInline let pageFrom: Int
    @usableFromInline let storeFrom: Int
    @usableFromInline let identity: Identity

    @inlinable init(
        contents: ItemStoreContents<Identity.Item>, page: [Identity.Item], base: Int, pageFrom: Int, storeFrom: Int,
        identity: Identity
    ) {
        self.contents = contents
        self.page = page
        self.base = base
        self.pageFrom = pageFrom
        self.storeFrom = storeFrom
        self.identity = identity
    }

    @inlinable @inline(__always) func key(at relative: Int) -> Identity.Key {
        let inPage = relative &- pageFrom
        if UInt(bitPattern: inPage) < UInt(bitPattern: page.count) { return identity.key(of: page[inPage]) }
        return contents._key(at: relative &- storeFrom) { identity.key(of: $0) }
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
