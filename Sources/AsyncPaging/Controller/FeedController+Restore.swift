// Export and restore (issue 13): the applied list as a ``FeedState``, and the setup of a
// controller created from one (its designated initializer calls `_restore`).
extension FeedController {
    /// The list as it is now, as a value to save: every applied page with its items and
    /// cursors, the generation, the scroll anchor and the time on `clock`. O(items).
    ///
    /// A bounded feed (``FeedConfiguration/maximumItems``) saves its pages one by one; an
    /// unbounded one, which keeps no record per page, saves its list as one page with the
    /// cursors of its two ends (what it needs to load on at both ends after a restore).
    ///
    /// Only applied pages are exported: a load in flight is not (its page has not landed), nor
    /// are the cursors of empty pages a load followed, nor failures or halted ends (a restored
    /// controller re-derives a halt from the cursors). The items are exported as shown: edits
    /// included (an updated item as updated, a removed one left out, items inserted at the top
    /// in the first page). Duplicates dropped on the way in are not in the list, so not in the
    /// state.
    /// - Parameters:
    ///   - anchorIndex: The index (in the current list, ``currentSnapshot``) of the item the
    ///     UI shows at the top; an index outside the list saves no anchor.
    ///   - clock: The clock that stamps ``FeedState/savedAt``: real time by default, the same
    ///     clock a restoring ``RestorePolicy/ifOlderThan(_:clock:)`` reads.
    /// - Returns: The state, or `nil` before the first page has been applied (nothing to
    ///   restore: create the controller without `restoring:`).
    /// - Throws: ``FeedStateError`` should the list's pages not form one list that can be
    ///   restored. Every rule of the controller keeps them one list (the bound, head merges,
    ///   edits and restores included), so this is a report of a bug, never a state that is
    ///   silently lost.
    @inlinable public func exportState(
        anchorIndex: Int? = nil, savedBy clock: any EpochClock = WallClock()
    ) throws(FeedStateError) -> FeedState<Item, Cursor>? {
        let records = inMachine { machine in
            machine.keepsPages ? Array(machine.pages) : machine.wholeListAsOnePage(itemCount: store.count)
        }
        guard !records.isEmpty else { return nil }
        let contents = store.contents
        // Edits (FeedController+Edits.swift) lie over the store: removed items are skipped and
        // updated ones exported as shown. Both are named by logical position.
        let edits = overlay.flatMap { $0.hasEdits ? $0 : nil }
        let removed = edits?.removed.allPositions ?? []
        let logicalOffset = contents.counts.logicalOffset
        var nextRemoved = 0
        var pages: [Page<Item, Cursor>] = []
        pages.reserveCapacity(records.count)
        var storeIndex = 0
        var exported = 0
        for (position, record) in records.enumerated() {
            // The records count the store's items exactly (removed ones included: they stay in
            // the store until their page goes); `min` only keeps a bad count from reading past the list.
            let count = Swift.max(0, Swift.min(record.itemCount, contents.count - storeIndex))
            var items: [Item] = []
            items.reserveCapacity(count)
            if let edits {
                for index in storeIndex..<(storeIndex + count) {
                    let position = index + logicalOffset
                    while nextRemoved < removed.count && removed[nextRemoved] < position { nextRemoved += 1 }
                    if nextRemoved < removed.count && removed[nextRemoved] == position { continue }
                    items.append(edits.replacement(at: position) ?? contents[index])
                }
            } else {
                contents._append(storeIndex..<(storeIndex + count), to: &items)
            }
            storeIndex += count
            exported += items.count
            // A state takes page k > 0 to have been fetched with the `next` of page k − 1, and
            // the first page with the `previous` of the second: those cursors are written as the
            // cursors the pages were fetched with. A page loaded at the start was fetched with the
            // `previous` of the page after it, and its own `next` may say otherwise (name nothing,
            // or the same page as another): the list exports as the controller holds it, and a
            // restored bound drops and reloads each page through the cursor that fetched it.
            var previous = record.previous
            var next = record.next
            if position == 1, let fetched = records[0].fetchedWith { previous = fetched }
            if position + 1 < records.count, let fetched = records[position + 1].fetchedWith { next = fetched }
            pages.append(Page(items: items, previous: previous, next: next))
        }
        let anchor = anchorIndex.flatMap { (0..<exported).contains($0) ? $0 : nil }
        // The records form one list by construction; should they ever not, the error says where.
        return try FeedState(
            pages: pages, generation: published.generation, anchorIndex: anchor, savedAt: clock.timeSinceEpoch)
    }

    /// Sets up a new controller's machine and store from `state`: the pages are recorded with
    /// the cursors they were fetched with (page `k > 0`: the `next` of page `k - 1`; the first
    /// page: the `previous` of the second, if any), those cursors go into the repeated-cursor
    /// guard and the items' ids into the duplicate filter. Duplicates are dropped as a load
    /// drops them (the first stays). Returns the anchor as an index of the restored list: the
    /// anchor item's, or the next kept item's when the anchor was a dropped duplicate.
    ///
    /// Every item goes into the store first, then the duplicate filter records their ids in
    /// one pass over a table made to their number (``_IdentityFilter/recordAll(in:)``). Only a
    /// state with repeated ids (never one a controller exported: its filter dropped them) is
    /// restored page by page, as a load records it, dropping the later duplicates.
    @inlinable static func _restore(
        _ state: FeedState<Item, Cursor>, into machine: inout Machine, store: inout ItemStore<Item>,
        identities: _IdentityFilter<Item>?
    ) -> Int? {
        for page in state.pages { store.append(contentsOf: page.items) }
        if identities?.recordAll(in: store.contents) ?? true {
            var records: [_PageRecord<Cursor>] = []
            records.reserveCapacity(state.pages.count)
            for (index, page) in state.pages.enumerated() {
                records.append(_PageRecord(
                    itemCount: page.items.count, previous: page.previous, next: page.next,
                    fetchedWith: FeedState<Item, Cursor>.fetchedCursor(ofPageAt: index, in: state.pages)))
            }
            machine.restore(pages: records)
            guard let anchor = state.anchorIndex, store.count > 0 else { return nil }
            return Swift.min(anchor, store.count - 1)
        }
        store = ItemStore()
        return _restoreDroppingDuplicates(state, into: &machine, store: &store, identities: identities!)
    }

    /// ``_restore(_:into:store:identities:)`` of a state with repeated ids: page by page, the
    /// later duplicates dropped as a load drops them. Out of line: rare.
    @inlinable @inline(never) static func _restoreDroppingDuplicates(
        _ state: FeedState<Item, Cursor>, into machine: inout Machine, store: inout ItemStore<Item>,
        identities: _IdentityFilter<Item>
    ) -> Int? {
        var records: [_PageRecord<Cursor>] = []
        records.reserveCapacity(state.pages.count)
        var exportedOffset = 0
        var restoredAnchor: Int?
        for (index, page) in state.pages.enumerated() {
            let countBefore = store.count
            if let anchor = state.anchorIndex, restoredAnchor == nil, anchor < exportedOffset + page.items.count {
                // Split at the anchor to learn how many kept items come before it.
                let before = identities.recordNew(
                    Array(page.items[..<(anchor - exportedOffset)]), at: .end, in: store.contents).kept
                restoredAnchor = countBefore + before.count
                store.append(contentsOf: before)
                let after = identities.recordNew(
                    Array(page.items[(anchor - exportedOffset)...]), at: .end, in: store.contents).kept
                store.append(contentsOf: after)
            } else {
                store.append(contentsOf: identities.recordNew(page.items, at: .end, in: store.contents).kept)
            }
            exportedOffset += page.items.count
            records.append(_PageRecord(
                itemCount: store.count - countBefore, previous: page.previous, next: page.next,
                fetchedWith: FeedState<Item, Cursor>.fetchedCursor(ofPageAt: index, in: state.pages)))
        }
        machine.restore(pages: records)
        guard let restoredAnchor, store.count > 0 else { return nil }
        return Swift.min(restoredAnchor, store.count - 1)
    }
}

extension FeedController where Item: Identifiable {
    /// ``exportState(anchorIndex:savedBy:)`` with the anchor given by the id of the item the
    /// UI shows at the top, found by a linear search of the list (O(items)); an id not in the
    /// list saves no anchor.
    /// - Throws: ``FeedStateError``, as ``exportState(anchorIndex:savedBy:)`` does.
    @inlinable public func exportState(
        anchorID: Item.ID?, savedBy clock: any EpochClock = WallClock()
    ) throws(FeedStateError) -> FeedState<Item, Cursor>? {
        // Searched in the list as shown (edits included), which is the exported list; without
        // edits, in the store directly (the snapshot's subscript checks for edits per item).
        var anchorIndex: Int?
        if let anchorID {
            if let overlay, overlay.hasEdits {
                anchorIndex = shownList.firstIndex { $0.id == anchorID }
            } else {
                let contents = store.contents
                for index in 0..<contents.count where contents[index].id == anchorID {
                    anchorIndex = index
                    break
                }
            }
        }
        return try exportState(anchorIndex: anchorIndex, savedBy: clock)
    }
}
