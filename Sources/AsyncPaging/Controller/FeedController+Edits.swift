// Edits without refetching: update, remove and insert items by id. Each edit publishes one
// snapshot whose change says what it did; the store's chunks are never written (they are shared
// with older snapshots): updates and removals go to an overlay (`_EditOverlay`), and inserts are
// prepends. Items are found by id through the duplicate filter (`identities`), which holds the
// position of every listed item: no second table by id is made. Rules with loads in flight: a
// page that lands after an edit is applied around it (the edit stays); a refresh that lands
// after an edit replaces the list, edits and all.
//
// The API is on every controller whose items have ids: `Identifiable` items, or the `id:` of
// the initializer (a key path or a closure). The ids are those the feed drops duplicates by.
extension FeedController {
    /// Replaces the item with the id of `item` with `item`, without refetching.
    ///
    /// The id is the one the feed drops duplicates by: `Item.id` for `Identifiable` items,
    /// or the `id:` the controller was created with. Publishes a snapshot whose change is
    /// `.updated([index])`; the list's count and every other item stay. An edit costs about
    /// what a page costs, however long the list and however many edits came before it: the
    /// item is found through the duplicate filter (O(1)) and the edit laid over the list
    /// (O(edits / 64)), never written into it.
    /// - Returns: The item's index.
    /// - Throws: ``FeedEditError/notFound(_:)`` if no item has that id (the list is unchanged),
    ///   ``FeedEditError/requiresUniqueIDs`` when the feed keeps duplicates or has no ids,
    ///   ``FeedEditError/closed``.
    @discardableResult
    @inlinable public func update(_ item: Item) throws(FeedEditError) -> Int {
        try _update(item)
    }

    /// `update(_:)`, under a name the `Identifiable` overload can call.
    @inlinable func _update(_ item: Item) throws(FeedEditError) -> Int {
        let identities = try editableIdentities()
        guard let position = identities.position(of: item, in: store.contents) else { throw .notFound(idDescription(of: item)) }
        return replace(at: position, index: shownIndex(ofPosition: position), with: item)
    }

    /// Changes the item whose id is `id` with `change`, without refetching; see `update(_:)`.
    ///
    /// `ID` is the type of the feed's ids (the `id:` of the initializer); an id of another
    /// type is not in the list (``FeedEditError/notFound(_:)``).
    /// - Throws: also ``FeedEditError/idChanged(_:)`` if `change` changed the item's id.
    @discardableResult
    @inlinable public func update<ID: Hashable>(id: ID, _ change: (inout Item) -> Void) throws(FeedEditError) -> Int {
        try _update(id: id, change)
    }

    /// Removes the items whose id is in `ids`, without refetching.
    ///
    /// Removal is idempotent: an id that is not in the list is skipped, not an error — one
    /// removed already, one the bound dropped (``FeedConfiguration/maximumItems``), one never
    /// loaded, or one given twice. So `remove(ids: [2, 999])` removes item 2 and returns its
    /// index, and removing the same ids again returns `[]` and changes nothing. An empty `ids`
    /// removes nothing and returns `[]`. (`update(_:)` is different: it has one item to
    /// change, and throws ``FeedEditError/notFound(_:)`` when it is not in the list.) `ID` is
    /// the type of the feed's ids; an id of another type is not in the list.
    ///
    /// Publishes one snapshot whose change is `.removed(indices)` (indices of the list before
    /// the removal), unless nothing was removed, in which case nothing is published. Removed
    /// ids leave the duplicate filter: a page that brings the item again (a reload, a refresh)
    /// shows it again.
    /// - Returns: The indices of the items removed, in the list as it was just before this
    ///   call, ascending (list order, not the order of `ids`); `[]` when none of `ids` was in
    ///   the list.
    /// - Throws: Only for a refused edit, never for an unknown id:
    ///   ``FeedEditError/requiresUniqueIDs`` when the feed keeps duplicates or has no ids,
    ///   ``FeedEditError/closed``.
    @discardableResult
    @inlinable public func remove<ID: Hashable>(ids: some Sequence<ID>) throws(FeedEditError) -> [Int] {
        try _remove(ids: ids)
    }

    /// Puts `items` before the first item, in order, without refetching: a post the user just
    /// wrote.
    ///
    /// Publishes a snapshot whose change is `.prepended(0..<items.count)`, so a UI keeps its
    /// position as for a load-previous. The items join the list's first page: the duplicate
    /// filter has their ids (the page that later brings them from the server drops them as
    /// duplicates), the bound counts them, and they go with that page when the bound drops it.
    /// The list is not trimmed to the bound here; the next page that lands is.
    /// - Throws: ``FeedEditError/duplicateID(_:)`` if an item's id is in the list or repeats
    ///   among `items` (nothing is inserted), ``FeedEditError/noList`` before the first page,
    ///   ``FeedEditError/requiresUniqueIDs``, ``FeedEditError/closed``.
    @inlinable public func insertAtTop(_ items: [Item]) throws(FeedEditError) {
        try _insertAtTop(items)
    }

    /// `insertAtTop(_:)`, under a name the `Identifiable` overload can call.
    @inlinable func _insertAtTop(_ items: [Item]) throws(FeedEditError) {
        let identities = try editableIdentities()
        guard inMachine({ $0.hasLoadedFirstPage }) else { throw .noList }
        if let repeated = identities.firstRepeated(in: items, contents: store.contents) {
            throw .duplicateID(idDescription(of: items[repeated]))
        }
        guard !items.isEmpty else { return }
        // None is a duplicate (checked above): every item is kept, at the positions it gets.
        _ = identities.recordNew(items, at: .start, in: store.contents)
        store.prepend(contentsOf: items)
        machine.itemsInsertedAtTop(items.count)
        _sessionJournal?.recordWholeList()
        publishList(replacing: false)
        publishStates() // ends the turn: `updates` readers get the insert now
    }

    /// The limit at which edits were once folded into the list. Edits are no longer folded:
    /// each costs the same however many came before it. Kept for code that reads it.
    @inlinable public static var editsFoldedAt: Int { 1_024 }

    /// ``update(id:_:)``, under a name the `Identifiable` overload can call.
    @inlinable func _update<ID: Hashable>(id: ID, _ change: (inout Item) -> Void) throws(FeedEditError) -> Int {
        let identities = try editableIdentities()
        let contents = store.contents
        guard let position = identities.position(ofID: id, in: contents) else { throw .notFound("\(id)") }
        let index = shownIndex(ofPosition: position)
        var item = overlay?.replacement(at: position) ?? contents[position - contents.counts.logicalOffset]
        change(&item)
        // The same id is at the same position (an id is listed once); another id is elsewhere or not listed.
        guard identities.position(of: item, in: contents) == position else { throw .idChanged("\(id)") }
        return replace(at: position, index: index, with: item)
    }

    /// ``remove(ids:)``, under a name the `Identifiable` overload can call.
    @inlinable func _remove<ID: Hashable>(ids: some Sequence<ID>) throws(FeedEditError) -> [Int] {
        let identities = try editableIdentities()
        let contents = store.contents
        let offset = contents.counts.logicalOffset
        var removedPositions: [Int] = []
        for id in ids {
            guard let position = identities.position(ofID: id, in: contents) else { continue }
            let item = overlay?.replacement(at: position) ?? contents[position - offset]
            identities.remove(item, at: position, in: contents)
            removedPositions.append(position)
        }
        guard !removedPositions.isEmpty else { return [] }
        removedPositions.sort()
        let current = overlay
        let indices = removedPositions.map { position in
            current?.visibleIndex(ofStoreIndex: position - offset, offset: offset) ?? position - offset
        }
        var removed = current?.removed ?? _EditRuns()
        var replaced = current?.replaced ?? _EditRuns()
        for position in removedPositions {
            removed.insert(position)
            replaced.remove(position)
        }
        publishEdit(
            _EditOverlay(
                removed: removed, replaced: replaced,
                removedDroppedAtStart: current?.removedDroppedAtStart ?? 0,
                removedDroppedAtEnd: current?.removedDroppedAtEnd ?? 0, editNumber: (current?.editNumber ?? 0) + 1),
            change: .removed(indices))
        return indices
    }

    /// The duplicate filter, through which edits find items, when edits can be made.
    @inlinable func editableIdentities() throws(FeedEditError) -> _IdentityFilter<Item> {
        if inMachine({ $0.isClosed }) { throw .closed }
        guard let identities else { throw .requiresUniqueIDs }
        return identities
    }

    /// The index in the shown list of the item at logical `position`, which is not removed.
    @inlinable func shownIndex(ofPosition position: Int) -> Int {
        let offset = store.contents.counts.logicalOffset
        return overlay?.visibleIndex(ofStoreIndex: position - offset, offset: offset) ?? position - offset
    }

    /// The id of `item` as text, for an error.
    @inlinable func idDescription(of item: Item) -> String {
        identities?.describeID(of: item) ?? "\(item)"
    }

    /// Lays `item` over the item at logical `position` (shown at `index`) and publishes it.
    @inlinable func replace(at position: Int, index: Int, with item: Item) -> Int {
        let current = overlay
        var replaced = current?.replaced ?? _EditRuns()
        replaced.set(item, at: position)
        publishEdit(
            _EditOverlay(
                removed: current?.removed ?? _EditRuns(), replaced: replaced,
                removedDroppedAtStart: current?.removedDroppedAtStart ?? 0,
                removedDroppedAtEnd: current?.removedDroppedAtEnd ?? 0, editNumber: (current?.editNumber ?? 0) + 1),
            change: .updated([index]))
        return index
    }

    /// Publishes the list with `edited` laid over it, as a version whose change is `change`.
    @inlinable func publishEdit(_ edited: _EditOverlay<Item>, change: FeedChange) {
        overlay = edited
        _sessionJournal?.recordWholeList()
        let snapshot = FeedSnapshot(
            version: published.version + 1, generation: published.generation, change: change,
            contents: store.contents, overlay: overlay)
        published = _PublishedList(snapshot)
        broadcaster.publish(snapshot)
        _listObservers?.record(snapshot)
        publishStates() // ends the turn: `updates` readers get the edit now
    }
}

// The API as it was for `Identifiable` items (the same calls, typed by `Item.ID`): so that
// `update(id: .init(...))` and `remove(ids: [])` still infer their id type.
extension FeedController where Item: Identifiable, Item.ID: Sendable {
    /// Replaces the item whose id is `item.id` with `item`, without refetching; see the
    /// overload for every item type.
    /// - Returns: The item's index.
    /// - Throws: ``FeedEditError/notFound(_:)``, ``FeedEditError/requiresUniqueIDs``,
    ///   ``FeedEditError/closed``.
    @discardableResult
    @inlinable public func update(_ item: Item) throws(FeedEditError) -> Int {
        try _update(item)
    }

    /// Puts `items` before the first item, in order, without refetching; see the overload for
    /// every item type.
    /// - Throws: ``FeedEditError/duplicateID(_:)``, ``FeedEditError/noList``,
    ///   ``FeedEditError/requiresUniqueIDs``, ``FeedEditError/closed``.
    @inlinable public func insertAtTop(_ items: [Item]) throws(FeedEditError) {
        try _insertAtTop(items)
    }

    /// Changes the item whose id is `id` with `change`, without refetching; see `update(_:)`.
    /// - Throws: also ``FeedEditError/idChanged(_:)`` if `change` changed the item's id.
    @discardableResult
    @inlinable public func update(id: Item.ID, _ change: (inout Item) -> Void) throws(FeedEditError) -> Int {
        try _update(id: id, change)
    }

    /// Removes the items whose id is in `ids`, without refetching, by the rules of the
    /// generic `remove(ids:)`: ids not in the list are skipped.
    /// - Returns: The indices of the items removed, ascending, in the list as it was.
    /// - Throws: ``FeedEditError/requiresUniqueIDs`` when duplicates are kept, ``FeedEditError/closed``.
    @discardableResult
    @inlinable public func remove(ids: some Sequence<Item.ID>) throws(FeedEditError) -> [Int] {
        try _remove(ids: ids)
    }
}

extension FeedController {
    /// `overlay` without the edits of items outside the list that `counts` describes (the
    /// bound dropped them); removed items dropped are counted at their end.
    @inlinable static func overlayTrimmed(_ overlay: _EditOverlay<Item>, keepingWithin counts: _ItemStoreCounts) -> _EditOverlay<Item> {
        let first = counts.logicalOffset
        let end = first + counts.count
        let (keptRemoved, below, above) = overlay.removed.keeping(from: first, to: end)
        let (keptReplaced, replacedBelow, replacedAbove) = overlay.replaced.keeping(from: first, to: end)
        if below + above + replacedBelow + replacedAbove == 0 { return overlay }
        return _EditOverlay(
            removed: keptRemoved, replaced: keptReplaced,
            removedDroppedAtStart: overlay.removedDroppedAtStart + below,
            removedDroppedAtEnd: overlay.removedDroppedAtEnd + above, editNumber: overlay.editNumber)
    }
}
