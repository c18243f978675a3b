// Edits without refetching: update, remove and insert items by id. Each edit publishes one
// snapshot whose change says what it did; the store's chunks are never written (they are shared
// with older snapshots): updates and removals go to an overlay (`_EditOverlay`), and inserts are
// prepends. Rules with loads in flight: a page that lands after an edit is applied around it
// (the edit stays); a refresh that lands after an edit replaces the list, edits and all.
extension FeedController where Item: Identifiable, Item.ID: Sendable {
    /// Replaces the item whose id is `item.id` with `item`, without refetching.
    ///
    /// Publishes a snapshot whose change is `.updated([index])`; the list's count and every
    /// other item stay. The first edit of a list finds positions by going through it once
    /// (O(list)); every edit after that costs O(edits so far), up to a limit past which the
    /// edits are folded into the list (O(list), once every ``editsFoldedAt`` edits).
    /// - Returns: The item's index.
    /// - Throws: ``FeedEditError/notFound(_:)`` if no item has that id (the list is unchanged),
    ///   ``FeedEditError/requiresUniqueIDs`` when duplicates are kept, ``FeedEditError/closed``.
    @discardableResult
    @inlinable public func update(_ item: Item) throws(FeedEditError) -> Int {
        let (position, index) = try locate(item.id)
        return replace(at: position, index: index, with: item)
    }

    /// Changes the item whose id is `id` with `change`, without refetching; see ``update(_:)``.
    /// - Throws: also ``FeedEditError/idChanged(_:)`` if `change` changed the item's id.
    @discardableResult
    @inlinable public func update(id: Item.ID, _ change: (inout Item) -> Void) throws(FeedEditError) -> Int {
        let (position, index) = try locate(id)
        var item = shownList[index]
        change(&item)
        guard item.id == id else { throw .idChanged("\(id)") }
        return replace(at: position, index: index, with: item)
    }

    /// Removes the items whose id is in `ids`, without refetching.
    ///
    /// Removal is idempotent: an id that is not in the list is skipped, not an error — one
    /// removed already, one the bound dropped (``FeedConfiguration/maximumItems``), one never
    /// loaded, or one given twice. So `remove(ids: [2, 999])` removes item 2 and returns its
    /// index, and removing the same ids again returns `[]` and changes nothing. An empty `ids`
    /// removes nothing and returns `[]`. (``update(_:)`` is different: it has one item to
    /// change, and throws ``FeedEditError/notFound(_:)`` when it is not in the list.)
    ///
    /// Publishes one snapshot whose change is `.removed(indices)` (indices of the list before
    /// the removal), unless nothing was removed, in which case nothing is published. Removed
    /// ids leave the duplicate filter: a page that brings the item again (a reload, a refresh)
    /// shows it again.
    /// - Returns: The indices of the items removed, in the list as it was just before this
    ///   call, ascending (list order, not the order of `ids`); `[]` when none of `ids` was in
    ///   the list.
    /// - Throws: Only for a refused edit, never for an unknown id:
    ///   ``FeedEditError/requiresUniqueIDs`` when duplicates are kept, ``FeedEditError/closed``.
    @discardableResult
    @inlinable public func remove(ids: some Sequence<Item.ID>) throws(FeedEditError) -> [Int] {
        let index = try editablePositions()
        let contents = store.contents
        let offset = contents.counts.logicalOffset
        var removedPositions: [Int] = []
        for id in ids {
            guard let position = index.positions[id] else { continue }
            let storeIndex = position - offset
            let item = overlay?.replacement(at: position) ?? contents[storeIndex]
            identities?.remove(item, at: position, in: contents)
            index.forget(item, at: position)
            removedPositions.append(position)
        }
        guard !removedPositions.isEmpty else { return [] }
        removedPositions.sort()
        let current = overlay
        let indices = removedPositions.map { position in
            current?.visibleIndex(ofStoreIndex: position - offset, offset: offset) ?? position - offset
        }
        var removed = current?.removed ?? []
        removed.append(contentsOf: removedPositions)
        removed.sort()
        var replacedPositions = current?.replacedPositions ?? []
        var replacements = current?.replacements ?? []
        for position in removedPositions {
            let slot = _EditOverlay<Item>.countBelow(position, in: replacedPositions)
            if slot < replacedPositions.count, replacedPositions[slot] == position {
                replacedPositions.remove(at: slot)
                replacements.remove(at: slot)
            }
        }
        publishEdit(
            _EditOverlay(
                removed: removed, replacedPositions: replacedPositions, replacements: replacements,
                removedDroppedAtStart: current?.removedDroppedAtStart ?? 0,
                removedDroppedAtEnd: current?.removedDroppedAtEnd ?? 0, editNumber: (current?.editNumber ?? 0) + 1),
            change: .removed(indices))
        return indices
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
        let index = try editablePositions()
        guard inMachine({ $0.hasLoadedFirstPage }) else { throw .noList }
        var seen = Set<Item.ID>()
        for item in items where index.positions[item.id] != nil || !seen.insert(item.id).inserted {
            throw .duplicateID("\(item.id)")
        }
        guard !items.isEmpty else { return }
        // None is a duplicate (checked above): every item is kept, at the positions it gets.
        _ = identities?.recordNew(items, at: .start, in: store.contents)
        store.prepend(contentsOf: items)
        index.record(items, from: store.droppedAtStart - store.addedAtStart)
        machine.itemsInsertedAtTop(items.count)
        publishList(replacing: false)
        publishStates() // ends the turn: `updates` readers get the insert now
    }

    /// How many edits an overlay holds before they are folded into the list.
    @inlinable public static var editsFoldedAt: Int { 1_024 }

    /// The logical position and the index of the item with `id`.
    @inlinable func locate(_ id: Item.ID) throws(FeedEditError) -> (position: Int, index: Int) {
        let positions = try editablePositions()
        guard let position = positions.positions[id] else { throw .notFound("\(id)") }
        let offset = store.contents.counts.logicalOffset
        let index = overlay?.visibleIndex(ofStoreIndex: position - offset, offset: offset) ?? position - offset
        return (position, index)
    }

    /// The positions by id, made on the first edit.
    @inlinable func editablePositions() throws(FeedEditError) -> _IdentifiableEditIndex<Item> {
        if inMachine({ $0.isClosed }) { throw .closed }
        guard configuration.duplicates == .drop else { throw .requiresUniqueIDs }
        if let index = editIndex as? _IdentifiableEditIndex<Item> { return index }
        let index = _IdentifiableEditIndex<Item>()
        let contents = store.contents
        let offset = contents.counts.logicalOffset
        let removed = overlay?.removed ?? []
        var next = 0
        for storeIndex in 0..<contents.count {
            let position = storeIndex + offset
            if next < removed.count && removed[next] == position {
                next += 1
                continue
            }
            index.positions[contents[storeIndex].id] = position
        }
        editIndex = index
        return index
    }

    /// Lays `item` over the item at logical `position` (shown at `index`) and publishes it.
    @inlinable func replace(at position: Int, index: Int, with item: Item) -> Int {
        let current = overlay
        var replacedPositions = current?.replacedPositions ?? []
        var replacements = current?.replacements ?? []
        let slot = _EditOverlay<Item>.countBelow(position, in: replacedPositions)
        if slot < replacedPositions.count, replacedPositions[slot] == position {
            replacements[slot] = item
        } else {
            replacedPositions.insert(position, at: slot)
            replacements.insert(item, at: slot)
        }
        publishEdit(
            _EditOverlay(
                removed: current?.removed ?? [], replacedPositions: replacedPositions, replacements: replacements,
                removedDroppedAtStart: current?.removedDroppedAtStart ?? 0,
                removedDroppedAtEnd: current?.removedDroppedAtEnd ?? 0, editNumber: (current?.editNumber ?? 0) + 1),
            change: .updated([index]))
        return index
    }

    /// Publishes the list with `edited` laid over it, as a version whose change is `change`;
    /// folds the edits into the list first when they are many.
    @inlinable func publishEdit(_ edited: _EditOverlay<Item>, change: FeedChange) {
        overlay = edited
        if edited.removed.count + edited.replacedPositions.count >= Self.editsFoldedAt { foldEdits() }
        let snapshot = FeedSnapshot(
            version: published.version + 1, generation: published.generation, change: change,
            contents: store.contents, overlay: overlay)
        published = _PublishedList(snapshot)
        broadcaster.publish(snapshot)
        publishStates() // ends the turn: `updates` readers get the edit now
    }

    /// Writes the edits into a new store (O(list)): the items as shown, in order; the pages'
    /// counts lose their removed items. The overlay that stays holds no edit, only the edit
    /// number, so that `change(since:)` still sees the edits between older snapshots and newer
    /// ones. The positions by id are made again on the next edit.
    @inlinable func foldEdits() {
        guard let edited = overlay else { return }
        let shown = FeedSnapshot(version: 0, generation: 0, change: .initial, contents: store.contents, overlay: edited)
        let offset = store.contents.counts.logicalOffset
        // Each page's items, less the removed ones among them.
        var pageStart = 0
        var removedIndex = 0
        for page in 0..<inMachine({ $0.pages.count }) {
            let count = inMachine { $0.pages[page].itemCount }
            var removedHere = 0
            while removedIndex < edited.removed.count, edited.removed[removedIndex] - offset < pageStart + count {
                removedHere += 1
                removedIndex += 1
            }
            if removedHere > 0 { machine.pages[page].itemCount = count - removedHere }
            pageStart += count
        }
        var folded = ItemStore<Item>()
        folded.append(contentsOf: Array(shown))
        // The folded store numbers the items shown from 0.
        identities?.renumber(removing: edited.removed, in: store.contents)
        store = folded
        editIndex = nil
        overlay = _EditOverlay(
            removed: [], replacedPositions: [], replacements: [], removedDroppedAtStart: 0, removedDroppedAtEnd: 0,
            editNumber: edited.editNumber)
    }
}

extension FeedController {
    /// `overlay` without the edits of items outside the list that `counts` describes (the
    /// bound dropped them); removed items dropped are counted at their end.
    @inlinable static func overlayTrimmed(_ overlay: _EditOverlay<Item>, keepingWithin counts: _ItemStoreCounts) -> _EditOverlay<Item> {
        let first = counts.logicalOffset
        let end = first + counts.count
        let keptRemoved = overlay.removed.filter { $0 >= first && $0 < end }
        let below = overlay.removed.count - keptRemoved.count - overlay.removed.filter { $0 >= end }.count
        let above = overlay.removed.count - keptRemoved.count - below
        var replacedPositions: [Int] = []
        var replacements: [Item] = []
        for (position, item) in zip(overlay.replacedPositions, overlay.replacements) where position >= first && position < end {
            replacedPositions.append(position)
            replacements.append(item)
        }
        if keptRemoved.count == overlay.removed.count && replacedPositions.count == overlay.replacedPositions.count {
            return overlay
        }
        return _EditOverlay(
            removed: keptRemoved, replacedPositions: replacedPositions, replacements: replacements,
            removedDroppedAtStart: overlay.removedDroppedAtStart + below,
            removedDroppedAtEnd: overlay.removedDroppedAtEnd + above, editNumber: overlay.editNumber)
    }
}
